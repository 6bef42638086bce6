import Foundation
import GalleryConfig
import GalleryKeys
import GalleryModel

/// Turns a video original into what the site publishes, through Debian's `ffmpeg` run as a child
/// process: a poster frame (a PNG that then goes through the image path like any photo) and a web
/// file (H.264 and AAC in MP4, `+faststart`), with no metadata of the original's inside.
///
/// Every run names its input with the `file:` protocol and its output as a path, so no name is
/// read as an option or another protocol, and is killed past a time limit that grows with the
/// clip's duration.
package struct VideoEncoder: Sendable {
    /// nil on a machine without ffmpeg: what needs no run (plans, keys, cached files) still works,
    /// and a run throws `ImagingError.noFFmpeg`.
    package let tools: (ffmpeg: MediaTool, ffprobe: MediaTool)?
    package let settings: VideoSettings

    /// The version of the code that makes posters and web files; part of their cache keys.
    package static let version = 1
    /// x264's threads: fixed, so the same clip gives the same bytes on every machine.
    static let encoderThreads = 8

    package init(tools: (ffmpeg: MediaTool, ffprobe: MediaTool)?, settings: VideoSettings) {
        self.tools = tools
        self.settings = settings
    }

    /// The encoder with both tools from `PATH` (without them when ffmpeg is not installed).
    package static func find(settings: VideoSettings, path: String? = ProcessInfo.processInfo.environment["PATH"])
        -> VideoEncoder
    {
        guard let ffmpeg = MediaTool.find("ffmpeg", path: path), let ffprobe = MediaTool.find("ffprobe", path: path)
        else {
            return VideoEncoder(tools: nil, settings: settings)
        }
        return VideoEncoder(tools: (ffmpeg, ffprobe), settings: settings)
    }

    /// ffmpeg, or the error that says to install it.
    package var ffmpeg: MediaTool {
        get throws {
            guard let tools else { throw ImagingError.noFFmpeg }
            return tools.ffmpeg
        }
    }

    package var limits: VideoLimits {
        VideoLimits(maxSeconds: Double(settings.maxSeconds), maxPixels: settings.maxPixels, maxBytes: settings.maxBytes)
    }

    /// Reads the clip's container.
    package func probe(_ file: URL) async throws -> VideoFacts {
        guard let tools else { throw ImagingError.noFFmpeg }
        return try await VideoProbe.probe(file, ffprobe: tools.ffprobe, limits: limits)
    }

    /// How a clip becomes its web file.
    package enum Mode: String, Sendable {
        /// Already H.264 (8-bit 4:2:0, progressive, SDR) in an MP4 or QuickTime file within the caps:
        /// its streams are copied into a new MP4 (audio encoded as AAC when it is something else).
        case remux
        /// Everything else: decoded, turned upright, deinterlaced, scaled, tone-mapped to BT.709 when
        /// HDR or wide-gamut (`VideoToneMap`; never copied, whatever its codec) and encoded with x264.
        case transcode
    }

    /// The web file's plan, known from the facts alone: its mode and the size it is seen at.
    package func plan(_ video: VideoInfo) -> (mode: Mode, size: PixelSize) {
        let display = video.display
        let short = min(display.width, display.height)
        let fits = short <= settings.maxHeight && (video.bitRate ?? 0) <= settings.maxBitrate
        let mp4 = video.container.split(separator: ",").contains { ["mov", "mp4"].contains($0) }
        if video.videoCodec == "h264", ["yuv420p", "yuvj420p"].contains(video.pixelFormat ?? ""), !video.interlaced,
            video.colour?.isWide != true, mp4, fits,
            display.width % 2 == 0, display.height % 2 == 0
        {
            return (.remux, display)
        }
        let scale = short > settings.maxHeight ? Double(settings.maxHeight) / Double(short) : 1
        func even(_ value: Int) -> Int { max(2, Int((Double(value) * scale / 2).rounded()) * 2) }
        return (.transcode, PixelSize(width: even(display.width), height: even(display.height)))
    }

    /// The web file's cache key: the clip's bytes and every setting that changes the file.
    package func webKey(contentHash: Digest, video: VideoInfo) -> Digest {
        var key = CacheKey("web video")
        key.add(Self.version)
        key.add(contentHash)
        let (mode, size) = plan(video)
        key.add(mode.rawValue)
        key.add(size.width)
        key.add(size.height)
        if mode == .transcode {
            key.add(settings.crf)
            key.add(settings.maxBitrate)
        }
        // An HDR clip's file from before it was tone-mapped (washed out) is not this one.
        if video.colour?.isWide == true { key.add(VideoToneMap.recipe) }
        return key.finish()
    }

    /// The key the poster's derivatives are made under, in place of the clip's content hash: the
    /// clip, the poster's size and how the frame is chosen.
    package func posterHash(contentHash: Digest, video: VideoInfo) -> Digest {
        var key = CacheKey("video poster")
        key.add(Self.version)
        key.add(contentHash)
        let size = plan(video).size
        key.add(size.width)
        key.add(size.height)
        if video.colour?.isWide == true { key.add(VideoToneMap.recipe) }
        return key.finish()
    }

    /// The facts the image path plans the poster's derivatives from: a PNG at the web file's size,
    /// upright, with the container's date, camera and position.
    package func posterFacts(_ facts: VideoFacts) -> OriginalFacts {
        var exif = ExifInfo(
            camera: facts.camera, takenAt: facts.takenAt.flatMap { Self.localDate($0) }, location: facts.location)
        exif.orientation = 1
        var result = OriginalFacts(format: .png, size: plan(facts.info).size, exif: exif)
        result.video = facts.info
        return result
    }

    /// `2024-06-01T10:22:01.000000Z` (ffmpeg's `creation_time`) or `2024-06-01T12:22:01+0200` (Apple's
    /// key) as the photo dates are written: `2024-06-01T10:22:01Z`, `2024-06-01T12:22:01+02:00`.
    static func localDate(_ text: String) -> String? {
        var cleaned = text.replacing(/(\d{2}:\d{2}:\d{2})\.\d+/) { $0.output.1 }
        cleaned = cleaned.replacing(/([+-]\d{2})(\d{2})$/) { "\($0.output.1):\($0.output.2)" }
        return PhotoDate(cleaned)?.machine
    }
}
