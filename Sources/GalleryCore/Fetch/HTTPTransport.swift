import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Fetches URLs over HTTP(S) with a size cap, a timeout and a scheme policy checked on every redirect.
///
/// Plain `http://` is refused unless the host is loopback or the config sets `network.allowHTTP`,
/// so a manifest cannot quietly pull originals over an unencrypted link. Redirects are followed here,
/// not by the client, so that each hop is checked against the same policy.
public final class HTTPTransport: Sendable {
    private let client: HTTPClient
    private let settings: NetworkSettings
    static let userAgent = "galleryssg/0.1 (+https://github.com/galleryssg)"

    public init(settings: NetworkSettings) {
        self.settings = settings
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(15), read: .seconds(Int64(settings.timeoutSeconds)))
        )
        configuration.decompression = .enabled(limit: .ratio(50))
        self.client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Releases the connection pool; call once when the build is done with the network.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// A successful response body.
    public struct Response: Sendable {
        public var url: URL
        public var body: Data
        public var contentType: String?
    }

    /// GETs `url`, following up to five redirects.
    /// - Parameter maxBytes: The largest body accepted; defaults to `network.maxDownloadBytes`.
    /// - Throws: `FetchError` naming the URL.
    public func get(_ url: URL, maxBytes: Int? = nil) async throws -> Response {
        var current = url
        for _ in 0...5 {
            try checkPolicy(current)
            var request = HTTPClientRequest(url: current.absoluteString)
            request.headers.add(name: "User-Agent", value: Self.userAgent)
            let response: HTTPClientResponse
            do {
                response = try await client.execute(request, timeout: .seconds(Int64(settings.timeoutSeconds)))
            } catch {
                throw FetchError(url: current, "request failed: \(error); check the address and your connection")
            }
            let status = response.status.code
            if [301, 302, 303, 307, 308].contains(status) {
                guard let location = response.headers.first(name: "location"),
                      let next = URL(string: location, relativeTo: current)?.absoluteURL else {
                    throw FetchError(url: current, "HTTP \(status) redirect without a usable Location header")
                }
                current = next
                continue
            }
            let limit = maxBytes ?? settings.maxDownloadBytes
            let buffer: ByteBuffer
            do {
                buffer = try await response.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw FetchError(url: current, "response is larger than \(limit) bytes (network.maxDownloadBytes)")
            } catch {
                throw FetchError(url: current, "reading the response failed: \(error)")
            }
            guard (200..<300).contains(status) else {
                let snippet = String(decoding: buffer.readableBytesView.prefix(200), as: UTF8.self)
                    .replacingOccurrences(of: "\n", with: " ")
                throw FetchError(url: current, "HTTP \(status)\(snippet.isEmpty ? "" : ": \(snippet)")")
            }
            return Response(url: current, body: Data(buffer.readableBytesView),
                            contentType: response.headers.first(name: "content-type"))
        }
        throw FetchError(url: url, "more than 5 redirects")
    }

    private func checkPolicy(_ url: URL) throws {
        switch url.scheme?.lowercased() {
        case "https": return
        case "http":
            if settings.allowHTTP || Self.isLoopback(url.host ?? "") { return }
            throw FetchError(url: url, "plain http is allowed only to loopback; use https or set network.allowHTTP")
        default:
            throw FetchError(url: url, "only http and https URLs can be fetched")
        }
    }

    /// Whether a host name is this machine: `localhost`, `127.0.0.0/8` or `::1`.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// A URL or file that could not be fetched.
public struct FetchError: Error, CustomStringConvertible, Sendable {
    public let location: String
    public let reason: String
    public var description: String { "\(location): \(reason)" }

    init(url: URL, _ reason: String) {
        self.location = url.absoluteString
        self.reason = reason
    }

    init(file: URL, _ reason: String) {
        self.location = file.path
        self.reason = reason
    }
}
