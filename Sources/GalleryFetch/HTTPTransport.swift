import AsyncHTTPClient
import Foundation
import GalleryConfig
import NIOCore
import NIOHTTP1

/// One HTTP exchange at a time: a size cap, timeouts, and a scheme policy checked on every redirect.
///
/// Plain `http://` is refused unless the host is loopback or the config sets `source.allowInsecureHTTP`,
/// so a feed cannot quietly pull originals over an unencrypted link. Redirects are followed here,
/// not by the client, so that each hop is checked against the same policy; five at most.
/// Retries, per-host limits and caching are the `Downloader`'s job.
package final class HTTPTransport: Sendable {
    private let client: HTTPClient
    package let settings: NetworkSettings
    package static let userAgent = "galleryssg/0.1"
    static let maxRedirects = 5

    package init(settings: NetworkSettings) {
        self.settings = settings
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(Int64(min(settings.timeoutSeconds, 15))),
                read: .seconds(Int64(settings.timeoutSeconds)))
        )
        configuration.decompression = .enabled(limit: .ratio(50))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = settings.connectionsPerHost
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Releases the connection pool; call once when the build is done with the network.
    package func shutdown() async {
        try? await client.shutdown()
    }

    /// A response of any status, after redirects.
    package struct Response: Sendable {
        package var url: URL
        package var status: Int
        package var headers: [(String, String)]
        package var body: Data

        package func header(_ name: String) -> String? {
            headers.first { $0.0.lowercased() == name.lowercased() }?.1
        }
        package var contentType: String? { header("content-type") }

        package init(url: URL, status: Int, headers: [(String, String)], body: Data) {
            self.url = url
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// Sends a GET and returns the response whatever its status.
    /// - Parameters:
    ///   - headers: Extra request headers (API keys, conditional-request validators).
    ///   - maxBytes: The largest body accepted; defaults to `network.maxDownloadBytes`.
    /// - Throws: `FetchError` for policy violations, connection problems, timeouts, oversized bodies and redirect loops.
    package func send(_ url: URL, headers: [(String, String)] = [], maxBytes: Int? = nil) async throws -> Response {
        var current = url
        for _ in 0...Self.maxRedirects {
            try checkPolicy(current)
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: Self.userAgent)
            for (name, value) in headers { request.headers.add(name: name, value: value) }
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
            } catch {
                throw FetchError(url: current, Self.describe(error), kind: .transient)
            }
            let status = Int(response.status.code)
            if [301, 302, 303, 307, 308].contains(status) {
                guard let location = response.headers.first(name: "location"),
                    let next = URL(string: location, relativeTo: current)?.absoluteURL
                else {
                    throw FetchError(
                        url: current, "HTTP \(status) redirect without a usable Location header", status: status)
                }
                current = next
                continue
            }
            let limit = maxBytes ?? settings.maxDownloadBytes
            if let declared = response.headers.first(name: "content-length").flatMap(Int.init), declared > limit {
                throw FetchError(
                    url: current, "response is larger than \(limit) bytes (network.maxDownloadBytes)", status: status)
            }
            let buffer: ByteBuffer
            do {
                buffer = try await response.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw FetchError(
                    url: current, "response is larger than \(limit) bytes (network.maxDownloadBytes)", status: status)
            } catch {
                throw FetchError(
                    url: current, "the response was cut off: \(Self.describe(error))", status: status, kind: .transient)
            }
            return Response(
                url: current, status: status, headers: response.headers.map { ($0.name, $0.value) },
                body: Data(buffer.readableBytesView))
        }
        throw FetchError(url: url, "more than \(Self.maxRedirects) redirects (a redirect loop?)")
    }

    /// GETs `url` and throws unless the final status is 2xx.
    /// - Throws: `FetchError` naming the URL and status, with the start of the body.
    package func get(_ url: URL, maxBytes: Int? = nil) async throws -> Response {
        let response = try await send(url, maxBytes: maxBytes)
        guard (200..<300).contains(response.status) else { throw FetchError.status(response) }
        return response
    }

    private func checkPolicy(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http":
            if settings.allowHTTP || Self.isLoopback(url.host ?? "") { return }
            throw FetchError(
                url: url, "plain http is allowed only to loopback; use https or set source.allowInsecureHTTP")
        default:
            throw FetchError(url: url, "only http and https URLs can be fetched")
        }
    }

    /// Whether a host name is this machine: `localhost`, `127.0.0.0/8` or `::1`.
    package static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// A short, human description of a client error.
    package static func describe(_ error: Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .readTimeout, .deadlineExceeded: return "timed out (network.timeoutSeconds)"
            case .connectTimeout: return "connection timed out"
            case .remoteConnectionClosed: return "the server closed the connection"
            default: return "\(client)"
            }
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return "connection timed out" }
        return "\(error)"
    }
}
