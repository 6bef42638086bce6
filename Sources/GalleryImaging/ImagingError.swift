import GalleryModel

/// Why an original could not be turned into derivatives.
package struct ImagingError: Error, CustomStringConvertible, Sendable, Equatable {
    package let description: String
    /// For a file that is no image, its first bytes in hex (`74 68 69 73`), for `--report` only.
    package let firstBytes: String?

    package init(description: String, firstBytes: String? = nil) {
        self.description = description
        self.firstBytes = firstBytes
    }

    package static func tooManyPixels(_ size: PixelSize, limit: Int) -> ImagingError {
        ImagingError(
            description: "\(size) is \(size.pixelCount) pixels, over the \(limit)-pixel limit (images.maxPixels)")
    }

    package static func jpeg(_ message: String) -> ImagingError {
        ImagingError(description: "JPEG: \(message)")
    }

    package static func png(_ message: String) -> ImagingError {
        ImagingError(description: "PNG: \(message)")
    }

    package static func webp(_ message: String) -> ImagingError {
        ImagingError(description: "WebP: \(message)")
    }

    package static func heif(_ message: String) -> ImagingError {
        ImagingError(description: "HEIF: \(message)")
    }

    package static func tiff(_ message: String) -> ImagingError {
        ImagingError(description: "TIFF: \(message)")
    }

    package static func gif(_ message: String) -> ImagingError {
        ImagingError(description: "GIF: \(message)")
    }

    package static func video(_ message: String) -> ImagingError {
        ImagingError(description: "video: \(message)")
    }

    /// A video met on a machine without Debian's `ffmpeg` package.
    package static let noFFmpeg = ImagingError(
        description:
            "video: ffmpeg is not installed, so videos are not published; install ffmpeg (Debian: sudo apt install ffmpeg) and build again"
    )

    package static func raw(_ message: String) -> ImagingError {
        ImagingError(description: "camera raw: \(message)")
    }
}
