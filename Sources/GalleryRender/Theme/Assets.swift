import Crypto
import Foundation
import GalleryModel

/// The theme's static files as published: stylesheets and scripts under content-hashed names.
///
/// A fingerprinted file (`static/style.3f9a1c0b7d.css`) never changes under its name, so hosts may
/// cache it for a year; `_headers` says so for Netlify and Cloudflare Pages. Other static files
/// (images, fonts) keep their names, so `url(…)` references inside a stylesheet keep working.
package struct Assets: Sendable {
    /// Published path (relative to the site root) to bytes, sorted by path when written.
    package let files: [String: Data]
    /// Theme path (`static/style.css`) to published path (`static/style.3f9a1c0b7d.css`).
    package let published: [String: String]

    /// Extensions that are fingerprinted.
    static let fingerprinted: Set<String> = ["css", "js"]

    /// Plans the published names of a theme's static files.
    package init(staticFiles: [String: Data]) {
        var files: [String: Data] = [:]
        var published: [String: String] = [:]
        for (path, data) in staticFiles {
            let target = Self.fingerprintedPath(path, data)
            files[target] = data
            published[path] = target
        }
        self.files = files
        self.published = published
    }

    /// `static/app.js` → `static/app.<10 hex digits of SHA-256>.js`; other extensions unchanged.
    static func fingerprintedPath(_ path: String, _ data: Data) -> String {
        let name = (path as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        guard fingerprinted.contains(ext.lowercased()), !name.hasPrefix(".") else { return path }
        let hash = Digest(SHA256.hash(data: data)).hex.prefix(10)
        return String(path.dropLast(ext.count + 1)) + ".\(hash).\(ext)"
    }

    /// The key a template uses for a theme path: `static/css/site.css` → `css_site_css`.
    package static func templateKey(_ path: String) -> String {
        let inner = path.hasPrefix("static/") ? String(path.dropFirst("static/".count)) : path
        return String(inner.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }

    /// Every static file's URL as seen from a page whose root prefix is `root`, keyed by `templateKey`.
    package func urls(root: String) -> [String: String] {
        var result: [String: String] = [:]
        for (path, target) in published { result[Self.templateKey(path)] = root + target }
        return result
    }

    /// A Netlify / Cloudflare Pages `_headers` file: a year of caching for fingerprinted files, and
    /// `nosniff` everywhere. See https://docs.netlify.com/routing/headers/.
    package var headersFile: String {
        var text = "/*\n  X-Content-Type-Options: nosniff\n  Referrer-Policy: strict-origin-when-cross-origin\n"
        for (path, target) in published.sorted(by: { $0.key < $1.key }) where path != target {
            text += "\n/\(target)\n  Cache-Control: public, max-age=31536000, immutable\n"
        }
        if serviceWorker != nil { text += "\n/\(SiteLayout.serviceWorker)\n  Cache-Control: no-cache\n" }
        return text
    }

    /// The service worker that decrypts protected albums (the theme's `static/protect-sw.js`), which
    /// every site publishes at its root as `SiteLayout.serviceWorker`; nil when the theme has none.
    package var serviceWorker: Data? { published["static/protect-sw.js"].flatMap { files[$0] } }
}
