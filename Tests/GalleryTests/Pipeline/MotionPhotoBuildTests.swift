import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryPipeline
import Testing

/// HEIC motion photos are published with their motion, as JPEG ones are, and every motion photo
/// whose clip is not where its XMP says is published as a still with a warning on every build.
///
/// The HEIC follows Google's Motion Photo format 1.0
/// (https://developer.android.com/media/platform/motion-photo-format): the still's XMP says
/// `GCamera:MotionPhoto="1"` and its `Container:Directory` gives the MP4's `Item:Length`; the MP4
/// follows the HEIF boxes (`ftyp`, `meta`, `mdat`) in a top-level `mpvd` box, as Android's camera
/// writes it, so the clip is the file's last `Item:Length` bytes. The XMP is put into a HEIC of
/// the fixtures by ExifTool, as an editor would; the clip is made by ffmpeg.
@Suite("Motion photo builds")
struct MotionPhotoBuildTests {
    /// Google's XMP for a motion photo whose clip is `length` bytes.
    static func xmp(clipLength length: Int, mime: String) -> String {
        #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1"><Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="\#(mime)" Item:Semantic="Primary" Item:Length="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" Item:Length="\#(length)"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>"#
    }

    /// A HEIC whose XMP announces a clip of `clipLength` bytes, then `clip` in an `mpvd` box (none when nil).
    static func heicMotionPhoto(clip: Data?, clipLength: Int, in folder: URL) throws -> Data {
        let xmp = folder.appendingPathComponent("motion-\(UUID().uuidString).xmp")
        try Data(Self.xmp(clipLength: clipLength, mime: "image/heic").utf8).write(to: xmp)
        let still = folder.appendingPathComponent("still-\(UUID().uuidString).heic")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "exiftool", "-q", "-o", still.path, "-xmp<=" + xmp.path, Fixtures.url("formats/heic-exif6.heic").path
        ]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "install exiftool (Debian: libimage-exiftool-perl)")
        var data = try Data(contentsOf: still)
        if let clip {
            let size = 8 + clip.count
            data += Data([
                UInt8(size >> 24 & 0xff), UInt8(size >> 16 & 0xff), UInt8(size >> 8 & 0xff), UInt8(size & 0xff)
            ])
            data += Data("mpvd".utf8) + clip
        }
        return data
    }

    static func clip(in folder: URL) async throws -> Data {
        try await VideoBuildTests.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=30:duration=1", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "-metadata", "location=+48.8577+002.2950/", "out:clip.mp4"
            ], in: folder)
        return try Data(contentsOf: folder.appendingPathComponent("clip.mp4"))
    }

    static func site(_ folder: URL) throws -> URL {
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let config: [String: Any] = [
            "title": "Motion", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        return photos
    }

    @Test func aHEICMotionPhotoIsPublishedWithItsMotion() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = try Self.site(folder)
        let clip = try await Self.clip(in: folder)
        let photo = try Self.heicMotionPhoto(clip: clip, clipLength: clip.count, in: folder)
        let xmp = Data(Self.xmp(clipLength: clip.count, mime: "image/heic").utf8)
        #expect(MotionPhoto.search(photo, xmp: xmp) == .clip((photo.count - clip.count)..<photo.count))
        try photo.write(to: photos.appendingPathComponent("PXL_0002.MP.heic"))

        let report = try await VideoBuildTests.build(folder)
        #expect(
            report.photosPublished == 1 && report.motionsPublished == 1 && report.clipsPublished == 0
                && report.failures.isEmpty && report.warnings.isEmpty, "\(report.failures) \(report.warnings)")
        let site = folder.appendingPathComponent("public/photos/pxl-0002-mp")
        let motion = site.appendingPathComponent("motion.mp4")
        let streams = try await VideoBuildTests.streams(motion)
        #expect(streams.contains("codec_name=h264") && streams.contains("width=320|height=180"), "\(streams)")
        #expect(try Data(contentsOf: motion).range(of: Data("48.8577".utf8)) == nil)
        let page = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains("src=\"../../photos/pxl-0002-mp/motion.mp4\""))
        let again = try await VideoBuildTests.build(folder)
        #expect(again.derivativesMade == 0 && again.motionsPublished == 1)
    }

    /// A JPEG whose clip was cut short (its XMP's length now points into the JPEG), and a HEIC whose
    /// clip is gone (the length is past the file's start): both stills, both warned, every build.
    @Test func everyBrokenMotionPhotoIsPublishedAsAStillWithAWarning() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = try Self.site(folder)
        let clip = try await Self.clip(in: folder)
        let whole = VideoBuildTests.motionPhoto(jpeg: try Fixtures.data("images/photo-1.jpg"), clip: clip)
        let cut = whole.prefix(whole.count - 100)
        #expect(MotionPhoto.search(cut, xmp: MetadataBlocks.fromJPEG(cut).xmp) == .broken(.notAnMP4))
        try cut.write(to: photos.appendingPathComponent("PXL_0003.MP.jpg"))
        let gone = try Self.heicMotionPhoto(clip: nil, clipLength: 50_000, in: folder)
        #expect(
            MotionPhoto.search(gone, xmp: Data(Self.xmp(clipLength: 50_000, mime: "image/heic").utf8))
                == .broken(.lengthPastFile))
        try gone.write(to: photos.appendingPathComponent("PXL_0004.MP.heic"))

        for build in 1...2 {
            let report = try await VideoBuildTests.build(folder)
            #expect(report.photosPublished == 2 && report.motionsPublished == 0 && report.failures.isEmpty)
            let warned = Dictionary(report.warnings.map { ($0.id, $0.reason) }, uniquingKeysWith: { $0 + "; " + $1 })
            #expect(
                warned["pxl-0003-mp"] == MotionPhotoProblem.notAnMP4.words
                    && warned["pxl-0004-mp"] == MotionPhotoProblem.lengthPastFile.words,
                "build \(build): \(warned)")
        }
    }
}
