import Foundation
import GalleryModel

/// A URL or file that could not be fetched.
package struct FetchError: KindedError {
    package enum Kind: Sendable {
        /// Worth retrying: timeouts, dropped connections, 5xx and 429.
        case transient
        /// Retrying cannot help: 4xx, policy, size, content.
        case permanent
    }

    package let location: String
    package let reason: String
    /// The HTTP status, when there was a response.
    package let status: Int?
    package let kind: Kind
    /// Seconds the server asked us to wait (`Retry-After`).
    package let retryAfter: Double?

    package var description: String { "\(location): \(reason)" }

    package init(url: URL, _ reason: String, status: Int? = nil, kind: Kind = .permanent, retryAfter: Double? = nil) {
        self.location = url.absoluteString
        self.reason = reason
        self.status = status
        self.kind = kind
        self.retryAfter = retryAfter
    }

    package init(file: URL, _ reason: String) {
        self.location = file.path
        self.reason = reason
        self.status = nil
        self.kind = .permanent
        self.retryAfter = nil
    }

    /// Whether an HTTP status is worth retrying: 429 (too many requests) and 5xx. The one rule for
    /// downloads, API pages and the deploy's requests.
    package static func isTransient(status: Int) -> Bool { status == 429 || (500...599).contains(status) }

    /// The error for a non-2xx response: 429 and 5xx are transient, the rest permanent.
    package static func status(_ response: HTTPTransport.Response) -> FetchError {
        let status = response.status
        let snippet = String(decoding: response.body.prefix(160), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        return FetchError(
            url: response.url, "HTTP \(status)\(snippet.isEmpty ? "" : ": \(snippet)")", status: status,
            kind: isTransient(status: status) ? .transient : .permanent,
            retryAfter: response.header("retry-after").flatMap(Self.parseRetryAfter))
    }

    /// `Retry-After` as delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    package static func parseRetryAfter(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed) { return max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: trimmed).map { max(0, $0.timeIntervalSinceNow) }
    }
}
