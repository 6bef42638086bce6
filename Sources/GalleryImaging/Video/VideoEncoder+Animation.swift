import Foundation
import GalleryKeys
import GalleryModel

/// An animation's frame count and length, read from its container without decoding a pixel.
package struct AnimationTiming: Sendable, Equatable {
    package var frames: Int
    package var seconds: Double
    /// The greatest common divisor of the frames' shown durations, in milliseconds: the step of a
    /// constant frame rate that shows every frame for exactly its time.
    package var step = 0
    /// The last frame's shown duration, in seconds.
    var lastSeconds = 0.0

    package init(frames: Int, seconds: Double) {
        self.frames = frames
        self.seconds = seconds
    }

    /// Adds a frame shown for `milliseconds`.
    package mutating func add(milliseconds: Int) {
        frames += 1
        seconds += Double(milliseconds) / 1000
        lastSeconds = Double(milliseconds) / 1000
        step = Self.gcd(step, milliseconds)
    }

    /// How long a browser shows a frame stored with `milliseconds`: one of 10 ms or less (0 among
    /// them) for 100 ms, as Chromium and Firefox do for GIF and WebP alike, and ffmpeg's GIF reader.
    package static func shown(milliseconds: Int) -> Int { milliseconds <= 10 ? 100 : milliseconds }

    private static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }

    /// The clip's frame rate as ffmpeg takes it (`1000/step`): every frame for exactly its time,
    /// unless that would be over `maxRate` frames a second, when the times are rounded to 1/`maxRate` s.
    package var frameRate: (text: String, perSecond: Double) {
        step >= 1000 / VideoEncoder.animationMaxRate && step > 0
            ? ("1000/\(step)", 1000 / Double(step))
            : ("\(VideoEncoder.animationMaxRate)", Double(VideoEncoder.animationMaxRate))
    }
}

/// Animated GIF and WebP as a muted, looping H.264 clip (`AnimationMotion.clip`): the caps, and the
/// runs. The clip is made at a constant frame rate that shows every frame for its own time (the
/// greatest common divisor of the frames' durations), over `images.background`, since H.264 has no
/// transparency.
///
/// GIF goes to ffmpeg as it is (its GIF reader applies each frame's disposal). ffmpeg 5.1 cannot
/// decode animated WebP, so libwebpdemux decodes its frames (`WebPCodec.frames`) and they are
/// sent to ffmpeg's standard input as raw RGB, resampled to the clip's size first, one at a time.
extension VideoEncoder {
    /// The most frames a clip holds; the rest of a longer animation is left out, with a warning.
    static let animationMaxFrames = 3000
    /// The highest frame rate: 50 frames a second, GIF's finest step (0.02 s).
    static let animationMaxRate = 50
    /// The version of the code that makes animation clips; part of their cache keys.
    package static let animationVersion = 1

    /// The frame count and length of `data`'s animation, as far as the caps reach.
    /// - Throws: `ImagingError` when the file cannot be read.
    package static func animationTiming(_ data: Data, format: ImageFormat) throws -> AnimationTiming {
        switch format {
        case .gif: try GIFCodec.timing(data, maxFrames: animationMaxFrames)
        case .webp: try WebPCodec.timing(data, maxFrames: animationMaxFrames)
        default: throw ImagingError(.unsupported, description: "\(format.rawValue) files hold no animation")
        }
    }

    /// The clip's size: the animation's, its shorter side at most `video.maxHeight`, both even.
    func animationSize(_ size: PixelSize) -> PixelSize {
        let short = min(size.width, size.height)
        let scale = short > settings.maxHeight ? Double(settings.maxHeight) / Double(short) : 1
        func even(_ value: Int) -> Int { max(2, Int((Double(value) * scale / 2).rounded()) * 2) }
        return PixelSize(width: even(size.width), height: even(size.height))
    }

    /// What a clip would leave out of the animation, in words ("its last 2.5 s (3000 frames at
    /// most)"); nil when it holds all of it.
    package func animationCut(_ timing: AnimationTiming) -> String? {
        if timing.seconds > Double(settings.maxSeconds) {
            return "everything after \(settings.maxSeconds) s (video.maxSeconds)"
        }
        if timing.frames >= Self.animationMaxFrames {
            return "everything after its first \(Self.animationMaxFrames) frames (the most an animation keeps)"
        }
        return nil
    }

