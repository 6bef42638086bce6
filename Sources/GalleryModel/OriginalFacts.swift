import Foundation

/// What an original is, read from its headers alone: enough to plan and key its derivatives
/// without decoding a pixel. Stored in the build state per content hash.
package struct OriginalFacts: Codable, Sendable, Equatable {
    package var format: ImageFormat
    /// The stored pixel size, before EXIF orientation.
    package var size: PixelSize
    package var exif: ExifInfo
    /// Title, caption, keywords, credits and rating written into the file (XMP, IPTC, EXIF).
    package var embedded = EmbeddedMetadata()
    /// The largest preview a camera raw file embeds (JPEG or 8-bit RGB), as stored; nil for other
    /// formats and for raws without one. Whether it is published instead of a development depends
    /// on the site's sizes (`ImageProcessor.layout`), so the state keeps its size, not the choice.
    package var preview: PixelSize?
    /// For a video: what its container says. The rest of the facts are then its poster frame's
    /// (a PNG at the display size, upright), which goes through the image path like a photo.
    package var video: VideoInfo?
    /// For a motion photo (a JPEG with its clip appended, `MotionPhoto`): the clip's length in
    /// bytes, the file's last ones.
    package var motionClip: Int?
    /// For a photo whose XMP announces a motion photo's clip that is not there (`MotionPhoto`):
    /// what is wrong, so that every build warns of it.
    package var motionProblem: MotionPhotoProblem?
    /// For a JPEG with an HDR gain map it carries over (`GainMap`): the gain map's stored size.
    package var gainMap: PixelSize?

    package init(format: ImageFormat, size: PixelSize, exif: ExifInfo, embedded: EmbeddedMetadata = EmbeddedMetadata())
    {
        self.format = format
        self.size = size
        self.exif = exif
        self.embedded = embedded
    }
}
