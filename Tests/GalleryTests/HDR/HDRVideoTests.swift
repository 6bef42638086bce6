import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import Testing

/// HDR clips (HLG, PQ) become SDR that looks right: the poster (sRGB) and the web file (BT.709,
/// tagged so) reproduce the chart's patches within a CIEDE2000 threshold, far closer than the
/// untone-mapped frames galleryssg made before, and an HDR clip is never copied as it is.
@Suite("HDR video")
struct HDRVideoTests {
    /// Mean CIEDE2000 of the mid-tone patches the poster may reach; measured 0.37 (HLG) and 0.47
    /// (PQ) on 2026-11-29 (docs/benchmarks.md), before 8.2 and 15.2.
    static let posterThreshold = 1.5
    /// The same for the web file's first frame read as its tags say; measured 0.57 and 0.65.
    static let webThreshold = 2.0

    static let encoder = VideoEncoder.find(settings: VideoSettings())

    @Test(arguments: HDRTransfer.allCases)
    func probeReadsTheTransfer(_ transfer: HDRTransfer) async throws {
        let folder = try Fixtures.temporaryFolder()
        let colour = try await Self.encoder.probe(try await HDRChart.clip(transfer, in: folder)).info.colour
        #expect(colour?.hdr == transfer && colour?.primaries == "bt2020" && colour?.matrix == "bt2020nc")
        #expect(colour?.isWide == true)
    }

    @Test(.enabled(if: HDRChart.canMeasure, "\(HDRChart.needs)"), arguments: HDRTransfer.allCases)
    func posterMatchesTheChart(_ transfer: HDRTransfer) async throws {
        let folder = try Fixtures.temporaryFolder()
        let clip = try await HDRChart.clip(transfer, in: folder)
        let video = try await Self.encoder.probe(clip).info
        let poster = folder.appendingPathComponent("poster.png")
        try await Self.encoder.poster(clip, video: video).write(to: poster)
        let after = try await HDRChart.measure(
            try await HDRChart.frame(of: poster, filters: HDRChart.asImage, in: folder))
        // What galleryssg did before it tone-mapped: the frame scaled and read as RGB, no conversion.
        let before = try await HDRChart.measure(
            try await HDRChart.frame(of: clip, filters: "scale=480:320:flags=lanczos,format=rgb24", in: folder))
        print("HDR \(transfer.name) poster: before \(before), after \(after)")
        #expect(after.meanMidTones < Self.posterThreshold, "\(transfer.name) poster: \(after)")
        #expect(after.meanMidTones * 5 < before.meanMidTones, "\(transfer.name): after \(after), before \(before)")
    }

