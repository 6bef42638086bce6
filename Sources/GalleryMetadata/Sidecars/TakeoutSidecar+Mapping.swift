import Foundation
import GalleryModel

/// The one place Google Takeout's fields become galleryssg's (docs/library.md has the table).
///
/// A Takeout sidecar ranks below the photo's `.md` and `.xmp` sidecars, whose fields it never
/// replaces, and above what the file itself says, except for the time taken: Takeout keeps only a
/// UTC time, while the camera's EXIF keeps the local time the photo was taken at, so a time in the
/// file wins and Takeout's is used only for files without one (`Photo.fallbackTakenAt`).
extension TakeoutSidecar {
    /// Extensions that mark a `title` as a file name rather than a title someone wrote.
    static let fileExtensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "heic", "heif", "avif", "tif", "tiff", "dng", "raw", "cr2", "cr3",
        "nef", "arw", "mp4", "mov", "m4v", "avi", "mkv", "3gp", "mts", "m2ts", "webm", "wmv", "mpg", "mpeg"
    ]

    /// The title a person gave the photo: Takeout's `title`, unless it is a file name (as it nearly
    /// always is: the name the photo was uploaded with).
    /// - Parameter fileName: The photo's file name in the folder (`IMG_2041(1).jpg`).
    package func photoTitle(fileName: String) -> String? {
        guard let title else { return nil }
        let ext = (title as NSString).pathExtension.lowercased()
        if title.lowercased() == fileName.lowercased() || Self.fileExtensions.contains(ext)
            || ext == (fileName as NSString).pathExtension.lowercased()
        {
            return nil
        }
        return title
    }

    /// Fills what `photo` lacks: title, description (plain text, kept literal), the place (published
    /// only with `images.showLocation`, as every photo's), the UTC time as the time of last resort,
    /// and with `peopleAsTags` the people's names as tags after the photo's own. `favorited` is not
    /// used: a heart is no star rating.
    package func apply(to photo: inout Photo, fileName: String, peopleAsTags: Bool) {
        photo.title = photo.title ?? photoTitle(fileName: fileName)
        photo.description = photo.description ?? description.map(PhotoMetadata.markdownLiteral)
        photo.location = photo.location ?? location
        photo.fallbackTakenAt = photo.fallbackTakenAt ?? takenAt
        if peopleAsTags {
            for name in people where !photo.tags.contains(name) && photo.tags.count < EmbeddedMetadata.maxKeywords {
                photo.tags.append(name)
            }
        }
    }

    /// Fills what `info` lacks (an `index.md` beside `metadata.json` wins field by field): the
    /// album's title and its description (plain text, kept literal). `access` and `date` are not
    /// used: who may see an album is set by galleryssg's own keys, and an album has no date.
    package func apply(to info: inout AlbumInfo) {
        info.title = info.title ?? title
        info.description = info.description ?? description.map(PhotoMetadata.markdownLiteral)
    }
}
