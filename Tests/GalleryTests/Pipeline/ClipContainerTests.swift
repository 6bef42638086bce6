import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryPipeline
import GalleryProviders
import Testing

/// Every container ffmpeg reads is a clip, found by its bytes: Ogg/Theora, MPEG-TS and MPEG-PS,
/// ASF (WMV) and FLV, whatever their names; sound alone is reported as audio, never as "not a
/// photo"; a damaged clip is explained in words, with ffmpeg's own in `--report`, and remembered so
/// that the next build runs neither ffprobe nor ffmpeg for it. The files are made by ffmpeg here.
@Suite("Clip containers")
struct ClipContainerTests {
    /// Each clip's name and the ffmpeg arguments that write it (after a 0.5 s 160×90 test pattern).
    static let clips: [(name: String, arguments: [String])] = [
        ("theora.ogv", ["-c:v", "libtheora", "-q:v", "5", "-f", "ogg"]),
        ("theora-as-ogg.ogg", ["-c:v", "libtheora", "-f", "ogg"]),
        ("broadcast.ts", ["-c:v", "mpeg2video", "-f", "mpegts"]),
        ("camcorder.m2t", ["-c:v", "mpeg2video", "-f", "mpegts"]),
        ("dvd.vob", ["-c:v", "mpeg2video", "-f", "vob"]),
        ("windows.wmv", ["-c:v", "wmv2", "-f", "asf"]),
        ("flash.flv", ["-c:v", "flv", "-f", "flv"]),
        ("ogg-named.webm", ["-c:v", "libtheora", "-f", "ogg"]),
        ("no-extension", ["-c:v", "mpeg2video", "-f", "mpegts"])
    ]

    /// Sound alone: MP3, Vorbis in Ogg, AAC in an M4A, FLAC and WAV.
    static let sounds: [(name: String, arguments: [String])] = [
        ("song.mp3", ["-c:a", "libmp3lame", "-f", "mp3"]),
        ("song-vorbis.ogg", ["-c:a", "libvorbis", "-f", "ogg"]),
        ("memo.m4a", ["-c:a", "aac", "-f", "ipod"]),
        ("take.flac", ["-c:a", "flac", "-f", "flac"]),
        ("voice.wav", ["-c:a", "pcm_s16le", "-f", "wav"])
    ]