    /// Makes the animation's clip at `output`: H.264 in MP4 with x264 at the web file's settings,
    /// no sound, every frame over `background`, cut at the caps.
    /// - Returns: The animation's timing, as read before the encode.
    /// - Throws: `ImagingError` when ffmpeg is missing, the animation is over `video.maxPixels`, a frame
    ///   cannot be decoded or ffmpeg fails; no file is left then.
    package func animationClip(
        _ data: Data, format: ImageFormat, size: PixelSize, background: RGB, to output: String
    ) async throws -> AnimationTiming {
        let ffmpeg = try ffmpeg
        guard size.pixelCount <= settings.maxPixels else {
            throw ImagingError.format(
                .video,
                "the animation's \(size.width)×\(size.height) frames are over video.maxPixels (\(settings.maxPixels))",
                kind: .unsupported)
        }
        let timing = try Self.animationTiming(data, format: format)
        let seconds = min(timing.seconds, Double(settings.maxSeconds))
        let rate = timing.frameRate
        let clip = animationSize(size)
        var arguments = ["-v", "error", "-nostdin", "-y"]
        var input: (@Sendable (StandardInput) throws -> Void)?
        var cleanUp: () -> Void = {}
        defer { cleanUp() }
        let colour = "r=\(background.red):g=\(background.green):b=\(background.blue)"
        switch format {
        case .gif:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "galleryssg-animation-\(UUID().uuidString).gif")
            try data.write(to: file)
            cleanUp = { try? FileManager.default.removeItem(at: file) }
            // Each frame over a copy of itself filled with the background; the last one held for its
            // time (ffmpeg's reader gives it no duration), then sampled at the constant rate.
            let filter =
                "[0:v]format=rgba,split[fg][bg0];[bg0]lutrgb=\(colour):a=255[bg];[bg][fg]overlay=format=auto,"
                + "tpad=stop_mode=clone:stop_duration=\(String(format: "%.2f", timing.lastSeconds + 1)),"
                + "fps=\(rate.text),scale=\(clip.width):\(clip.height):flags=lanczos,format=yuv420p[v]"
            arguments += ["-f", "gif", "-i", "file:" + file.path, "-filter_complex", filter, "-map", "[v]"]
        default:
            arguments += [
                "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(clip.width)x\(clip.height)", "-framerate", rate.text,
                "-i", "pipe:0", "-vf", "format=yuv420p"
            ]
            input = { stream in
                try Self.sendFrames(data, background: background, size: clip, rate: rate.perSecond, to: stream)
            }
        }
        arguments += [
            "-t", String(format: "%.3f", seconds), "-frames:v", String(Self.animationMaxFrames),
            "-c:v", "libx264", "-preset", "medium", "-crf", String(settings.crf),
            "-maxrate", String(settings.maxBitrate), "-bufsize", String(settings.maxBitrate * 2),
            "-profile:v", "high", "-threads", String(Self.encoderThreads), "-an", "-map_metadata", "-1",
            "-fflags", "+bitexact", "-flags:v", "+bitexact", "-movflags", "+faststart", "-f", "mp4", output
        ]
        let result: MediaTool.Output
        do {
            result = try await ffmpeg.run(arguments, timeout: 120 + seconds * 30, input: input)
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        guard result.status == 0, FileManager.default.fileExists(atPath: output) else {
            try? FileManager.default.removeItem(atPath: output)
            throw ImagingError.format(
                .video, "ffmpeg could not make the animation's clip: \(result.reason)", kind: .toolFailed)
        }
        return timing
    }

    /// Decodes a WebP animation's frames and sends each, at the clip's size, as many times as its
    /// duration spans at `rate` frames a second, until the caps; stops when ffmpeg stops reading.
    private static func sendFrames(
        _ data: Data, background: RGB, size: PixelSize, rate: Double, to stream: StandardInput
    ) throws {
        var end = 0.0  // where the frames sent so far end, in seconds
        var sent = 0
        try WebPCodec.frames(data, background: background) { canvas, milliseconds in
            let frame = canvas.size == size ? canvas : Resampler.resize(canvas, to: size)
            end += Double(AnimationTiming.shown(milliseconds: milliseconds)) / 1000
            // The output frames whose time falls within this frame's.
            let until = min(Int((end * rate).rounded()), animationMaxFrames)
            while sent < until {
                guard frame.pixels.withUnsafeBytes({ stream.write($0) }) else { return false }
                sent += 1
            }
            return sent < animationMaxFrames
        }
    }
}
