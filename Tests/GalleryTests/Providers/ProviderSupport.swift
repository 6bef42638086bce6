import Foundation
import GalleryConfig
import GalleryFetch
import GalleryOutput

/// Builds the network stack the way a build does, against a test server.
struct NetworkStack {
    let transport: HTTPTransport
    let downloader: Downloader

    init(
        settings: NetworkSettings = NetworkSettings(
            timeoutSeconds: Fixtures.seconds(5), retries: 2, retryBaseDelay: 0.01), cache: URL? = nil
    ) {
        transport = HTTPTransport(settings: settings)
        downloader = Downloader(transport: transport, cacheFolder: cache)
    }

    /// Runs `body`, then always shuts the client down.
    func run<T: Sendable>(_ body: (Downloader) async throws -> T) async throws -> T {
        do {
            let value = try await body(downloader)
            await transport.shutdown()
            return value
        } catch {
            await transport.shutdown()
            throw error
        }
    }
}

extension FixtureServer.Request {
    var isImage: Bool { path.hasPrefix("/img/") }
}

/// Cuts a recorded JSON document's list into pages, keeping the recorded rows and envelope.
enum Paging {
    struct BadFixture: Error, CustomStringConvertible {
        var fixture: String
        var description: String { "api/\(fixture) is not a JSON object" }
    }

    static func object(_ fixture: String, base: URL) throws -> [String: Any] {
        guard case .data(_, _, _, let body) = try FixtureServer.recorded(fixture, base: base),
            let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        else { throw BadFixture(fixture: fixture) }
        return object
    }

    static func json(_ object: Any) throws -> FixtureServer.Reply {
        .data(status: 200, contentType: "application/json", body: try JSONSerialization.data(withJSONObject: object))
    }
}
