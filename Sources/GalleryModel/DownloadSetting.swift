/// What visitors may download from an album (`download` in the config, an album's `index.md` or the
/// manifest's `albums`): a zip of the album plus each photo's file, each photo's file alone, or nothing.
/// An album without its own setting takes the nearest one above it, else the site's.
package enum DownloadSetting: String, Sendable, Equatable, Codable, CaseIterable {
    /// A zip of the album's own photos on its first page, and a Download link on each photo page.
    case album
    /// A Download link on each photo page.
    case photo
    /// No download links (the default). Not named `none`: `AlbumInfo.download` is optional, and
    /// `.none` there would silently mean "not set" rather than "no downloads".
    case off = "none"

    /// Whether photo pages under this setting link the photo's file.
    package var linksPhotos: Bool { self != .off }

    /// The accepted values, for error messages: `"album", "photo" or "none"`.
    package static let choices = "\"album\", \"photo\" or \"none\""
}