    @Test(.enabled(if: HDRChart.canMeasure, "\(HDRChart.needs)"), arguments: HDRTransfer.allCases)
    func webFileIsBT709AndMatchesTheChart(_ transfer: HDRTransfer) async throws {
        let folder = try Fixtures.temporaryFolder()
        let clip = try await HDRChart.clip(transfer, in: folder)
        let video = try await Self.encoder.probe(clip).info
        #expect(Self.encoder.plan(video).mode == .transcode)
        let web = folder.appendingPathComponent("web.mp4")
        try await Self.encoder.webVideo(clip, video: video, to: web.path)
        let tags = try await HDRChart.tags(web)
        #expect(
            tags["codec_name"] == "h264" && tags["pix_fmt"] == "yuv420p" && tags["color_primaries"] == "bt709"
                && tags["color_transfer"] == "bt709" && tags["color_space"] == "bt709", "\(tags)")
        let after = try await HDRChart.measure(try await HDRChart.frame(of: web, in: folder))
        let plain = try await HDRChart.measure(try await HDRChart.frame(of: web, filters: HDRChart.asImage, in: folder))
        print("HDR \(transfer.name) web file: as tagged \(after), read as sRGB \(plain)")
        #expect(after.meanMidTones < Self.webThreshold, "\(transfer.name) web file: \(after)")
    }

    /// A wide-gamut SDR clip (BT.2020 primaries, BT.2020 transfer) is converted to BT.709's
    /// primaries, with no tone map: its poster reproduces the chart, where read as it was it is dull.
    @Test(.enabled(if: HDRChart.canMeasure, "\(HDRChart.needs)"))
    func wideGamutSDRIsConvertedToBT709() async throws {
        let folder = try Fixtures.temporaryFolder()
        let clip = try await HDRChart.clip(transfer: "bt2020-10", name: "BT2020", in: folder)
        let video = try await Self.encoder.probe(clip).info
        #expect(video.colour?.hdr == nil && video.colour?.isWide == true, "\(String(describing: video.colour))")
        #expect(VideoToneMap.filters(video.colour, to: .poster)?.contains("tonemap") == false)
        let poster = folder.appendingPathComponent("poster.png")
        try await Self.encoder.poster(clip, video: video).write(to: poster)
        let after = try await HDRChart.measure(
            try await HDRChart.frame(of: poster, filters: HDRChart.asImage, in: folder))
        let before = try await HDRChart.measure(
            try await HDRChart.frame(of: clip, filters: HDRChart.asImage, in: folder))
        print("BT.2020 SDR poster: before \(before), after \(after)")
        #expect(after.meanMidTones < Self.posterThreshold && after.meanMidTones * 5 < before.meanMidTones)
    }

    /// An 8-bit H.264 HLG clip in an MP4, which as SDR would be copied, is encoded and tagged BT.709;
    /// its keys differ from the same clip's as SDR, so a file made before the tone map is remade.
    @Test func anHDRClipIsNeverCopied() async throws {
        let folder = try Fixtures.temporaryFolder()
        let clip = try await HDRChart.clip(.hlg, in: folder, eightBit: true)
        let video = try await Self.encoder.probe(clip).info
        #expect(video.videoCodec == "h264" && video.pixelFormat == "yuv420p" && video.colour?.hdr == .hlg)
        var sdr = video
        sdr.colour = VideoColour(primaries: "bt709", transfer: "bt709", matrix: "bt709", range: "tv")
        #expect(Self.encoder.plan(sdr).mode == .remux)
        #expect(Self.encoder.plan(video).mode == .transcode)
        let hash = Fixtures.key("clip")
        #expect(
            Self.encoder.webKey(contentHash: hash, video: video) != Self.encoder.webKey(contentHash: hash, video: sdr))
        #expect(
            Self.encoder.posterHash(contentHash: hash, video: video)
                != Self.encoder.posterHash(contentHash: hash, video: sdr))
        let web = folder.appendingPathComponent("web.mp4")
        try await Self.encoder.webVideo(clip, video: video, to: web.path)
        let tags = try await HDRChart.tags(web)
        #expect(tags["color_transfer"] == "bt709" && tags["color_primaries"] == "bt709", "\(tags)")
        #expect(try await Self.packets(web) != Self.packets(clip), "the web file's video is the clip's, copied")
    }

    /// The MD5 of a file's video packets as they are stored (not decoded): the same for a copy.
    static func packets(_ file: URL) async throws -> String {
        let output = try await VideoProbeTests.tool("ffmpeg").run(
            ["-v", "error", "-nostdin", "-i", "file:" + file.path, "-map", "0:v:0", "-c", "copy", "-f", "md5", "-"],
            timeout: 60)
        try #require(output.status == 0, "\(output.reason)")
        return String(decoding: output.stdout, as: UTF8.self)
    }

    /// Facts stored before galleryssg read a clip's colour count as unknown, so the clip is probed
    /// again and keyed by its colour; a still's and a current clip's do not.
    @Test func factsWithoutColourAreProbedAgain() throws {
        let info = VideoInfo(
            duration: 1, stored: PixelSize(width: 480, height: 320), rotation: 0, videoCodec: "hevc", audioCodec: nil,
            frameRate: 25, pixelFormat: "yuv420p10le", interlaced: false, container: "mov,mp4", bytes: 1)
        var facts = OriginalFacts(format: .png, size: PixelSize(width: 480, height: 320), exif: ExifInfo())
        #expect(facts.isCurrent)
        facts.video = info
        #expect(!facts.isCurrent)
        facts.video?.colour = VideoColour(primaries: "bt2020", transfer: "arib-std-b67")
        #expect(facts.isCurrent)
        let old = try JSONEncoder().encode(info)
        #expect(try JSONDecoder().decode(VideoInfo.self, from: old).colour == nil)
    }
}
