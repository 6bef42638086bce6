import Foundation

/// What the keys other tools write mean to galleryssg: the one table that maps sigal's, Pelican's,
/// Python-Markdown's and Hugo's keys onto galleryssg's own, per kind of file.
///
/// docs/library.md shows the same table ("Files other tools wrote"). A key read here is renamed
/// before the file's keys are checked, so `Thumbnail: 11.jpg` in a sigal `index.md` is read as
/// `cover: 11.jpg`; a key galleryssg has no use for (Hugo's `slug`, Pelican's `category`) is left
/// out without a word; any other key is reported as unknown, naming the nearest known one.
package enum ForeignKeys {
    /// The file a key was written in.
    package enum FileKind: Sendable, Equatable {
        /// A folder's `index.md` (or Hugo's `_index.md`).
        case albumIndex
        /// A photo's `NAME.md` sidecar.
        case photoSidecar
    }

    /// A key another tool writes, read as a galleryssg key.
    struct Alias {
        /// The key as written, lower-cased.
        let written: String
        /// The galleryssg key it is read as.
        let key: String
        let kinds: [FileKind]
        /// Read so only in `Key: value` header lines (sigal's `Order:` is an album's position there;
        /// in YAML, `order` is left to galleryssg's own meaning).
        var headerLinesOnly = false
    }

    static let aliases: [Alias] = [
        Alias(written: "thumbnail", key: "cover", kinds: [.albumIndex]),  // sigal
        Alias(written: "order", key: "weight", kinds: [.albumIndex], headerLinesOnly: true),  // sigal
        Alias(written: "weight", key: "order", kinds: [.photoSidecar]),  // Hugo
        Alias(written: "summary", key: "description", kinds: [.albumIndex, .photoSidecar]),  // Pelican
        Alias(written: "draft", key: "hidden", kinds: [.photoSidecar]),  // Hugo
        Alias(written: "keywords", key: "tags", kinds: [.photoSidecar])  // Pelican, Python-Markdown
    ]

    /// Keys other tools write that mean nothing to a gallery, lower-cased: read and left out.
    static let unused: [FileKind: Set<String>] = {
        let common: Set<String> = [
            "slug", "aliases", "lastmod", "modified", "publishdate", "expirydate", "layout", "type", "url",
            "linktitle", "menu", "categories", "category", "series", "toc", "cascade", "build", "outputs",
            "sitemap", "markup", "translationkey", "headless", "iscjklanguage", "lang", "template", "save_as",
            "params"
        ]
        return [
            .albumIndex: common.union(["date", "author", "authors", "tags", "keywords"]),
            .photoSidecar: common.union(["resources"])
        ]
    }()

    /// The galleryssg key `key` is read as in a `kind` file, or nil when it is left out as unused.
    /// - Parameters:
    ///   - known: The file's own keys; header lines match them whatever their case (`Title` is `title`).
    ///   - headerLines: Whether the key was written in `Key: value` header lines, whose keys are case-insensitive.
    static func galleryKey(_ key: String, kind: FileKind, known: [String], headerLines: Bool) -> String? {
        let lower = key.lowercased()
        let written = headerLines ? lower : key
        if let alias = aliases.first(where: {
            $0.written == written && $0.kinds.contains(kind) && (headerLines || !$0.headerLinesOnly)
        }) {
            return alias.key
        }
        if headerLines, let own = known.first(where: { $0.lowercased() == lower }) { return own }
        if !known.contains(key), unused[kind]?.contains(lower) == true { return nil }
        return key
    }

    /// Lower-cased keys that make the first lines of a file header lines rather than its text:
    /// galleryssg's own keys and those of the table above.
    static let headerKeys: Set<String> = Set(
        [
            "title", "description", "date", "author", "tags", "cover", "hidden", "rating", "license", "weight", "sort",
            "status"
        ]
            + aliases.map(\.written))
}
