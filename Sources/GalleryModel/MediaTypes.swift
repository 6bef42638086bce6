import Foundation

/// The media type of every kind of file a site holds, by extension: one table for the deploy's
/// `Content-Type` (`LocalSite`), the preview server (`SiteMiddleware`) and the originals' formats
/// (`ImageFormat.mimeType`). The service worker of protected albums keeps its own, in JavaScript.
public enum MediaTypes {
    /// Bare types, without parameters (each user adds its own `charset`), by lower-case extension.
    public static let byExtension: [String: String] = [
        "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
        "json": "application/json", "map": "application/json", "webmanifest": "application/manifest+json",
        "xml": "application/xml", "txt": "text/plain", "md": "text/markdown",
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "avif": "image/avif", "heic": "image/heic", "heif": "image/heif", "tif": "image/tiff", "tiff": "image/tiff",
        "svg": "image/svg+xml", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "pdf": "application/pdf", "mp4": "video/mp4", "webm": "video/webm", "zip": "application/zip"
    ]

    /// For files of no known type.
    public static let unknown = "application/octet-stream"

}
