import Foundation
import GalleryConfig

/// Headers sent with every original requested below one URL prefix: an API key that a source's
/// originals need (Immich's `x-api-key`).
///
/// The key travels in a header, never in the URL, so it stays out of the download cache's keys,
/// the state database, the build report and every message that names an original's URL.
package struct OriginHeaders: Sendable {
    /// The URL prefix (scheme, host, port and path) the headers are sent to, and only to.
    package let prefix: String
    package let headers: [(String, String)]

    package init(prefix: String, headers: [(String, String)]) {
        self.prefix = prefix
        self.headers = headers
    }

    /// The headers the originals of `source` need; nil for sources whose originals are public.
    package static func `for`(_ source: SourceConfig) -> OriginHeaders? {
        guard case .immich(let immich) = source else { return nil }
        return OriginHeaders(prefix: immich.apiBase.absoluteString, headers: [("x-api-key", immich.apiKey)])
    }

    /// The headers for `url`: none unless it starts with the prefix.
    package func headers(for url: URL) -> [(String, String)] {
        url.absoluteString.hasPrefix(prefix) ? headers : []
    }
}
