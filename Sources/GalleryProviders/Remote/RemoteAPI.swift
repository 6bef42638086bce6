import Foundation
import GalleryConfig
import GalleryFetch

/// Shared request handling for the API providers.
enum RemoteAPI {
    /// `endpoint` joined with `path` (if any), with the query items in the given order.
    static func url(_ endpoint: URL, path: String? = nil, query: [URLQueryItem]) -> URL {
        var base = endpoint
        if let path {
            if !base.absoluteString.hasSuffix("/") { base = base.appendingPathComponent("") }
            base = base.appendingPathComponent(path)
        }
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
        components.queryItems = query
        return components.url!
    }

    /// Query items sorted by name, so requests are deterministic.
    static func sorted(_ parameters: [String: String]) -> [URLQueryItem] {
        parameters.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
    }

    /// GETs an API URL through the downloader and parses the body as (possibly JSONP-wrapped) JSON.
    ///
    /// Messages never include the request URL, which may carry an API key in its query.
    /// - Throws: `ProviderError` for transport failures, non-2xx statuses and non-JSON bodies.
    static func json(
        _ downloader: Downloader, _ url: URL, headers: [(String, String)] = [], service: String,
        endpoint: URL
    ) async throws -> JSONValue {
        let response = try await send(downloader, url, headers: headers, service: service, endpoint: endpoint)
        guard (200..<300).contains(response.status) else {
            throw ProviderError(
                .unavailable, "\(service): HTTP \(response.status) from \(endpoint.host ?? "the API")")
        }
        return try parse(response, service: service)
    }

    static func send(
        _ downloader: Downloader, _ url: URL, headers: [(String, String)] = [], service: String,
        endpoint: URL
    ) async throws -> HTTPTransport.Response {
        do {
            return try await downloader.api(url, headers: headers)
        } catch let error as FetchError {
            throw ProviderError(
                .unavailable,
                "\(service): \(endpoint.host ?? "the API") did not answer: \(error.reason)"
                    + " (after \(downloader.retryPolicy.retries + 1) attempts); check source.endpoint"
                    + " or try again later")
        }
    }

    static func parse(_ response: HTTPTransport.Response, service: String) throws -> JSONValue {
        guard let body = try? JSONValue.parseLenient(response.body) else {
            let start = String(decoding: response.body.prefix(60), as: UTF8.self).replacingOccurrences(
                of: "\n", with: " ")
            throw ProviderError(
                .malformed,
                "\(service): HTTP \(response.status), and the body is not JSON "
                    + "(\(JSONValue.string(start).quoted)); check source.endpoint")
        }
        return body
    }
}
