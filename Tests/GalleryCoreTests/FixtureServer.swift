import Foundation
import Hummingbird
import Logging
import NIOCore

/// An in-process HTTP server on a free loopback port that serves fixed responses by path.
///
/// This is the network edge for tests: providers and the downloader talk real HTTP to it.
struct FixtureServer {
    struct Reply: Sendable {
        var status: HTTPResponse.Status = .ok
        var contentType = "application/octet-stream"
        var body: Data
    }

    /// Starts the server, runs `body` with its base URL, then shuts the server down.
    static func with<T: Sendable>(_ routes: [String: Reply], _ body: @Sendable (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.get("**") { request, _ -> Response in
            guard let reply = routes[request.uri.path] else {
                return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "no such fixture")))
            }
            return Response(status: reply.status, headers: [.contentType: reply.contentType],
                            body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "fixture-server")
        logger.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in
                                  continuation.yield(channel.localAddress?.port ?? 0)
                                  continuation.finish()
                              }, logger: logger)
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw CancellationError() }
        return try await body(URL(string: "http://127.0.0.1:\(port)")!)
    }
}
