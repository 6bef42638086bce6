import GalleryModel
/// Why an original could not be turned into derivatives.
public struct ImagingError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String

    package static func notAnImage(_ leadingBytes: [UInt8]) -> ImagingError {
        let hex = leadingBytes.prefix(4).map { String($0, radix: 16, uppercase: false) }.map {
            $0.count == 1 ? "0\($0)" : $0
        }.joined(separator: " ")
        return ImagingError(description: "not a JPEG, PNG, WebP, HEIF, AVIF, TIFF or GIF image (file starts with \(hex.isEmpty ? "nothing" : hex))")
    }

    package static func tooManyPixels(_ size: PixelSize, limit: Int) -> ImagingError {
        ImagingError(description: "\(size) is \(size.pixelCount) pixels, over the \(limit)-pixel limit (images.maxPixels)")
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
}