    static func library() async throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("photo.jpg"))
        for (name, arguments) in clips {
            try await VideoBuildTests.ffmpeg(
                ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=0.5"] + arguments + ["out:photos/\(name)"],
                in: folder)
        }
        for (name, arguments) in sounds {
            try await VideoBuildTests.ffmpeg(
                ["-f", "lavfi", "-i", "sine=d=0.5"] + arguments + ["out:photos/\(name)"], in: folder)
        }
        try Data("export const answer = 42;\n".utf8).write(to: photos.appendingPathComponent("script.ts"))
        let config: [String: Any] = [
            "title": "Clips", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        return folder
    }

    @Test func everyContainerFFmpegReadsIsAClipAndSoundIsReportedAsAudio() async throws {
        let folder = try await Self.library()
        let photos = folder.appendingPathComponent("photos")
        for (name, _) in Self.clips {
            let head = try Data(contentsOf: photos.appendingPathComponent(name)).prefix(MediaSignature.prefixLength)
            #expect(MediaSignature.kind(of: head) == .video, "\(name)")
        }
        for (name, _) in Self.sounds {
            let head = try Data(contentsOf: photos.appendingPathComponent(name)).prefix(MediaSignature.prefixLength)
            #expect(MediaSignature.kind(of: head) == .audio, "\(name)")
        }
        let listing = try FolderListing.walk(photos)
        let listed = Set(listing.directories.flatMap(\.photos))
        #expect(listed == Set(["photo.jpg"] + Self.clips.map(\.name)), "\(listed.sorted())")
        let audio = Set(listing.ignored.filter { $0.reason == .audioFile }.map(\.path))
        #expect(audio == Set(Self.sounds.map(\.name)), "\(listing.ignored)")
        #expect(
            listing.rejected.map(\.path) == ["script.ts"]
                && listing.rejected.first?.reason == .textFile(extension: "ts"))

        let report = try await VideoBuildTests.build(folder)
        // The one file skipped is the TypeScript, said to be text; no clip or sound is "not a photo".
        #expect(report.failures.map(\.id) == ["script.ts"], "\(report.failures)")
        #expect(report.failures.first?.reason.hasPrefix("a text file named .ts") == true)
        #expect(report.clipsPublished == Self.clips.count && report.photosPublished == Self.clips.count + 1)
        let json = String(decoding: try report.json(), as: UTF8.self)
        #expect(!json.contains("not an image") && !json.contains("are not photos"))
        #expect(report.ignoredSummary.contains("\(Self.sounds.count) audio files"), "\(report.ignoredSummary)")
        let site = folder.appendingPathComponent("public/photos")
        for id in ["theora", "broadcast", "camcorder", "dvd", "windows", "flash", "ogg-named", "no-extension"] {
            let web = site.appendingPathComponent("\(id)/video.mp4")
            let streams = try await VideoBuildTests.streams(web)
            #expect(streams.contains("codec_name=h264"), "\(id): \(streams)")
        }
    }

    /// A folder of `ffprobe` and `ffmpeg` scripts that count their runs in `runs` and run the real tools.
    static func countingTools(in folder: URL) throws -> (path: String, runs: URL) {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let runs = folder.appendingPathComponent("runs")
        _ = FileManager.default.createFile(atPath: runs.path, contents: nil)
        for name in ["ffprobe", "ffmpeg"] {
            let real = try VideoProbeTests.tool(name).path
            let script = "#!/bin/sh\necho \(name) >> '\(runs.path)'\nexec '\(real)' \"$@\"\n"
            let file = bin.appendingPathComponent(name)
            try Data(script.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        return (bin.path, runs)
    }

    static func runCount(_ runs: URL) throws -> Int {
        try String(contentsOf: runs, encoding: .utf8).split(separator: "\n").count
    }

    @Test func aTruncatedClipIsExplainedInWordsAndNotTriedAgainUntilItChanges() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("photo.jpg"))
        try await VideoBuildTests.ffmpeg(
            ["-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=2", "-c:v", "libx264", "out:whole.mp4"],
            in: folder)
        // The first half of an MP4 whose index (moov) is at its end, as an interrupted copy leaves it.
        let whole = try Data(contentsOf: folder.appendingPathComponent("whole.mp4"))
        let clip = photos.appendingPathComponent("cut.mp4")
        try whole.prefix(whole.count / 2).write(to: clip)
        let config: [String: Any] = [
            "title": "Cut", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let (tools, runs) = try Self.countingTools(in: folder)

        let first = try await VideoBuildTests.build(folder, toolPath: tools)
        let failure = try #require(first.failures.first, "\(first.failures)")
        #expect(first.failures.count == 1 && first.photosPublished == 1)
        #expect(failure.reason.contains("the file ends before its video does (truncated"), "\(failure.reason)")
        #expect(!failure.reason.contains("moov"), "ffmpeg's words stay out of the reason: \(failure.reason)")
        #expect(failure.toolOutput?.contains("moov atom not found") == true, "\(failure.toolOutput ?? "none")")
        let json = String(decoding: try first.json(), as: UTF8.self)
        #expect(json.contains("\"toolOutput\" : ") && json.contains("moov atom not found"))
        let probed = try Self.runCount(runs)
        #expect(probed >= 1)

        // Built again: the same reason, said to be remembered, and no tool run.
        let second = try await VideoBuildTests.build(folder, toolPath: tools)
        let again = try #require(second.failures.first)
        #expect(again.reason.hasPrefix(failure.reason) && again.reason.contains("remembered"), "\(again.reason)")
        #expect(again.toolOutput == failure.toolOutput)
        #expect(try Self.runCount(runs) == probed, "a remembered failure runs neither ffprobe nor ffmpeg")

        // New tools (an upgraded ffmpeg) are tried on it again.
        let wrapper = URL(fileURLWithPath: tools).appendingPathComponent("ffprobe")
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: wrapper.path)
        let third = try await VideoBuildTests.build(folder, toolPath: tools)
        #expect(third.failures.first.map { !$0.reason.contains("remembered") } == true, "\(third.failures)")
        #expect(try Self.runCount(runs) > probed)

        // The whole clip in its place is read and published.
        let before = try Self.runCount(runs)
        try whole.write(to: clip)
        let fourth = try await VideoBuildTests.build(folder, toolPath: tools)
        #expect(fourth.failures.isEmpty && fourth.clipsPublished == 1, "\(fourth.failures)")
        #expect(try Self.runCount(runs) > before)
    }
}
