import Foundation
import GalleryMetadata
import GalleryModel

/// Reads a folder's `index.md`: what the photographer says about that album.
///
/// ```markdown
/// ---
/// title: Iceland, June 2024
/// cover: IMG_2041.jpg
/// sort: -taken
/// hidden: [IMG_2042.jpg, Outtakes/]
/// order: [IMG_2041.jpg, Day 2, "IMG_20*.jpg"]
/// home: false
/// unlisted: true
/// download: album
/// ---
/// Ten days around the **Ring Road**.
/// ```
///
/// Every key is optional; the body is the album's Markdown description. sigal's `Title:` header
/// lines and Hugo's bundles (YAML or TOML, `weight`, `draft`, `resources`) are read too (`ForeignKeys`).
package enum AlbumIndex {
    /// The keys `index.md` may use (`showInHome` is an alias of `home`; `description` stands in for a
    /// missing body; `weight`, `draft` and `resources` are Hugo's).
    package static let keys = [
        "title", "description", "cover", "sort", "hidden", "home", "showInHome", "unlisted", "password",
        "passwordEnv", "download", "weight", "draft", "resources", "order", "zip", "status"
    ]

    /// The most file names `hidden` or `order` may list.
    static let maxHidden = 10_000

    /// What an `index.md` says.
    package struct Contents: Sendable, Equatable {
        package var info = AlbumInfo()
        /// The file and sub-folder names (or globs) `hidden` lists, as written (`FolderEntries` matches them).
        package var hiddenFiles: [String] = []
        /// The file and sub-folder names (or globs) `order` lists, first first, as written.
        package var order: [String] = []
        /// Hugo's `draft: true`: none of the folder's own photos is published.
        package var draft = false
        /// `weight` (sigal's `Order:`, or a whole number as `order`): the album's place among its
        /// siblings by hand, after those its parent's `order` list names.
        package var weight: Int?
        /// Hugo's `resources`: titles and descriptions of the folder's files.
        package var resources: [BundleResource] = []
        /// Keys left out (unknown), each to be reported as a warning.
        package var warnings: [MetadataFileError] = []

        package init(info: AlbumInfo = AlbumInfo()) { self.info = info }
    }

    /// Reads `url`.
    /// - Parameter photoIDsByFileName: The photos of that folder: file name (`IMG_2041.jpg`) → photo id.
    /// - Throws: `MetadataFileError` naming the file and line of an unreadable, oversized or
    ///   malformed file, a `cover` that is not a photo of the folder, an unknown `sort` or another
    ///   wrong value. Unknown keys are `warnings`, not errors.
    package static func read(_ url: URL, photoIDsByFileName: [String: String]) throws -> Contents {
        let matter = try FrontMatter.read(url).normalised(for: .albumIndex, known: keys)
        var contents = Contents()
        contents.warnings = matter.unknownKeys(keys)
        var info = AlbumInfo()
        info.title = try matter.string("title", max: EmbeddedMetadata.maxTitle)
        info.description = try matter.body ?? matter.string("description", max: EmbeddedMetadata.maxCaption)
        if let cover = try matter.string("cover", max: 1_000) {
            guard let id = photoIDsByFileName[cover] else {
                throw matter.failure(
                    "cover",
                    "cover \"\(cover.prefix(100))\" is not a photo in this folder; give a file name such as IMG_2041.jpg"
                )
            }
            info.cover = id
        }
        if let text = try matter.string("sort", max: 100) {
            guard let sort = PhotoSort(text) else {
                throw matter.failure(
                    "sort",
                    "unknown sort \"\(text)\"; use taken, name, source or rating, with - for descending (-taken)")
            }
            info.sort = sort
        }
        info.showInHome = try matter.bool("home", "showInHome")
        info.unlisted = try matter.bool("unlisted")
        info.password = try matter.string("password", max: 1_000)
        if let name = try matter.string("passwordEnv", max: 200) {
            guard EnvironmentName.isValid(name) else {
                throw matter.failure(
                    "passwordEnv",
                    "passwordEnv \"\(name.prefix(60))\" is not an environment variable name; use letters, digits and _ (GALLERY_FAMILY_PASSWORD)"
                )
            }
            info.passwordEnv = name
        }
        if let text = try matter.string("download", max: 100) {
            guard let download = DownloadSetting(rawValue: text) else {
                throw matter.failure(
                    "download", "unknown download \"\(text.prefix(100))\"; use \(DownloadSetting.choices)")
            }
            info.download = download
        }
        info.zip = try matter.bool("zip")
        let status = try matter.status()
        if status == .hidden { info.unlisted = info.unlisted ?? true }
        contents.info = info
        contents.hiddenFiles = try matter.list("hidden", max: 1_000, count: maxHidden) ?? []
        contents.draft = try matter.bool("draft") ?? (status == .draft)
        contents.weight = try matter.integer("weight")
        // `order: 3` is a place among siblings, as sigal's `Order: 03`; a list orders the folder's own files.
        if let place = try? matter.integer("order") {
            contents.weight = contents.weight ?? place
        } else {
            contents.order = try matter.list("order", max: 1_000, count: maxHidden) ?? []
        }
        contents.resources = try matter.resources() ?? []
        return contents
    }
}
