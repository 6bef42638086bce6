import Foundation
import GalleryConfig
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryPipeline
import Testing

/// A phone's library with clips, built whole: each clip published (poster through the image path,
/// web file remuxed or encoded), reported with a reason, and nothing located in any published file.
/// The clips are made by ffmpeg at test time.
@Suite("Video builds")
struct VideoBuildTests {
    static func ffmpeg(_ arguments: [String], in folder: URL) async throws {
        let output = try await VideoProbeTests.tool("ffmpeg").run(
            ["-v", "error", "-y"]
                + arguments.map {
                    $0.hasPrefix("out:") ? folder.appendingPathComponent(String($0.dropFirst(4))).path : $0
                }, timeout: 120)
        #expect(output.status == 0, "\(output.stderr)")
    }

    /// The library: a photo, a rotated iPhone clip with its position and Apple keys (remuxed), a
    /// 10-bit HEVC clip (encoded), a WebM that opens on black (the poster skips it), an interlaced
    /// camcorder MTS, a 1-frame clip, a 0.3 s clip, a clip of variable frame rate, a truncated MP4,
    /// an empty MOV, an audio file named as a video, a Matroska file whose header claims a
    /// 65535×65535 frame, and a Live Photo (a JPEG and an HEVC MOV of the same name).
    static func makeLibrary() async throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos/Trip")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("IMG_0001.jpg"))
        let phone = try await VideoProbeTests.phoneClip(in: folder)
        try await ffmpeg(
            [
                "-i", phone.path, "-c", "copy", "-metadata",
                "com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.0/",
                "-metadata", "location=+48.8577+002.2950/", "-metadata", "com.apple.quicktime.make=Apple",
                "-metadata", "com.apple.quicktime.model=iPhone 15", "-metadata:s:v:0", "rotate=90",
                "-movflags", "use_metadata_tags", "out:photos/Trip/IMG_0002.MOV"
            ], in: folder)
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=2", "-c:v", "libx265", "-x265-params",
                "log-level=error",
                "-pix_fmt", "yuv420p10le", "-tag:v", "hvc1", "-metadata", "location=+48.8577+002.2950/",
                "out:photos/Trip/hevc.mp4"
            ],
            in: folder)
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "color=black:size=192x108:rate=25:duration=1", "-f", "lavfi",
                "-i", "testsrc2=size=192x108:rate=25:duration=2", "-filter_complex", "[0][1]concat=n=2:v=1",
                "-c:v", "libvpx-vp9", "-b:v", "200k", "out:photos/Trip/fade-in.webm"
            ], in: folder)
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=352x288:rate=25:duration=1", "-vf",
                "tinterlace=interleave_top,fieldorder=tff",
                "-c:v", "mpeg2video", "-flags", "+ilme+ildct", "-f", "mpegts", "out:photos/Trip/camcorder.MTS"
            ], in: folder)
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25", "-frames:v", "1", "-c:v", "libx264",
                "out:photos/Trip/one-frame.mp4"
            ], in: folder)
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=0.3", "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "out:photos/Trip/short.mp4"
            ], in: folder)
        // Truncated: the first half of an MP4 whose index (moov) is at the end.
        let hevc = try Data(contentsOf: photos.appendingPathComponent("hevc.mp4"))
        try hevc.prefix(hevc.count / 2).write(to: photos.appendingPathComponent("truncated.mp4"))
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=30:duration=2", "-vf",
                "setpts='if(lt(N,30),N,30+(N-30)*3)/30/TB'",
                "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p", "out:photos/Trip/vfr.mp4"
            ], in: folder)
        try Data().write(to: photos.appendingPathComponent("empty.mov"))
        // A Live Photo: a still and its 1.5 s HEVC clip of the same name.
        try Fixtures.data("images/photo-2.jpg").write(to: photos.appendingPathComponent("IMG_0003.jpg"))
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1.5", "-c:v", "libx265", "-x265-params",
                "log-level=error",
                "-tag:v", "hvc1", "out:photos/Trip/IMG_0003.MOV"
            ], in: folder)
        // A 256×256 FFV1 clip whose Matroska PixelWidth and PixelHeight (EBML ids B0 and BA, two bytes each) now say 65535.
        try await ffmpeg(
            [
                "-f", "lavfi", "-i", "color=red:size=256x256:rate=5:duration=0.4", "-c:v", "ffv1",
                "out:photos/Trip/huge.mkv"
            ],
            in: folder)
        var huge = try Data(contentsOf: photos.appendingPathComponent("huge.mkv"))
        for id in [UInt8(0xb0), 0xba] {
            let field = try #require(huge.firstRange(of: Data([id, 0x82, 0x01, 0x00])))
            huge.replaceSubrange((field.lowerBound + 2)..<(field.lowerBound + 4), with: [0xff, 0xff])
        }
        try huge.write(to: photos.appendingPathComponent("huge.mkv"))
        try await ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "out:photos/Trip/voice.mp4"], in: folder)
        let config: [String: Any] = [
            "title": "Trip", "baseURL": "https://example.org/", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 160, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        return folder
    }

    static func build(
        _ folder: URL, toolPath: String? = ProcessInfo.processInfo.environment["PATH"],
        imagesOnly: Shard? = nil
    ) async throws -> BuildReport {
        let config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
        var options = BuildOptions(jobs: 2, imagesOnly: imagesOnly)
        options.toolPath = toolPath
        return try await Build(config: config, options: options).run()
    }

    /// What ffprobe says of a published web file: codec, pixel format and shown size per stream.
    static func streams(_ file: URL) async throws -> String {
        let output = try await VideoProbeTests.tool("ffprobe").run(
            [
                "-v", "error", "-show_entries", "stream=codec_name,pix_fmt,width,height:stream_side_data=rotation",
                "-of", "compact",
                "file:" + file.path
            ], timeout: 30)
        return String(decoding: output.stdout, as: UTF8.self)
    }

    @Test func aPhoneLibraryIsPublishedWithEveryClipAccountedFor() async throws {
        let folder = try await Self.makeLibrary()
        let report = try await Self.build(folder)
        let failed = Dictionary(report.failures.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(
            report.photosPublished == 9 && report.clipsPublished == 7 && report.motionsPublished == 1,
            "\(report.failures)")
        #expect(Set(failed.keys) == ["trip-truncated", "trip-empty", "trip-voice", "trip-huge"], "\(failed)")
        #expect(failed["trip-huge"]?.contains("65535x65535") == true, "\(failed)")
        #expect(failed["trip-voice"]?.contains("no video stream") == true, "\(failed)")
        #expect(failed["trip-truncated"]?.contains("video: ") == true, "\(failed)")

        let site = folder.appendingPathComponent("public")
        for id in [
            "trip-img-0002", "trip-hevc", "trip-fade-in", "trip-camcorder", "trip-one-frame", "trip-short", "trip-vfr"
        ] {
            let web = site.appendingPathComponent("photos/\(id)/video.mp4")
            let streams = try await Self.streams(web)
            #expect(
                streams.contains("codec_name=h264") && streams.contains("pix_fmt=yuv420p")
                    && !streams.contains("yuv420p10"), "\(id): \(streams)")
            let page = try String(contentsOf: site.appendingPathComponent("photos/\(id)/index.html"), encoding: .utf8)
            #expect(page.contains("<video class=\"main\" controls playsinline preload=\"none\" poster=\""), "\(id)")
            #expect(page.contains("\"@type\":\"VideoObject\""), "\(id)")
        }
        // The iPhone clip is remuxed with its quarter turn; its poster is upright (portrait).
        let phone = try await Self.streams(site.appendingPathComponent("photos/trip-img-0002/video.mp4"))
        #expect(phone.contains("width=160|height=90") && phone.contains("rotation="), "\(phone)")
        #expect(try Self.jpegs(site, "trip-img-0002").last?.hasSuffix("90x160.jpg") == true)
        let hevc = try await Self.streams(site.appendingPathComponent("photos/trip-hevc/video.mp4"))
        #expect(hevc.contains("width=320|height=180"), "\(hevc)")

        // The WebM opens on a second of black: its poster is a later, lit frame.
        let lit = try #require(try Self.jpegs(site, "trip-fade-in").last)
        #expect(try Self.meanLuma(site.appendingPathComponent("photos/trip-fade-in/" + lit)) > VideoEncoder.darkLuma)

        // No published file carries the position, the camera or Apple's keys.
        let files = FileManager.default.enumerator(atPath: site.path)?.compactMap { $0 as? String } ?? []
        for name in files where name.hasSuffix(".mp4") || name.hasSuffix(".jpg") || name.hasSuffix(".webp") {
            let data = try Data(contentsOf: site.appendingPathComponent(name))
            for secret in ["48.8577", "ISO6709", "iPhone", "com.apple.quicktime"] {
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(name) holds \(secret)")
            }
        }
        let tags = try Self.exiftool(site.appendingPathComponent("photos/trip-img-0002/video.mp4"))
        #expect(
            !tags.keys.contains {
                $0.localizedCaseInsensitiveContains("gps") || $0.localizedCaseInsensitiveContains("location")
                    || $0.hasSuffix(":Make") || $0.hasSuffix(":Model")
            }, "\(tags.keys.sorted())")

        // The grid shows the length on a play badge; the feed and the sitemap name the web file.
        let home = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(home.contains("class=\"badge\"") && home.contains("</span>0:01</span>"))
        let feed = try String(contentsOf: site.appendingPathComponent("feed.xml"), encoding: .utf8)
        #expect(
            feed.contains(
                "<link rel=\"enclosure\" type=\"video/mp4\" href=\"https://example.org/photos/trip-hevc/video.mp4\"/>"))
        let sitemap = try String(contentsOf: site.appendingPathComponent("sitemap.xml"), encoding: .utf8)
        #expect(
            sitemap.contains(
                "<video:content_loc>https://example.org/photos/trip-hevc/video.mp4</video:content_loc><video:duration>2</video:duration>"
            ))

        // A rebuild probes, encodes and renders nothing.
        let again = try await Self.build(folder)
        #expect(again.derivativesMade == 0 && again.photosUnchanged == 9, "\(again.derivativesMade) made")
    }

    @Test func withoutFFmpegThePhotosArePublishedAndEachClipSaysWhatToInstall() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("IMG_0001.jpg"))
        _ = try await VideoProbeTests.phoneClip(in: photos)
        let config: [String: Any] = [
            "title": "No ffmpeg", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await Self.build(folder, toolPath: "")
        #expect(report.photosPublished == 1)
        #expect(
            report.failures.count == 2
                && report.failures.allSatisfy {
                    $0.reason.contains("install ffmpeg (Debian: sudo apt install ffmpeg)")
                }, "\(report.failures)")
    }

    @Test(arguments: [true, false])
    func aLivePhotoIsOneItemWhoseMotionPlaysOnItsPage(livePhotos: Bool) async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("IMG_0010.jpg"))
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1.5", "-f", "lavfi", "-i", "sine=d=1.5",
                "-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1", "-c:a", "aac",
                "-metadata", "location=+48.8577+002.2950/", "out:photos/IMG_0010.MOV"
            ], in: folder)
        let config: [String: Any] = [
            "title": "Live", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()], "video": ["livePhotos": livePhotos]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await Self.build(folder)
        #expect(report.photosPublished == 1 && report.failures.isEmpty, "\(report.failures)")
        let site = folder.appendingPathComponent("public/photos/img-0010")
        let page = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        let motion = site.appendingPathComponent("motion.mp4")
        if livePhotos {
            #expect(report.ignoredSummary == "1 Live Photo clip paired")
            #expect(
                page.contains(
                    "<video class=\"motion\" muted playsinline preload=\"none\" src=\"../../photos/img-0010/motion.mp4\""
                ))
            #expect(page.contains("<button type=\"button\" class=\"live\""))
            // Upright H.264 without its sound or its position.
            let streams = try await Self.streams(motion)
            #expect(streams.contains("codec_name=h264") && !streams.contains("aac"), "\(streams)")
            #expect(try Data(contentsOf: motion).range(of: Data("48.8577".utf8)) == nil)
        } else {
            #expect(report.ignoredSummary == "1 Live Photo clip left out")
            #expect(!page.contains("class=\"motion\"") && !FileManager.default.fileExists(atPath: motion.path))
        }
        let again = try await Self.build(folder)
        #expect(again.derivativesMade == 0 && again.photosUnchanged == 1)
    }

    /// A motion photo as Google's camera writes it: a JPEG whose XMP says `GCamera:MotionPhoto="1"`
    /// and gives the clip's length in its Container directory, then the MP4 appended.
    static func motionPhoto(jpeg: Data, clip: Data, oldForm: Bool = false) -> Data {
        let xmp =
            oldForm
            ? #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\#(clip.count)"/></rdf:RDF></x:xmpmeta>"#
            : #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\#(clip.count)"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>"#
        let body = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)
        let length = body.count + 2
        return Data([0xff, 0xd8, 0xff, 0xe1, UInt8(length >> 8), UInt8(length & 0xff)]) + Data(body) + jpeg.dropFirst(2)
            + clip
    }

    @Test(arguments: [false, true])
    func aMotionPhotoPlaysItsClip(oldForm: Bool) async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1", "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "-metadata", "location=+48.8577+002.2950/", "out:clip.mp4"
            ], in: folder)
        let clip = try Data(contentsOf: folder.appendingPathComponent("clip.mp4"))
        let photo = Self.motionPhoto(jpeg: try Fixtures.data("images/photo-1.jpg"), clip: clip, oldForm: oldForm)
        #expect(MotionPhoto.clip(in: photo) == (photo.count - clip.count)..<photo.count)
        try photo.write(to: photos.appendingPathComponent("PXL_0001.MP.jpg"))
        let config: [String: Any] = [
            "title": "Motion", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await Self.build(folder)
        #expect(
            report.photosPublished == 1 && report.failures.isEmpty && report.warnings.isEmpty,
            "\(report.failures) \(report.warnings)")
        let site = folder.appendingPathComponent("public/photos/pxl-0001-mp")
        let motion = site.appendingPathComponent("motion.mp4")
        let streams = try await Self.streams(motion)
        #expect(streams.contains("codec_name=h264") && streams.contains("width=320|height=180"), "\(streams)")
        #expect(try Data(contentsOf: motion).range(of: Data("48.8577".utf8)) == nil)
        let page = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("src=\"../../photos/pxl-0001-mp/motion.mp4\""))
        // The published original is the JPEG alone: the clip (with its position) is cut off.
        let original = try Data(contentsOf: site.appendingPathComponent("original.jpg"))
        #expect(original.range(of: Data("ftyp".utf8)) == nil && original.range(of: Data("48.8577".utf8)) == nil)
        let again = try await Self.build(folder)
        #expect(again.derivativesMade == 0)
    }

    @Test func shardedBuildsMakeTheClipsAndTheFinalBuildAdoptsThem() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("IMG_0001.jpg"))
        for index in 2...3 {
            try await Self.ffmpeg(
                [
                    "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1", "-c:v", "libx265",
                    "-x265-params", "log-level=error", "-tag:v", "hvc1", "out:photos/IMG_000\(index).mp4"
                ], in: folder)
        }
        try Fixtures.data("images/photo-2.jpg").write(to: photos.appendingPathComponent("IMG_0004.jpg"))
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25:duration=1", "-c:v", "libx264",
                "out:photos/IMG_0004.MOV"
            ], in: folder)
        let config: [String: Any] = [
            "title": "Shards", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        var made = 0
        for index in 1...2 {
            let shard = try await Self.build(folder, imagesOnly: try Shard(index, of: 2))
            #expect(shard.failures.isEmpty, "\(shard.failures)")
            made += shard.derivativesMade
        }
        #expect(made > 0)
        let final = try await Self.build(folder)
        #expect(
            final.photosPublished == 4 && final.clipsPublished == 2 && final.motionsPublished == 1, "\(final.failures)")
        #expect(final.derivativesMade == 0, "the final build made \(final.derivativesMade) files the shards had made")
        let site = folder.appendingPathComponent("public/photos")
        for file in ["img-0002/video.mp4", "img-0003/video.mp4", "img-0004/motion.mp4"] {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test func aCancelledRunIsKilledAndAFailedEncodeLeavesNoFile() async throws {
        let sleep = try #require(MediaTool.find("sleep"))
        let clock = ContinuousClock.now
        let run = Task { try await sleep.run(["120"], timeout: 600) }
        try await Task.sleep(nanoseconds: 300_000_000)
        run.cancel()
        _ = try? await run.value
        #expect(clock.secondsElapsed < 60, "a cancelled run waits for its tool to be killed, not to finish")

        let folder = try Fixtures.temporaryFolder()
        let damaged = folder.appendingPathComponent("damaged.mp4")
        try Data(repeating: 7, count: 4096).write(to: damaged)
        let encoder = VideoEncoder.find(settings: VideoSettings())
        let output = folder.appendingPathComponent("web.mp4").path
        let info = VideoInfo(
            duration: 1, stored: PixelSize(width: 160, height: 90), rotation: 0, videoCodec: "hevc", audioCodec: nil,
            frameRate: 25, pixelFormat: "yuv420p", interlaced: false, container: "mov,mp4", bytes: 4096)
        await #expect(throws: ImagingError.self) { try await encoder.webVideo(damaged, video: info, to: output) }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A JPEG whose EXIF holds an Apple maker note with a content identifier (tag 0x0011), as an
    /// iPhone writes a Live Photo's still: TIFF big-endian, IFD0 → Exif IFD → MakerNote
    /// (`Apple iOS\0`, version 1, `MM`, one ASCII entry whose value sits at an offset from the note's start).
    static func appleStill(_ jpeg: Data, identifier: String) -> Data {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xffff) }
        let text = Array(identifier.utf8) + [0]
        let note =
            Array("Apple iOS\0".utf8) + u16(1) + Array("MM".utf8) + u16(1)
            + u16(0x0011) + u16(2) + u32(text.count) + u32(32) + u32(0) + text
        // TIFF header (8), IFD0 at 8 (2 + 12 + 4 = 18 bytes), Exif IFD at 26 (18 bytes), the note at 44.
        let tiff =
            Array("MM".utf8) + u16(42) + u32(8)
            + u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
            + u16(1) + u16(0x927c) + u16(7) + u32(note.count) + u32(44) + u32(0)
            + note
        let body = Array("Exif".utf8) + [0, 0] + tiff
        return Data([0xff, 0xd8, 0xff, 0xe1] + u16(body.count + 2) + body) + jpeg.dropFirst(2)
    }

    @Test func liveHalvesWithDifferentNamesArePairedByTheirContentIdentifier() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let identifier = "7A5B2C1D-0E3F-4A5B-8C7D-9E0F1A2B3C4D"
        let still = Self.appleStill(try Fixtures.data("images/photo-1.jpg"), identifier: identifier)
        try still.write(to: photos.appendingPathComponent("Lisbon tram.jpg"))
        #expect(LivePhotoIdentifier.ofStill(still) == identifier)
        // A HEIF's EXIF block has no `Exif\0\0` prefix: the bare TIFF structure gives the same identifier.
        let bare = try #require(MetadataBlocks.fromJPEG(still).exif).dropFirst(6)
        #expect(
            ExifReader.makerNote(exif: Data(bare)).flatMap(LivePhotoIdentifier.appleContentIdentifier) == identifier)
        // exiftool, an independent reader, finds the same identifier in the fixture.
        let tags = try Self.exiftool(photos.appendingPathComponent("Lisbon tram.jpg"))
        #expect(
            tags.contains {
                ($0.key.hasSuffix("ContentIdentifier") || $0.key.hasSuffix("MediaGroupUUID"))
                    && "\($0.value)" == identifier
            },
            "\(tags.keys.sorted())")
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1.5", "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "-metadata", "com.apple.quicktime.content.identifier=\(identifier)", "-movflags", "use_metadata_tags",
                "out:photos/IMG_0042.MOV"
            ], in: folder)
        // A clip of its own, with no identifier: not paired, published as a clip.
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1", "-c:v", "libx264", "-pix_fmt",
                "yuv420p",
                "out:photos/IMG_0043.MOV"
            ], in: folder)
        let config: [String: Any] = [
            "title": "Renamed", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await Self.build(folder)
        #expect(
            report.photosPublished == 2 && report.clipsPublished == 1 && report.motionsPublished == 1,
            "\(report.failures)")
        #expect(report.ignored.map(\.reason) == [.livePhotoClipPaired(with: "Lisbon tram.jpg", byIdentifier: true)])
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("public/photos/lisbon-tram/motion.mp4").path))
        // What was read is kept by path, size and time: the rebuild opens neither file again.
        let cache = try String(
            contentsOf: folder.appendingPathComponent(".galleryssg/live-photos.json"), encoding: .utf8)
        #expect(cache.contains(identifier) && cache.contains("IMG_0043.MOV"), "\(cache)")
        // (Run without ffprobe: the answers come from the cache.)
        let again = try await Self.build(folder, toolPath: "")
        #expect(again.motionsPublished == 1 && again.derivativesMade == 0, "\(again.failures)")
    }

    @Test func aClipOverALimitIsReportedWithItsKey() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try await Self.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=3", "-c:v", "libx264",
                "out:photos/long.mp4"
            ], in: folder)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("photo.jpg"))
        let config: [String: Any] = [
            "title": "Limits", "source": ["type": "folder", "path": "photos"], "video": ["maxSeconds": 2]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await Self.build(folder)
        #expect(
            report.failures.first?.reason.contains("over the 2 s limit (video.maxSeconds)") == true,
            "\(report.failures)")
    }

    /// A photo folder's JPEG derivatives, smallest first.
    static func jpegs(_ site: URL, _ id: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("photos/\(id)").path)
            .filter { $0.hasSuffix(".jpg") }.sorted { ($0 as NSString).integerValue < ($1 as NSString).integerValue }
    }

    /// The mean of a JPEG's red, green and blue samples, 0–255.
    static func meanLuma(_ file: URL) throws -> Double {
        let data = try Data(contentsOf: file)
        let header = try JPEGCodec.header(data)
        let bitmap = try JPEGCodec.decode(data, header: header, size: header.size)
        return Double(bitmap.pixels.reduce(0) { $0 + Int($1) }) / Double(bitmap.pixels.count)
    }

    static func exiftool(_ file: URL) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-ee", "-G1", "-a", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return list.first ?? [:]
    }
}
