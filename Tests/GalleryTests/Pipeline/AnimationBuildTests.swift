import Foundation
import GalleryImaging
import GalleryModel
import GalleryPipeline
import Testing

/// Animated GIF and WebP stay animated: the still is the first frame, the motion a muted, looping
/// H.264 clip (or the file itself when small), played on the photo's page like a Live Photo's; a
/// GIF of one frame stays a still, and an animation that cannot be encoded says so. The fixtures
/// are made at test time by Tests/Fixtures/animation/make-animations.py (Pillow, in the test venv).
@Suite(
    .enabled(
        if: GainMapPython.ready || ProcessInfo.processInfo.environment["CI"] != nil,
        "needs Pillow (pip); make test installs it"))
struct AnimationBuildTests {
    /// The fixtures, made afresh in a folder of their own.
    static func fixtures() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let script = Fixtures.url("animation/make-animations.py")
        let result = BrowserTools.run(["python3", script.path, folder.path])
        try #require(result.status == 0, "make-animations.py failed: \(result.errors)")
        return folder
    }

    /// A site of `names` (from the fixtures) whose largest still is 120 px wide.
    static func site(_ names: [String], video: [String: Any] = [:]) throws -> (folder: URL, fixtures: URL) {
        let fixtures = try fixtures()
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(
                at: fixtures.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        var config: [String: Any] = [
            "title": "Animations", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        if !video.isEmpty { config["video"] = video }
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        return (folder, fixtures)
    }

    /// What ffprobe counts in a clip: its streams' types, codec, decoded frames, and its duration.
    static func probe(_ file: URL) async throws -> (streams: [String], frames: Int, seconds: Double) {
        let output = try await VideoProbeTests.tool("ffprobe").run(
            [
                "-v", "error", "-count_frames", "-show_entries", "stream=codec_type,codec_name,nb_read_frames",
                "-show_entries", "format=duration", "-of", "json", "file:" + file.path
            ], timeout: 60)
        let json = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        let streams = (json["streams"] as? [[String: Any]]) ?? []
        let format = json["format"] as? [String: Any]
        return (
            streams.map { "\($0["codec_type"] ?? "?"):\($0["codec_name"] ?? "?")" },
            streams.compactMap { ($0["nb_read_frames"] as? String).flatMap(Int.init) }.first ?? 0,
            (format?["duration"] as? String).flatMap(Double.init) ?? 0
        )
    }

    static func page(_ folder: URL, _ id: String) throws -> String {
        try String(
            contentsOf: folder.appendingPathComponent("public/photos/\(id)/index.html"), encoding: .utf8)
    }

    @Test func theFixturesTimingIsReadFromTheirContainers() throws {
        let fixtures = try Self.fixtures()
        for (name, format) in [("bounce.gif", ImageFormat.gif), ("spin.webp", .webp)] {
            let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
            let facts = try ImageProcessor.facts(of: data)
            #expect(facts.isAnimation && facts.motionClip == data.count, "\(name)")
            let timing = try VideoEncoder.animationTiming(data, format: format)
            #expect(timing.frames == 6 && abs(timing.seconds - 1.0) < 0.001, "\(name): \(timing)")
            #expect(timing.step == 100 && timing.frameRate.text == "1000/100", "\(name): \(timing)")
        }
        let still = try ImageProcessor.facts(of: Data(contentsOf: fixtures.appendingPathComponent("still.gif")))
        #expect(!still.isAnimation && still.motionClip == 0)
        // Facts stored before animations were read (no motionClip) are read again.
        var old = still
        old.motionClip = nil
        #expect(!old.isCurrent && still.isCurrent)
    }

    @Test func animationsArePublishedWithALoopingMutedClipOrAsTheyAre() async throws {
        let (folder, fixtures) = try Self.site(["bounce.gif", "spin.webp", "small.gif", "still.gif"])
        let report = try await VideoBuildTests.build(folder)
        #expect(
            report.photosPublished == 4 && report.failures.isEmpty && report.warnings.isEmpty,
            "\(report.failures) \(report.warnings)")
        for id in ["bounce", "spin"] {
            let site = folder.appendingPathComponent("public/photos/\(id)")
            let clip = try await Self.probe(site.appendingPathComponent("motion.mp4"))
            // One video stream, no sound; every frame held for its own time: 1.0 s at 10 frames a second.
            #expect(clip.streams == ["video:h264"], "\(id): \(clip)")
            #expect(clip.frames == 10 && abs(clip.seconds - 1.0) < 0.05, "\(id): \(clip)")
            let page = try Self.page(folder, id)
            #expect(
                page.contains(
                    "<video class=\"motion\" muted playsinline preload=\"none\" loop src=\"../../photos/\(id)/motion.mp4\""
                ), "\(id)")
            #expect(page.contains("Animation (MP4)"), "\(id)")
        }
        // Small enough, and no larger than shown: the file itself, byte for byte, shown as an image.
        let kept = folder.appendingPathComponent("public/photos/small/motion.gif")
        #expect(try Data(contentsOf: kept) == Data(contentsOf: fixtures.appendingPathComponent("small.gif")))
        let small = try Self.page(folder, "small")
        #expect(small.contains("<img class=\"motion\" src=\"../../photos/small/motion.gif\""))
        #expect(small.contains("Animation (GIF)") && !small.contains("<video"))
        // A GIF of one frame is a still, as before.
        let still = try Self.page(folder, "still")
        #expect(!still.contains("class=\"motion\""))
        let stillFiles = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("public/photos/still").path)
        #expect(!stillFiles.contains { $0.hasPrefix("motion.") }, "\(stillFiles)")
        #expect(report.motionsPublished == 3)
        // Nothing changed: nothing is made again.
        let again = try await VideoBuildTests.build(folder)
        #expect(again.derivativesMade == 0 && again.motionsPublished == 3, "\(again.failures) \(again.warnings)")
    }

    @Test func anAnimationPastTheDurationCapIsCutWithAWarning() async throws {
        let (folder, _) = try Self.site(["long.gif"], video: ["maxSeconds": 1])
        let report = try await VideoBuildTests.build(folder)
        #expect(report.photosPublished == 1 && report.failures.isEmpty, "\(report.failures)")
        #expect(
            report.warnings.map(\.reason) == [
                "animation shortened: its clip leaves out everything after 1 s (video.maxSeconds)"
            ], "\(report.warnings)")
        let clip = try await Self.probe(folder.appendingPathComponent("public/photos/long/motion.mp4"))
        #expect(clip.frames == 10 && abs(clip.seconds - 1.0) < 0.05, "\(clip)")
    }

    @Test func withoutFFmpegAnAnimationIsItsFirstFrameAndSaysWhy() async throws {
        let (folder, _) = try Self.site(["bounce.gif", "small.gif"])
        let report = try await VideoBuildTests.build(folder, toolPath: "")
        #expect(report.photosPublished == 2 && report.failures.isEmpty, "\(report.failures)")
        let warnings = report.warnings.map(\.reason)
        #expect(
            warnings.count == 1
                && warnings[0].hasPrefix("animation not published, only its first frame: ")
                && warnings[0].contains("install ffmpeg"), "\(warnings)")
        #expect(!(try Self.page(folder, "bounce")).contains("class=\"motion\""))
        // The small one needs no ffmpeg: kept as it is.
        #expect(try Self.page(folder, "small").contains("<img class=\"motion\""))
    }

    /// An animated WebP whose last frame is damaged: the frames before it have gone to ffmpeg
    /// through its standard input when the decoder fails, and the clip ffmpeg finished from them is
    /// thrown away; the first frame is published, with the decoder's reason.
    @Test func aDamagedFrameLeavesTheFirstFrameAndSaysWhy() async throws {
        let (folder, _) = try Self.site(["spin.webp"])
        let file = folder.appendingPathComponent("photos/spin.webp")
        var bytes = [UInt8](try Data(contentsOf: file))
        // The last ANMF chunk: its 16-byte frame header, the VP8L chunk's 8-byte header and the
        // bitstream's 5-byte header are kept; the rest of the bitstream is overwritten.
        let anmf = try #require(
            (0..<(bytes.count - 4)).last { Array(bytes[$0..<($0 + 4)]) == Array("ANMF".utf8) })
        let size = Int(bytes[anmf + 4]) | Int(bytes[anmf + 5]) << 8 | Int(bytes[anmf + 6]) << 16
        for index in (anmf + 8 + 16 + 8 + 5)..<(anmf + 8 + size) { bytes[index] = 0xff }
        try Data(bytes).write(to: file)
        let report = try await VideoBuildTests.build(folder)
        #expect(report.photosPublished == 1 && report.failures.isEmpty, "\(report.failures)")
        #expect(
            report.warnings.map(\.reason) == [
                "animation not published, only its first frame: WebP: a frame of the animation is corrupt or truncated"
            ], "\(report.warnings)")
        let files = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("public/photos/spin").path)
        #expect(!files.contains { $0.hasPrefix("motion.") } && files.contains("120x90.jpg"), "\(files)")
    }
}
