import Foundation
import GalleryModel

extension ExifReader {
    /// Parses an EXIF block as the non-JPEG formats carry it: a TIFF structure, with or without the
    /// `Exif\0\0` prefix (a TIFF file is one itself). Never fails: unreadable EXIF yields defaults.
    ///
    /// libexif's loader takes either a JPEG stream or a block that starts with `Exif\0\0`, so the
    /// prefix is added when it is missing.
    package static func read(exif block: Data) -> ExifInfo {
        read(jpeg: loadable(block))
    }

    /// `block` as libexif's loader takes it: starting with `Exif\0\0`.
    static func loadable(_ block: Data) -> Data {
        block.starts(with: MetadataBlocks.exifSignature) ? block : Data(MetadataBlocks.exifSignature) + block
    }
}
