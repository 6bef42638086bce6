import Foundation

/// The names by which `FolderListing` sorts a folder's files before any is opened.
extension FolderListing {
    /// Extensions of the formats galleryssg decodes (see `ImageFormat`).
    static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "mpo", "png", "webp", "heic", "heif", "hif",
        "avif", "tif", "tiff", "gif"
    ]
    /// Files that describe a photo or an album rather than being one; `.json` is Google Takeout's,
    /// and one of another shape is reported by `TakeoutFolder`.
    static let sidecarExtensions: Set<String> = ["md", "xmp", "json"]
    /// Clutter that operating systems and photo tools leave in folders.
    static let systemFiles: Set<String> = [
        ".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini", ".picasa.ini", "picasa.ini",
        "zbthumbnail.info", ".bridgesort", ".bridgelabelsandratings",
        ".localized", "icon\r"
    ]
    /// Folders that hold thumbnails or metadata of NAS and photo tools, never photos of their own.
    static let systemFolders: Set<String> = ["@eadir", "#recycle", "$recycle.bin", ".thumbnails", "__macosx"]
    /// Camera raw formats, read through LibRaw (`images.raw`). LibRaw reads most others too (CRW, SRW,
    /// X3F, 3FR, IIQ…); a file of one of these that LibRaw does not know is reported as it fails.
    static let rawExtensions: Set<String> = [
        "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "raf", "orf",
        "rw2", "pef", "srw", "x3f", "3fr", "iiq", "erf", "mrw", "rwl", "raw"
    ]
    /// Video formats, published as clips through ffmpeg. A file of one of these, or of an extension
    /// galleryssg does not know, is told apart by its first bytes (`MediaSignature`): an Ogg file
    /// named `.webm` is a clip, a song named `.ogg` is audio.
    static let videoExtensions: Set<String> = [
        "mov", "mp4", "m4v", "avi", "mkv", "mts", "m2ts", "3gp", "3g2", "webm", "wmv", "asf", "mpg", "mpeg", "mpe",
        "m1v", "m2v", "ogv", "ogg", "ogm", "ts", "m2t", "tod", "mod", "vob", "flv", "f4v", "divx", "rm", "rmvb", "mxf",
        "nut", "dv"
    ]
    /// Sound formats: never published, reported as audio (unless their bytes are a clip's).
    static let audioExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "flac", "wav", "oga", "opus", "wma", "aif", "aiff", "amr", "ape", "wv", "mka"
    ]
}
