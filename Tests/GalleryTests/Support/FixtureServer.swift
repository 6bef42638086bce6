import Foundation
import GalleryOutput
import Hummingbird
import Logging
import NIOCore

/// An in-process HTTP server on a free loopback port: the network edge for tests.
///
/// Providers and the downloader talk real HTTP to it. A handler decides each reply, and the server
/// records every request and the most requests it ever had in flight at once.
struct FixtureServer {
    struct Request: Sendable {
        var path: String
        var query: [String: String]
        var headers: [String: String]
    }

    indirect enum Reply: Sendable {
        case data(
            status: Int = 200, contentType: String = "application/octet-stream", headers: [String: String] = [:],
            body: Data)
        /// Waits before answering, to trip client timeouts.
        case delayed(seconds: Double, Reply)
        /// Declares `declared` bytes, sends `sent` of them, then drops the connection.
        case cutOff(declared: Int, sent: Int)

        static func json(_ text: String, status: Int = 200) -> Reply {
            .data(status: status, contentType: "application/json", body: Data(text.utf8))
        }
        static func ok(_ body: Data, contentType: String = "application/octet-stream") -> Reply {
            .data(status: 200, contentType: contentType, body: body)
        }
    }

    /// What the server saw.
    actor Log {
        private(set) var requests: [Request] = []
        private(set) var active = 0
        private(set) var maxActive = 0
        /// Errors the handler threw (a missing or unreadable fixture), each with the request's path.
        private(set) var handlerErrors: [String] = []
        func begin(_ request: Request) {
            requests.append(request)
            active += 1
            maxActive = max(maxActive, active)
        }
        func end() { active -= 1 }
        func failed(_ request: Request, _ error: any Error) { handlerErrors.append("\(request.path): \(error)") }
        func count(where predicate: (Request) -> Bool) -> Int { requests.filter(predicate).count }
    }

    /// The handler threw: the test fails with this error rather than whatever the client made of the 500.
    struct HandlerFailed: Error, CustomStringConvertible {
        var errors: [String]
        var description: String { "the fixture server's handler threw: " + errors.joined(separator: "; ") }
    }

    /// Starts a server, runs `body` with its base URL and request log, then shuts it down.
    ///
    /// A handler that throws (a fixture it could not read) answers that request with a 500, and
    /// `with` then throws ``HandlerFailed``, so one test fails instead of the whole run crashing.
    static func with<T: Sendable>(
        _ handler: @escaping @Sendable (Request, URL) async throws -> Reply,
        _ body: @Sendable (URL, Log) async throws -> T
    ) async throws -> T {
        let log = Log()
        let base = BaseBox()
        let router = Router()
        router.get("**") { request, _ -> Response in
            var query: [String: String] = [:]
            for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
            let seen = Request(path: request.uri.path, query: query, headers: headers)
            await log.begin(seen)
            let reply: Reply
            do {
                reply = try await handler(seen, await base.url)
            } catch {
                await log.failed(seen, error)
                reply = .data(
                    status: 500, contentType: "text/plain", body: Data("fixture handler threw: \(error)".utf8))
            }
            let response = await render(reply)
            await log.end()
            return response
        }
        var logger = Logger(label: "fixture-server")
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        await base.set(url)
        let result: Result<T, any Error>
        do { result = .success(try await body(url, log)) } catch { result = .failure(error) }
        let errors = await log.handlerErrors
        if !errors.isEmpty { throw HandlerFailed(errors: errors) }
        return try result.get()
    }

    /// A server with a fixed reply per path.
    static func with<T: Sendable>(_ routes: [String: Reply], _ body: @Sendable (URL) async throws -> T) async throws
        -> T
    {
        try await with({ request, _ in routes[request.path] ?? .data(status: 404, body: Data("no such fixture".utf8)) })
        { url, _ in
            try await body(url)
        }
    }

    private static func render(_ reply: Reply) async -> Response {
        switch reply {
        case .data(let status, let contentType, let extra, let body):
            var headers: HTTPFields = [.contentType: contentType]
            for (name, value) in extra { if let field = HTTPFields.Element.Name(name) { headers[field] = value } }
            return Response(
                status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
        case .delayed(let seconds, let inner):
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return await render(inner)
        case .cutOff(let declared, let sent):
            let body = ResponseBody(contentLength: declared) { writer in
                if sent > 0 { try await writer.write(ByteBuffer(bytes: [UInt8](repeating: 0xff, count: sent))) }
                throw CancellationError()
            }
            return Response(status: .ok, headers: [.contentType: "image/jpeg"], body: body)
        }
    }

    private actor BaseBox {
        var url = URL(string: "http://127.0.0.1")!
        func set(_ value: URL) { url = value }
    }
}

extension FixtureServer {
    /// Serves a recorded API body with its image hosts (Flickr farms, 500px CDN) pointed at this server's `/img/`.
    static func recorded(_ fixture: String, base: URL) throws -> Reply {
        let text = String(decoding: try Fixtures.data("api/\(fixture)"), as: UTF8.self)
        let pattern = try NSRegularExpression(
            pattern:
                #"https?:(\\?/)(\\?/)((farm[0-9]+|live)\.static\.?flickr\.com|drscdn\.500px\.org|bucket\.s3\.amazonaws\.com|files\.example\.com)(\\?/)"#
        )
        let host = base.absoluteString
        let rewritten = pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text),
            withTemplate: host.replacingOccurrences(of: "/", with: "$1") + "$1img$1$3$5")
        return .data(status: 200, contentType: "text/plain; charset=utf-8", body: Data(rewritten.utf8))
    }

    /// One of the small fixture JPEGs, picked from the path so different photos get different images.
    /// The pick is a fixed function of the path (FNV-1a), not `hashValue`, which Swift seeds afresh in
    /// every process: a random pick gave each run different aspect ratios and so different grid rows.
    static func image(for path: String) throws -> Reply {
        let hash = path.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        let index = Int(hash % 6) + 1
        return .ok(try Fixtures.data("images/photo-\(index).jpg"), contentType: "image/jpeg")
    }
}
