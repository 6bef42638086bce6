import Crypto
import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel
import GalleryOutput
import Testing

/// moto's standalone S3 server on 127.0.0.1, with SigV4 checking switched on, and the AWS CLI as a
/// second, independent client. Both come from PyPI (`.ci/run` installs them into its venv).
final class MotoServer: @unchecked Sendable {
    static let tools = ["moto_server", "aws"]
    /// Whether `moto_server` and `aws` are on PATH.
    static var available: Bool { tools.allSatisfy { executable($0) != nil } }

    let port: Int
    let process: Process
    let log: URL
    /// The keys of an IAM user allowed every S3 action.
    private(set) var keys = SigV4.Keys(accessKeyID: "", secretAccessKey: "")
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Starts the server, creates an allowed IAM user and `buckets`, then turns signature checking on
    /// (moto's `/moto-api/reset-auth` sets `INITIAL_NO_AUTH_ACTION_COUNT` to 0: every later request
    /// must be signed by a known key). The caller must `stop()` it.
    init(buckets: [String]) async throws {
        port = try Self.freePort()
        log = try Fixtures.temporaryFolder().appendingPathComponent("moto.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.executable("moto_server")))
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        do {
            try await waitUntilReady()
            keys = try createUser("deployer", policy: Self.allowAll)
            for bucket in buckets { _ = try aws(["s3api", "create-bucket", "--bucket", bucket]) }
            try await post("/moto-api/reset-auth", body: "0")
        } catch {
            stop()
            throw error
        }
    }

    /// Stops the server with SIGINT (werkzeug ignores SIGTERM), or SIGKILL after five seconds.
    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        for _ in 0..<50 where process.isRunning { usleep(100_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    static let allowAll = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#

    /// Creates an IAM user with an inline policy and returns its new access key.
    func createUser(_ name: String, policy: String) throws -> SigV4.Keys {
        _ = try aws(["iam", "create-user", "--user-name", name])
        _ = try aws([
            "iam", "put-user-policy", "--user-name", name, "--policy-name", "deploy", "--policy-document", policy
        ])
        let created = try aws(["iam", "create-access-key", "--user-name", name])
        let key = try #require(created["AccessKey"] as? [String: Any])
        return SigV4.Keys(
            accessKeyID: try #require(key["AccessKeyId"] as? String),
            secretAccessKey: try #require(key["SecretAccessKey"] as? String))
    }

    /// Runs `aws --endpoint-url … ARGS` with `keys` (the deployer's by default) and returns its JSON output.
    @discardableResult
    func aws(_ arguments: [String], keys: SigV4.Keys? = nil) throws -> [String: Any] {
        let result = awsRun(arguments, keys: keys)
        guard result.status == 0 else {
            throw ToolFailed(
                description: "aws \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.errors)")
        }
        if result.output.isEmpty { return [:] }
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
    }

    func awsRun(_ arguments: [String], keys: SigV4.Keys? = nil) -> (status: Int32, output: Data, errors: String) {
        let keys = keys ?? self.keys
        return BrowserTools.run(
            ["aws", "--endpoint-url", endpoint, "--output", "json"] + arguments,
            environment: [
                "AWS_ACCESS_KEY_ID": keys.accessKeyID.isEmpty ? "setup" : keys.accessKeyID,
                "AWS_SECRET_ACCESS_KEY": keys.secretAccessKey.isEmpty ? "setup" : keys.secretAccessKey,
                "AWS_DEFAULT_REGION": "us-east-1", "AWS_CONFIG_FILE": "/dev/null",
                "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
                "AWS_EC2_METADATA_DISABLED": "true"
            ])
    }

    /// Every object under `prefix` in `bucket`, key → ETag without quotes, as the AWS CLI lists them
    /// (it follows continuation tokens itself).
    func objects(_ bucket: String, prefix: String = "") throws -> [String: String] {
        let listing = try aws(["s3api", "list-objects-v2", "--bucket", bucket, "--prefix", prefix])
        var result: [String: String] = [:]
        for object in listing["Contents"] as? [[String: Any]] ?? [] {
            let key = try #require(object["Key"] as? String)
            result[key] = (object["ETag"] as? String)?.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return result
    }

    /// Retries as a deploy makes them, with waits of milliseconds rather than seconds.
    static let quickRetries = S3RetryPolicy(maxAttempts: 8, baseDelay: 0.002, maxBackoff: 0.05)

    /// The target a deploy uses, with small list pages so that listing follows continuation tokens.
    /// - Parameter via: Another endpoint in front of this server (a `FaultyProxy`).
    func target(
        bucket: String, prefix: String, keys: SigV4.Keys? = nil, listPageSize: Int = 3, via: String? = nil,
        network: NetworkSettings = NetworkSettings(), retry: S3RetryPolicy = MotoServer.quickRetries
    ) throws -> S3Target {
        let location = S3Location(
            bucket: bucket, prefix: prefix, endpoint: try #require(URL(string: via ?? endpoint)),
            region: "us-east-1", pathStyle: true)
        return S3Target(
            location: location, keys: keys ?? self.keys, network: network, retry: retry, listPageSize: listPageSize,
            deleteBatchSize: 4)
    }

    /// Deploys `site` to bucket `photos` under `prefix` with the deployer's keys.
    func deploy(_ site: FixtureSite, prefix: String, lines: DeployFixtures.Lines = DeployFixtures.Lines()) async throws
        -> DeployReport
    {
        try await DeployFixtures.deployer(site, to: try target(bucket: "photos", prefix: prefix), lines: lines).deploy()
    }

    /// A site of `photos`, built and deployed once to bucket `photos` under `prefix`.
    func deployedSite(_ photos: [[String: Any]], prefix: String) async throws -> FixtureSite {
        let site = try await DeployFixtures.site(photos: photos)
        _ = try await deploy(site, prefix: prefix)
        return site
    }

    private func waitUntilReady() async throws {
        for _ in 0..<150 {
            if (try? await get("/moto-api/data.json")) == 200 { return }
            guard process.isRunning else { break }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw ToolFailed(
            description: "moto_server did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    private func get(_ path: String) async throws -> Int {
        let transport = HTTPTransport(settings: NetworkSettings(timeoutSeconds: Fixtures.seconds(2)))
        let status = try? await transport.send(try #require(URL(string: endpoint + path))).status
        await transport.shutdown()
        return status ?? 0
    }

    private func post(_ path: String, body: String) async throws {
        let result = BrowserTools.run([
            "python3", "-c",
            "import sys, urllib.request; urllib.request.urlopen("
                + "urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method='POST', "
                + "headers={'Content-Type': 'text/plain'}))",
            endpoint + path, body
        ])
        guard result.status == 0 else { throw ToolFailed(description: "POST \(path) failed: \(result.errors)") }
    }

    /// A port nothing listens on now: bind port 0 on loopback and read what the kernel chose.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
            }
        }
        guard bound else { throw ToolFailed(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    struct ToolFailed: Error, CustomStringConvertible {
        var description: String
    }
}

/// Helpers for deploy tests: sites built from fixtures, and their files' digests.
enum DeployFixtures {
    /// A built site of `photos` (manifest entries, such as `IncrementalFixtures.five`).
    static func site(photos: [[String: Any]]) async throws -> FixtureSite {
        let site = try FixtureSite.make(entries: photos)
        _ = try await site.build()
        return site
    }

    /// Path → MD5 hex of every file of a built site.
    static func digests(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for key in try LocalSite.files(in: folder) {
            result[key] = SigV4.hex(Insecure.MD5.hash(data: try Data(contentsOf: folder.appendingPathComponent(key))))
        }
        return result
    }

    /// A deployer of `site`'s output that records each progress line in `lines`.
    static func deployer(
        _ site: FixtureSite, to target: any DeployTarget, lines: Lines = Lines(),
        redact: @escaping @Sendable (String) -> String = { $0 }
    ) -> Deployer {
        Deployer(
            target: target, site: site.output, concurrency: 3, redact: redact,
            progress: { _, _, line in lines.append(line) })
    }

    /// Progress lines, in the order the deployer reported them.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored += line.split(separator: "\n").map(String.init) } }
        var all: [String] { lock.withLock { stored } }
    }
}
