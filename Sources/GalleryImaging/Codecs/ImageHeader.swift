import Foundation
import GalleryModel

/// What a decoder reads from an original's headers without decoding a pixel: enough to check the
/// pixel limit, plan the derivatives and convert the colours later.
package struct ImageHeader: Sendable {
    /// The size the decoder will produce. For HEIF and AVIF that is after the file's own crop,
    /// rotation and mirroring, which libheif applies while decoding.
    package var size: PixelSize
    package var iccProfile: ICCProfile?
    /// The raw EXIF, XMP and IPTC blocks, read by `ExifReader` and `EmbeddedMetadata`.
    package var metadata = MetadataBlocks()
    /// For HEIF: the auxiliary images' types (URNs such as Apple's
    /// `urn:com:apple:photo:2020:aux:hdrgainmap`), alpha and depth left out.
    var auxiliaryTypes: [String] = []
    /// For a GIF or WebP: whether it holds more than one frame (an animation).
    package var animated = false
}
