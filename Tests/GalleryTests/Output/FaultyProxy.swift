import Foundation
import Testing

/// Tests/Deploy/faulty_s3_proxy.py on 127.0.0.1 in front of a `MotoServer`: real HTTP/1.1, forwarded
/// to moto, with a seeded share of the requests answered 503 `SlowDown`, dropped, cut short,
/// stalled or delayed. The caller must `stop()` it.
final class FaultyProxy: @unchecked Sendable {
    /// The share of requests given each fault, and after how many requests every one is refused.
    struct Faults {
        var slowdown = 0.0
        var drop = 0.0
        var lost = 0.0
        var cut = 0.0
        var stall = 0.0
        var delay = 0.0
        var refuseAfter: Int?
        /// How long a stalled request hangs before its connection is closed.
        var stallSeconds = 1.5
    }

    /// The proxy's own counts (the script's `--stats` file).
    struct Counts: Decodable {
        var requests, forwarded, failed, refused, slowdown, drop, lost, cut, stall, delay: Int
    }

    let port: Int
    let process: Process
    let stats: URL
    var endpoint: String { "http://127.0.0.1:\(port)" }

    init(to server: MotoServer, seed: Int, faults: Faults) async throws {
        port = try MotoServer.freePort()
        let folder = try Fixtures.temporaryFolder()
        stats = folder.appendingPathComponent("stats.json")
        let script = Fixtures.repository.appendingPathComponent("Tests/Deploy/faulty_s3_proxy.py")
        var arguments = [
            script.path, "--port", String(port), "--upstream", "127.0.0.1:\(server.port)", "--seed", String(seed),
            "--stats", stats.path, "--stall-seconds", String(faults.stallSeconds)
        ]
        for (name, share) in [
            ("slowdown", faults.slowdown), ("drop", faults.drop), ("lost", faults.lost), ("cut", faults.cut),
            ("stall", faults.stall), ("delay", faults.delay)
        ] {
            arguments += ["--" + name, String(share)]
        }
        if let refuseAfter = faults.refuseAfter { arguments += ["--refuse-after", String(refuseAfter)] }
        process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(MotoServer.executable("python3")))
        process.arguments = arguments
        let log = folder.appendingPathComponent("proxy.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        // Ready once it listens: a connection is accepted (and, holding no request, costs no draw).
        for _ in 0..<100 where !Self.listening(port) {
            guard process.isRunning else { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        guard Self.listening(port) else {
            stop()
            throw MotoServer.ToolFailed(
                description: "the faulty proxy did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        }
    }

    /// What the proxy counted so far.
    func counts() throws -> Counts {
        try JSONDecoder().decode(Counts.self, from: Data(contentsOf: stats))
    }

    /// Kills the proxy: SIGKILL, since a child of the test process may not act on SIGTERM (its
    /// blocked signals are inherited), and the proxy has nothing to save.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func listening(_ port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
