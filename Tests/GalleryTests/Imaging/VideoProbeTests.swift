import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// `ffprobe` and `ffmpeg` as child processes (MediaTool) and what VideoProbe reads of a clip. The clips
/// are made by ffmpeg itself at test time (`testsrc2`, `sine`), as a phone would write them.
@Suite("Video probe")
struct VideoProbeTests {
    static let limits = VideoLimits(maxSeconds: 600, maxPixels: 100_000_000, maxBytes: 1 << 30)

    static func tool(_ name: String) throws -> MediaTool {
        try #require(MediaTool.find(name), "install ffmpeg (Debian: ffmpeg); Scripts/setup.sh test does")
    }

    /// Runs ffmpeg with `arguments` in `folder`; fails the test on a non-zero exit.
    static func ffmpeg(_ arguments: [String], in folder: URL) async throws {
        let output = try await tool("ffmpeg").run(
            ["-v", "error", "-y"]
                + arguments.map {
                    $0.hasSuffix(".mov") || $0.hasSuffix(".m4a") || $0.hasSuffix(".mp4")
                        ? folder.appendingPathComponent($0).path : $0
                }, timeout: 60)
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// A one-second 160×90 H.264/AAC clip, then the same with a display matrix of a quarter turn,
    /// a position in `©xyz` and Apple's make and model, as an iPhone writes them.
    static func phoneClip(in folder: URL) async throws -> URL {
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=1", "-f", "lavfi", "-i", "sine=d=1",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "plain.mov"
            ], in: folder)
        try await ffmpeg(
            [
                "-i", "plain.mov", "-c", "copy", "-metadata:s:v:0", "rotate=90", "-metadata",
                "location=+48.8577+002.2950/",
                "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 15",
                "-metadata", "creation_time=2024-06-01T10:00:00Z", "-movflags", "use_metadata_tags", "-i.mov"
            ], in: folder)
        return folder.appendingPathComponent("-i.mov")
    }

    @Test func aPhoneClipIsReadWithItsRotationCameraAndPlace() async throws {
        let folder = try Fixtures.temporaryFolder()
        // Named "-i.mov": a name that would be an option to ffprobe, but for the file: protocol.
        let clip = try await Self.phoneClip(in: folder)
        let facts = try await VideoProbe.probe(clip, ffprobe: try Self.tool("ffprobe"), limits: Self.limits)
        let info = facts.info
        #expect(info.stored == PixelSize(width: 160, height: 90) && info.rotation == 270)
        #expect(info.display == PixelSize(width: 90, height: 160))
        #expect(abs(info.duration - 1) < 0.1 && info.videoCodec == "h264" && info.audioCodec == "aac")
        #expect(info.frameRate.map { abs($0 - 30) < 0.01 } == true && info.pixelFormat == "yuv420p" && !info.interlaced)
        #expect(facts.camera.make == "Apple" && facts.camera.model == "iPhone 15")
        #expect(facts.takenAt?.hasPrefix("2024-06-01T10:00:00") == true)
        #expect(facts.location == GeoPoint(latitude: 48.8577, longitude: 2.295))
    }

    @Test func limitsAndFilesThatAreNoVideoGiveTheirReason() async throws {
        let folder = try Fixtures.temporaryFolder()
        let clip = try await Self.phoneClip(in: folder)
        let ffprobe = try Self.tool("ffprobe")
        func refusal(_ file: URL, _ limits: VideoLimits = Self.limits) async -> ImagingError? {
            do {
                _ = try await VideoProbe.probe(file, ffprobe: ffprobe, limits: limits)
                return nil
            } catch { return error as? ImagingError }
        }
        let long = await refusal(clip, VideoLimits(maxSeconds: 0.5, maxPixels: 100_000_000, maxBytes: 1 << 30))
        #expect(long?.kind == .overLimit)
        // The words name the setting a person raises, and by how much the clip is over it.
        #expect(long?.description == "video: 1.0 s long, over the 0.5 s limit (video.maxSeconds)")
        let large = await refusal(clip, VideoLimits(maxSeconds: 600, maxPixels: 10_000, maxBytes: 1 << 30))
        #expect(large?.kind == .overLimit && large?.description.contains("video.maxPixels") == true)
        let heavy = await refusal(clip, VideoLimits(maxSeconds: 600, maxPixels: 100_000_000, maxBytes: 1_000))
        #expect(heavy?.kind == .overLimit && heavy?.description.contains("video.maxBytes") == true)

        let empty = folder.appendingPathComponent("empty.mp4")
        try Data().write(to: empty)
        #expect(await refusal(empty)?.kind == .damaged)
        let truncated = folder.appendingPathComponent("truncated.mov")
        try Data(try Data(contentsOf: clip).prefix(600)).write(to: truncated)
        #expect(await refusal(truncated)?.kind == .damaged)
        try await Self.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "voice.m4a"], in: folder)
        #expect(await refusal(folder.appendingPathComponent("voice.m4a"))?.kind == .unsupported)
    }

    @Test func aToolThatRunsTooLongIsStopped() async throws {
        let sleep = try #require(MediaTool.find("sleep"))
        let clock = ContinuousClock.now
        let error = await #expect(throws: ImagingError.self) { try await sleep.run(["120"], timeout: 0.5) }
        #expect(error?.kind == .toolFailed, "\(String(describing: error))")
        // Killed, not waited for: well before sleep's own 120 s. (A test run pinned to one core, whose
        // concurrency pool is then one thread, can delay the timer by tens of seconds.)
        #expect(clock.secondsElapsed < 60)
        #expect(MediaTool.find("no-such-tool-galleryssg") == nil)
    }

    @Test func iso6709PositionsAsPhonesWriteThem() {
        #expect(VideoProbe.iso6709("+48.8577+002.2950+035.000/") == GeoPoint(latitude: 48.8577, longitude: 2.295))
        #expect(VideoProbe.iso6709("-33.8688+151.2093/") == GeoPoint(latitude: -33.8688, longitude: 151.2093))
        #expect(VideoProbe.iso6709("+91.0+000.0/") == nil && VideoProbe.iso6709("nowhere") == nil)
    }
}
