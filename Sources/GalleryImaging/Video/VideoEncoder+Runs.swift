import Foundation
import GalleryModel

/// The `ffmpeg` runs: the poster frame and the web file.
extension VideoEncoder {
    /// A frame whose mean luma (0–255) is below this is too dark for a poster (a lens cap, a
    /// pocket, the black a clip fades in from), as sigal skips dark frames.
    package static let darkLuma = 28.0

    /// The times a poster frame is tried at, best first: a tenth in (at most 3 s), a third, the
    /// middle, three quarters, then the first frame (the only one of a 1-frame clip).
    static func posterTimes(duration: Double) -> [Double] {
        guard duration >= 0.5 else { return [0] }
        var times: [Double] = []
        for time in [min(duration * 0.1, 3), duration / 3, duration / 2, duration * 0.75, 0] where !times.contains(time)
        {
            times.append(time)
        }
        return times
    }

    /// The poster: the first frame of `posterTimes` that is not dark (else the brightest), upright,
    /// at the web file's size, tone-mapped to sRGB when the clip is HDR (`VideoToneMap`), as PNG bytes.
    /// - Throws: `ImagingError` when no frame can be read at all.
    package func poster(_ file: URL, video: VideoInfo) async throws -> Data {
        let ffmpeg = try ffmpeg
        let size = plan(video).size
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "galleryssg-poster-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var best: (luma: Double, data: Data)?
        var lastError = ""
        for (index, time) in Self.posterTimes(duration: video.duration).enumerated() {
            let png = scratch.appendingPathComponent("\(index).png")
            let gray = scratch.appendingPathComponent("\(index).gray")
            let scaled = (video.interlaced ? "yadif," : "") + "scale=\(size.width):\(size.height):flags=lanczos"
            let filter = VideoToneMap.filters(video.colour, to: .poster).map { scaled + "," + $0 } ?? scaled
            let output = try await ffmpeg.run(
                [
                    "-v", "error", "-nostdin", "-y", "-ss", String(format: "%.3f", time), "-i", "file:" + file.path,
                    "-map", "0:v:0", "-frames:v", "1", "-vf", filter + ",format=rgb24", "-c:v", "png", "-f", "image2",
                    png.path,
                    "-map", "0:v:0", "-frames:v", "1", "-vf", filter + ",scale=16:16,format=gray", "-f", "rawvideo",
                    gray.path
                ],
                timeout: 60 + video.duration)
            guard output.status == 0, let data = try? Data(contentsOf: png), !data.isEmpty,
                let samples = try? Data(contentsOf: gray), !samples.isEmpty
            else {
                lastError = output.stderr.isEmpty ? "no frame at \(String(format: "%.1f", time)) s" : output.stderr
                continue
            }
            let luma = Double(samples.reduce(0) { $0 + Int($1) }) / Double(samples.count)
            if luma >= Self.darkLuma { return data }
            if luma > best?.luma ?? -1 { best = (luma, data) }
        }
        guard let best else {
            let problem = ClipProblem(toolOutput: lastError)
            throw ImagingError.clip(problem == .damaged ? .noFrame : problem, toolOutput: lastError)
        }
        return best.data
    }

    /// Makes the web file at `output` (a path on the cache's file system): the first video stream
    /// and the first audio stream, nothing else (no data, subtitle or timecode tracks: Apple keeps
    /// its location track there), with every metadata key, chapter and encoder tag left out.
    /// - Throws: `ImagingError` with ffmpeg's reason, or when it runs past its limit; no file is left then.
    /// - Parameter sound: false for a Live Photo's motion, which plays muted: its sound is left out.
    package func webVideo(_ file: URL, video: VideoInfo, to output: String, sound: Bool = true) async throws {
        let ffmpeg = try ffmpeg
        let (mode, size) = plan(video)
        var arguments = [
            "-v", "error", "-nostdin", "-y", "-i", "file:" + file.path, "-map", "0:v:0", "-map", "0:a:0?",
            "-map_metadata", "-1", "-map_metadata:s", "-1", "-map_chapters", "-1", "-dn", "-sn"
        ]
        switch mode {
        case .remux:
            arguments += ["-c:v", "copy"]
        case .transcode:
            let colour = VideoToneMap.filters(video.colour, to: .web)
            let filter =
                (video.interlaced ? "yadif," : "") + "scale=\(size.width):\(size.height):flags=lanczos,"
                + (colour ?? "format=yuv420p")
            arguments += [
                "-vf", filter, "-c:v", "libx264", "-preset", "medium", "-crf", String(settings.crf),
                "-maxrate", String(settings.maxBitrate), "-bufsize", String(settings.maxBitrate * 2),
                "-profile:v", "high", "-threads", String(Self.encoderThreads)
            ]
            if colour != nil { arguments += VideoToneMap.webTags }
        }
        if !sound {
            arguments += ["-an"]
        } else {
            arguments += video.audioCodec == "aac" ? ["-c:a", "copy"] : ["-c:a", "aac", "-b:a", "160k", "-ac", "2"]
        }
        arguments += [
            "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact", "-movflags", "+faststart",
            "-f", "mp4", output
        ]
        // Encoding runs at a few times real time on one core for 1080p; thirty times the clip's
        // length is far past any honest run, and stops one that hangs.
        let limit = mode == .remux ? 60 + video.duration * 2 : 120 + video.duration * 30
        let result: MediaTool.Output
        do {
            result = try await ffmpeg.run(arguments, timeout: limit)
        } catch {
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        guard result.status == 0, FileManager.default.fileExists(atPath: output) else {
            try? FileManager.default.removeItem(atPath: output)
            // A fault of the file's is said in words (`ClipProblem`); anything else is the tool's.
            let problem = ClipProblem(toolOutput: result.stderr)
            guard problem == .damaged else { throw ImagingError.clip(problem, toolOutput: result.stderr) }
            throw ImagingError.format(
                .video, "ffmpeg could not make the web file: \(result.reason)", kind: .toolFailed,
                toolOutput: result.stderr)
        }
    }
}
