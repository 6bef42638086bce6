import Foundation
import GalleryModel
import GalleryOutput
import GalleryVault

/// Where each file of a site with a password is published: every folder and file name replaced by
/// an opaque name made with the site's key, so that no path tells a photo's id, an album's or a
/// tag's name, or a derivative's size. Depth is kept (`photos/kite/index.html` becomes
/// `q…/b…/index.html`), so the `../` of a page's relative links still reach the root, and only the
/// names after them change: `rewrite` puts the new paths into pages and data files.
///
/// Not mapped: the site's own public files (`isPublic`: the theme's `static/` files, the service
/// worker, `_headers`, `robots.txt`, `404.html`), pages keep their file name (`index.html`, under
/// mapped folders), and inside a protected album's folders and photo folders names are left to
/// `AlbumSealer`, which gives them opaque names under the album's own key.
package struct SitePathMap {
    let key: ContentKey
    /// Folders and folder-name prefixes whose names `AlbumSealer` makes opaque (`albums/…/TOKEN`, `photos/TOKEN-`).
    let albumFolders: [String]
    let photoPrefixes: [String]
    package private(set) var files: [String: String] = [:]
    package private(set) var folders: [String: String] = ["": ""]

    package init(key: ContentKey, albumFolders: [String], photoPrefixes: [String]) {
        self.key = key
        self.albumFolders = albumFolders
        self.photoPrefixes = photoPrefixes
    }

    /// The site's own public files, which every visitor needs before the password: the theme's
    /// folder and these files at the root. The service worker is told the same (`except`).
    static let publicFolder = "static/"
    static let publicFiles = [SiteLayout.serviceWorker, SiteLayout.headers, "robots.txt", SiteLayout.notFound]

    /// The files published in the clear and under their own names (the site's marker files too).
    package static func isPublic(_ path: String) -> Bool {
        path.hasPrefix(publicFolder) || path.hasPrefix(".") || publicFiles.contains(path)
    }

    /// The sharded search index's files (`search/V/t3.js`, `d0.js`), whose names search.js makes
    /// from numbers: they keep them (they tell nothing), in their opaque folder.
    static func isSearchShard(_ path: String) -> Bool {
        guard path.hasPrefix("search/"), let name = path.split(separator: "/").last,
            let first = name.first, first == "t" || first == "d", name.hasSuffix(".js")
        else { return false }
        return name.dropFirst().dropLast(3).allSatisfy(\.isNumber) && name.count > 4
    }

    /// Whether a file or folder lies in a protected album's part of the site.
    func isAlbum(_ path: String) -> Bool {
        photoPrefixes.contains { path.hasPrefix($0) }
            || albumFolders.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// A file's new path, whether or not this build staged it.
    package func published(_ path: String) -> String {
        var map = self
        return map.add(path)
    }

    /// Learns a file's new path and returns it.
    @discardableResult
    package mutating func add(_ path: String) -> String {
        if let known = files[path] { return known }
        let parent = StagedWriter.parent(of: path)
        let name = String(path.dropFirst(parent.isEmpty ? 0 : parent.count + 1))
        let folder = map(folder: parent)
        let ext = (name as NSString).pathExtension.lowercased()
        let mapped =
            isAlbum(path) || name == SiteLayout.folderIndex || Self.isSearchShard(path)
            ? name
            : key.opaqueName(for: "file:" + path) + (ext.isEmpty ? "" : "." + ext)
        let result = folder.isEmpty ? mapped : folder + "/" + mapped
        files[path] = result
        return result
    }

    /// A folder's new path; its parents' first.
    package mutating func map(folder: String) -> String {
        if let known = folders[folder] { return known }
        let parent = StagedWriter.parent(of: folder)
        let above = map(folder: parent)
        let name =
            isAlbum(folder)
            ? String(folder.dropFirst(parent.isEmpty ? 0 : parent.count + 1))
            : key.opaqueName(for: "folder:" + folder)
        let result = above.isEmpty ? name : above + "/" + name
        folders[folder] = result
        return result
    }

    /// Site paths as pages, scripts and JSON write them: a run of name characters and slashes (JSON's
    /// `\/` too), with any `../` in front and, for an absolute URL, the host and base path.
    private static let candidate = try! NSRegularExpression(
        pattern: #"[A-Za-z0-9._~%+-]+(?:(?:/|\\/)[A-Za-z0-9._~%+-]*)*"#)

    /// The text with every path of a mapped file or folder replaced by its new path, written as
    /// it was (relative with its `../`, after a host, with JSON's `\/`).
    package func rewrite(_ text: String) -> String {
        let source = text as NSString
        var result = ""
        var last = 0
        for match in Self.candidate.matches(in: text, range: NSRange(location: 0, length: source.length)) {
            let found = source.substring(with: match.range)
            guard let replaced = replacement(for: found) else { continue }
            result += source.substring(with: NSRange(location: last, length: match.range.location - last)) + replaced
            last = match.range.location + match.range.length
        }
        return last == 0 ? text : result + source.substring(from: last)
    }

    private func replacement(for found: String) -> String? {
        let escaped = found.contains(#"\/"#)
        var parts = (escaped ? found.replacingOccurrences(of: #"\/"#, with: "/") : found)
            .split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var kept: [String] = []
        while let first = parts.first, first == ".." || first == "." {
            kept.append(first)
            parts.removeFirst()
        }
        // An absolute URL's host and base path come first; at most a few parts of them.
        for _ in 0..<4 {
            guard !parts.isEmpty else { return nil }
            if let mapped = lookup(parts.joined(separator: "/")) {
                let path = (kept + [mapped]).joined(separator: "/")
                return escaped ? path.replacingOccurrences(of: "/", with: #"\/"#) : path
            }
            guard parts.count > 1 else { return nil }
            kept.append(parts.removeFirst())
        }
        return nil
    }

    private func lookup(_ path: String) -> String? {
        if path.hasSuffix("/") {
            return folders[String(path.dropLast())].flatMap { $0.isEmpty ? nil : $0 + "/" }
        }
        return files[path]
    }
}
