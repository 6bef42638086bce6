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
/// hidden: [IMG_2042.jpg, IMG_2050.jpg]
/// home: false
/// unlisted: true
/// download: album
/// ---
/// Ten days around the **Ring Road**.
/// ```
///
/// Every key is optional; the body is the album's Markdown description.
package enum AlbumIndex {
    /// The keys `index.md` may use (`showInHome` is an alias of `home`).
    package static let keys = [
        "title", "cover", "sort", "hidden", "home", "showInHome", "unlisted", "password", "passwordEnv",
        "download"
    ]

    /// The most file names `hidden` may list.
    package static let maxHidden = 10_000

    /// Reads `url`.
    /// - Parameter photoIDsByFileName: The photos of that folder: file name (`IMG_2041.jpg`) → photo id.
    /// - Returns: The album's settings and the file names `hidden` lists, as written (the folder
    ///   source leaves those photos out; names of files that do not exist are returned too).
    /// - Throws: `MetadataFileError` naming the file and line of an unreadable, oversized or
    ///   malformed file, an unknown key, a `cover` that is not a photo of the folder, or an unknown `sort`.
    package static func read(_ url: URL, photoIDsByFileName: [String: String]) throws -> (
        info: AlbumInfo, hiddenFiles: [String]
    ) {
        let matter = try FrontMatter.read(url)
        try matter.checkKeys(keys)
        var info = AlbumInfo()
        info.title = try matter.string("title", max: EmbeddedMetadata.maxTitle)
        info.description = matter.body
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
        let hidden = try matter.list("hidden", max: 1_000, count: maxHidden) ?? []
        return (info, hidden)
    }
}
