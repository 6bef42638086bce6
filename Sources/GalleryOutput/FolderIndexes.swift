/// Index pages for the folders of a site that have none (`photos/`, `static/`, `search/`, a listing's
/// `page/`…), so that a host that lists folders (many nginx and Apache set-ups, Python's server)
/// lists none: a listing of `photos/` would name every hidden photo's folder. Each is the same small
/// page for its depth, which sends the visitor to the site's home and keeps out of search engines.
package enum FolderIndexes {
    /// The page for a folder, given the relative path from it to the site's root (`../../`).
    package typealias Page = @Sendable (_ root: String) -> [UInt8]

    /// The folders that hold files among `paths` (site-relative) but no `index.html`, the root
    /// included, sorted.
    package static func bare(in paths: [String]) -> [String] {
        var folders = Set<String>()
        var indexed = Set<String>()
        for path in paths {
            var folder = Substring(path)
            var isIndex = path.hasSuffix("/index.html") || path == "index.html"
            while true {
                folder = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
                if isIndex {
                    indexed.insert(String(folder))
                    isIndex = false
                }
                // An ancestor already seen has had all of its own ancestors added too.
                guard folders.insert(String(folder)).inserted, !folder.isEmpty else { break }
            }
        }
        return folders.subtracting(indexed).sorted()
    }

    /// The path from a folder (site-relative, "" for the root) up to the root.
    package static func root(of folder: String) -> String {
        folder.isEmpty ? "./" : String(repeating: "../", count: folder.split(separator: "/").count)
    }
}
