import Foundation

/// Album paths as sources write them (`2024/Iceland/Day 1`), made safe to become folders.
///
/// A path is untrusted text from a manifest or a folder tree: components are trimmed and cleaned,
/// empty ones and `.`/`..` are dropped (so `../x` is the album `x` and `a//b` is `a/b`), each is
/// capped in length, and levels beyond `maxDepth` are folded into the deepest one, so a page's path
/// stays short enough for any file system however the source nests.
package enum AlbumPath {
    /// Album levels at most; `2024/Iceland/Day 1` has three. Pages of the deepest albums sit
    /// `maxDepth + 3` folders down (`albums/…/page/2/index.html`), within `SiteRenderer.assetURLs`.
    package static let maxDepth = 8
    /// Characters of one component's name at most; longer names are cut and end in `…`.
    package static let maxNameLength = 200

    /// The cleaned components of `path`; empty when nothing usable is left.
    package static func components(_ path: String?) -> [String] {
        guard let path else { return [] }
        var parts = path.prefix(64 * 1024).split(separator: "/", omittingEmptySubsequences: true).compactMap {
            part -> String? in
            guard let cleaned = UntrustedText.clean(String(part.prefix(4 * maxNameLength)), max: maxNameLength),
                cleaned != ".", cleaned != ".."
            else { return nil }
            return cleaned
        }
        if parts.count > maxDepth {
            let folded = parts[(maxDepth - 1)...].joined(separator: " · ")
            parts = Array(parts.prefix(maxDepth - 1))
            parts.append(UntrustedText.clean(folded, max: maxNameLength) ?? "…")
        }
        return parts
    }

    /// The path's canonical text, the key albums and their settings are matched by.
    package static func normalized(_ path: String?) -> String? {
        let parts = components(path)
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}
