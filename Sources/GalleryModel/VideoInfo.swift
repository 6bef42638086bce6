import Foundation

/// What a video original is, as `ffprobe` read it from its container: stored in the build state with
/// the original's other facts, so an unchanged clip is never probed again, and shown on its page.
package struct VideoInfo: Sendable, Equatable, Codable {
    /// Seconds.
    package var duration: Double
    /// The frame size as stored.
    package var stored: PixelSize
    /// Degrees clockwise the player turns the frame (0, 90, 180 or 270), from the display matrix.
    package var rotation: Int
    /// `h264`, `hevc`, `vp9`…
    package var videoCodec: String
    /// nil for a clip without sound.
    package var audioCodec: String?
    /// Frames a second (the average; phones record variable rates).
    package var frameRate: Double?
    /// `yuv420p`, `yuv420p10le`…
    package var pixelFormat: String?
    /// Whether the frames are interlaced fields (camcorder MTS files), to be deinterlaced.
    package var interlaced: Bool
    /// `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `mpegts`…
    package var container: String
    /// The file's size.
    package var bytes: Int
    /// The overall bit rate in bits a second, from the container; nil when it does not say.
    package var bitRate: Int?
    /// Its colour tags; nil in facts stored before galleryssg read them (`OriginalFacts.isCurrent`).
    package var colour: VideoColour?

    package init(
        duration: Double, stored: PixelSize, rotation: Int, videoCodec: String, audioCodec: String?, frameRate: Double?,
        pixelFormat: String?, interlaced: Bool, container: String, bytes: Int, bitRate: Int? = nil,
        colour: VideoColour? = nil
    ) {
        self.duration = duration
        self.stored = stored
        self.rotation = rotation
        self.videoCodec = videoCodec
        self.audioCodec = audioCodec
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.interlaced = interlaced
        self.container = container
        self.bytes = bytes
        self.bitRate = bitRate
        self.colour = colour
    }

    /// The size the video is seen at, rotation applied.
    package var display: PixelSize { rotation % 180 == 0 ? stored : stored.transposed }

    /// `0:07`, `1:02:03`: the duration as a player shows it, rounded to the second (at least 0:01).
    package var durationText: String {
        let seconds = max(1, Int(duration.rounded()))
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// `PT7S`, `PT1M2.5S`: the duration as ISO 8601 (schema.org, the video sitemap takes seconds).
    package var isoDuration: String {
        let total = (duration * 10).rounded() / 10
        let minutes = Int(total) / 60
        let seconds = total - Double(minutes * 60)
        let text = seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        return minutes > 0 ? "PT\(minutes)M\(text)S" : "PT\(text)S"
    }
}
