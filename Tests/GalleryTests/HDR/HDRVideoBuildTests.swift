import Foundation
import GalleryModel
import GalleryPipeline
import Testing

/// A library with an HLG and a PQ clip of the chart, built whole: each web file is H.264 tagged
/// BT.709 and the poster's largest JPEG, made through the image path, reproduces the chart.
@Suite("HDR video builds")
struct HDRVideoBuildTests {
    /// The poster's JPEG adds its own loss to the poster's (`HDRVideoTests.posterThreshold`);
    /// measured 0.73 (HLG) and 0.82 (PQ) on 2026-11-29.
    static let jpegThreshold = 2.0

    @Test(.enabled(if: HDRChart.canMeasure, "\(HDRChart.needs)"))
    func hdrClipsArePublishedAsSDR() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos/Trip")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for transfer in HDRTransfer.allCases {
            let clip = try await HDRChart.clip(transfer, in: folder)
            try FileManager.default.moveItem(at: clip, to: photos.appendingPathComponent(clip.lastPathComponent))
        }
        let config: [String: Any] = [
            "title": "HDR", "baseURL": "https://example.org/", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 480, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let report = try await VideoBuildTests.build(folder)
        #expect(report.clipsPublished == 2 && report.failures.isEmpty, "\(report.failures)")
        let site = folder.appendingPathComponent("public")
        for transfer in HDRTransfer.allCases {
            let id = "trip-chart-\(transfer.name.lowercased())"
            let tags = try await HDRChart.tags(site.appendingPathComponent("photos/\(id)/video.mp4"))
            #expect(
                tags["codec_name"] == "h264" && tags["color_primaries"] == "bt709" && tags["color_transfer"] == "bt709"
                    && tags["color_space"] == "bt709", "\(id): \(tags)")
            let largest = try #require(try VideoBuildTests.jpegs(site, id).last, "\(id) has no poster")
            let poster = site.appendingPathComponent("photos/\(id)/\(largest)")
            let measure = try await HDRChart.measure(
                try await HDRChart.frame(of: poster, filters: HDRChart.asImage, in: folder))
            print("HDR \(transfer.name) published poster \(largest): \(measure)")
            #expect(measure.meanMidTones < Self.jpegThreshold, "\(id) poster \(largest): \(measure)")
        }
    }
}
