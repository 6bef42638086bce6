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
    /// bytes, the file's last ones. For a GIF or WebP, whose motion is the whole file: its length
    /// when it is animated (more than one frame), 0 when it is a still; nil in facts stored before
    /// galleryssg looked (`isCurrent` then has them read again).
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

extension OriginalFacts {
    /// Whether the original is an animated GIF or WebP: published as its first frame with its
    /// motion (`AnimationMotion`), never flattened to the first frame alone.
    package var isAnimation: Bool { format.canAnimate && (motionClip ?? 0) > 0 }
}

extension ImageFormat {
    /// GIF and WebP: the formats whose files may hold an animation.
    package var canAnimate: Bool { self == .gif || self == .webp }
}

/// How an animated GIF or WebP's motion is published: a muted, looping H.264 clip made by ffmpeg,
/// or, when it is small (`keptAsIs`), the file itself.
package enum AnimationMotion: Sendable, Equatable {
    /// `motion.mp4`, played like a Live Photo's motion but looping.
    case clip
    /// `motion.gif` or `motion.webp`: the original's bytes, shown as an image over the still.
    case kept(fileExtension: String)

    /// The largest file kept as it is: 512 KiB.
    ///
    /// A GIF this small, no larger than the photo is shown, costs a visitor no more than the clip
    /// would by much (H.264 is often 5 to 10 times smaller, but the still's derivatives are loaded
    /// anyway), keeps its own palette, transparency and timing exactly (H.264 has no alpha and
    /// softens pixel art), and needs no ffmpeg run. Larger ones are encoded.
    static let maxKeptBytes = 512 << 10

    /// How an animation is published on a site whose largest still derivative is `largest`: kept
    /// when it is small, no larger than the photo is shown, and carries no metadata that galleryssg
    /// reads (a kept file is published byte for byte, so a location, date or caption in its XMP or
    /// EXIF would go out with it; the clip has none).
    package static func choose(_ facts: OriginalFacts, largest: PixelSize) -> AnimationMotion {
        let bare = facts.exif == ExifInfo(orientation: facts.exif.orientation) && facts.embedded.isEmpty
        return bare && (facts.motionClip ?? .max) <= maxKeptBytes && facts.size.width <= largest.width
            && facts.size.height <= largest.height
            ? .kept(fileExtension: facts.format.fileExtension) : .clip
    }

    /// The motion file's name in the photo's folder.
    package var fileExtension: String {
        switch self {
        case .clip: "mp4"
        case .kept(let fileExtension): fileExtension
        }
    }
}
