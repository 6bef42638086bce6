import Foundation

/// What a site says about one album beyond its photos: from a folder's `index.md` (folder source)
/// or a manifest's top-level `albums` object. Every field is optional.
///
/// Albums are paths: `2024/Iceland/Day 1` is the album `Day 1` inside `Iceland` inside `2024`, and
/// every prefix is an album of its own with a page.
package struct AlbumInfo: Sendable, Equatable, Codable {
    /// Shown instead of the last path component.
    package var title: String?
    /// Markdown, rendered safely on the album's page.
    package var description: String?
    /// The id of the photo shown on the album's card; its first photo when absent.
    package var cover: String?
    /// The order of the album's own photos; the site's `sort` when absent.
    package var sort: PhotoSort?
    /// Whether the album's photos also appear in the home grid (default true).
    package var showInHome: Bool?
    /// Reachable by its link only (default false): its path carries an unguessable token, and neither
    /// it, its sub-albums nor their photos are listed anywhere (`UnlistedAlbums`).
    package var unlisted: Bool?
    /// The password that protects the album and everything below it (`ProtectedAlbums`): its files
    /// are published encrypted. Never published, stored or put in a key; prefer `passwordEnv`.
    package var password: String?
    /// The environment variable that holds the password, so that no secret sits in a committed file.
    package var passwordEnv: String?
    /// What visitors may download from the album and its sub-albums (those without their own).
    package var download: DownloadSetting?
    /// False to make no zip of this album even where `download` is `album` (`zip: false`, sigal's
    /// `.nozip_gallery`); its photos' own download links stay.
    package var zip: Bool?
    /// The album's place among its sibling albums by hand, lower first (its parent's `order` list,
    /// its own `weight` or sigal's `Order:`); albums without one follow in the usual order.
    package var order: Int?

    /// Whether the album sets a password, one way or the other.
    package var isProtected: Bool { password != nil || passwordEnv != nil }

    package init(
        title: String? = nil, description: String? = nil, cover: String? = nil, sort: PhotoSort? = nil,
        showInHome: Bool? = nil, unlisted: Bool? = nil, download: DownloadSetting? = nil
    ) {
        self.download = download
        self.title = title
        self.description = description
        self.cover = cover
        self.sort = sort
        self.showInHome = showInHome
        self.unlisted = unlisted
    }
}

/// An order of photos: by a key, ascending or descending (a leading `-`, as in `-taken`).
package struct PhotoSort: Sendable, Equatable, Codable, CustomStringConvertible {
    package enum Key: String, Sendable, Codable, CaseIterable {
        /// The date taken; photos without one follow, in source order.
        case taken
        /// The file name or title, compared as people read numbers (`IMG 2` before `IMG 10`).
        case name
        /// The order the source lists them in.
        case source
        /// The star rating, then the date taken.
        case rating
    }

    package var key: Key
    package var descending: Bool

    package init(key: Key, descending: Bool) {
        self.key = key
        self.descending = descending
    }

    /// `taken`, `-taken`, `name`, `-rating`…; nil for anything else.
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let descending = trimmed.hasPrefix("-")
        guard let key = Key(rawValue: String(descending ? trimmed.dropFirst() : Substring(trimmed)).lowercased()) else {
            return nil
        }
        self.init(key: key, descending: descending)
    }

    package var description: String { (descending ? "-" : "") + key.rawValue }

    /// The site-wide default: newest first where dates are known.
    package static let newestFirst = PhotoSort(key: .taken, descending: true)

    package init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let sort = PhotoSort(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription:
                        "\"\(text)\" is not a sort order; use taken, name, source or rating, with - for descending"))
        }
        self = sort
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
