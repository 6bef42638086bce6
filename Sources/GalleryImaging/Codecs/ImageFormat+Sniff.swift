import Foundation
import GalleryModel

extension ImageFormat {
    /// Tells the format from the first bytes.
    /// - Throws: `ImagingError` saying what the file is instead when no supported signature matches.
    package static func sniff(_ data: Data) throws -> ImageFormat {
        guard let format = recognise(data) else { throw ImagingError.notAnImage([UInt8](data.prefix(64))) }
        // DNG, NEF, ARW and PEF start as any TIFF does: LibRaw tells a camera's raw from a picture.
        if format == .tiff && RAWCodec.isCameraRaw(data) { return .raw }
        return format
    }
}
