import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryPipeline
import Testing

/// Whether the test venv has numpy and Pillow, which gainmap.py needs.
enum GainMapPython {
    static let ready = BrowserTools.run(["python3", "-c", "import numpy, PIL"]).status == 0
}

/// Gain-map JPEGs stay HDR: each JPEG derivative and the published original carry a gain map
/// whose HDR rendition, rebuilt by Tests/Fixtures/hdr/gainmap.py from the published equations
/// (numpy, not galleryssg's code), matches the source's, downscaled.
@Suite(
    .enabled(
        if: GainMapPython.ready || ProcessInfo.processInfo.environment["CI"] != nil,
        "needs numpy and Pillow (pip); make test installs them"))
struct GainMapTests {
    static let script = Fixtures.url("hdr/gainmap.py")
    /// The least PSNR of log2 luminance (over the source's log2 luminance range) a derivative's HDR
    /// rendition may have against the source's. Measured 2026-11-29: 38.7–46.6 dB over the suite's
    /// fixtures and sizes, 34.2–43.7 dB for Apple's photo; the same sizes without their gain map
    /// (images.hdr false) score 22.5–22.6 dB, and 28.0–29.1 dB for Apple's (its headroom is small).
    static let leastPSNR = 32.0

    /// The fixtures made afresh by the script, and a site built from them and Apple's two files.
    static func site(hdr: Bool = true) async throws -> (
        site: FixtureSite, sources: [String: URL], report: BuildReport
    ) {
        let made = try Fixtures.temporaryFolder()
        let result = BrowserTools.run(["python3", script.path, "make", made.path])
        try #require(result.status == 0, "gainmap.py make failed: \(result.errors)")
        var sources: [String: URL] = [:]
        for name in ["ultrahdr", "iso-only", "rotated"] { sources[name] = made.appendingPathComponent("\(name).jpg") }
        for name in ["apple_gainmap_new", "apple_gainmap_old"] { sources[name] = Fixtures.url("hdr/\(name).jpg") }
        let entries = sources.keys.sorted().map { ["id": $0, "title": $0, "image": "photos/\($0).jpg"] }
        let site = try FixtureSite.make(
            entries: entries,
            config: [
                "images": [
                    "thumbnail": 200, "preview": 600, "widths": [400], "gridSteps": false, "hdr": hdr,
                    "publishOriginals": true
                ]
            ])
        for (name, url) in sources {
            try FileManager.default.copyItem(at: url, to: site.folder.appendingPathComponent("photos/\(name).jpg"))
        }
        let report = try await site.build()
        #expect(report.photosPublished == 5)
        return (site, sources, report)
    }

    /// What gainmap.py's `compare` says of a derivative against its source.
    struct Comparison: Decodable {
        var psnr: Double
        var size: [Int]
        var gainMap: Bool
    }

    static func compare(_ source: URL, _ derivative: URL) throws -> Comparison {
        let result = BrowserTools.run(["python3", script.path, "compare", source.path, derivative.path])
        try #require(result.status == 0, "gainmap.py compare failed: \(result.errors)")
        return try JSONDecoder().decode(Comparison.self, from: result.output)
    }

    static func jpegs(of id: String, in site: FixtureSite) throws -> [URL] {
        let folder = site.output.appendingPathComponent("photos/\(id)")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jpg" }.sorted { $0.path < $1.path }
    }

    @Test func everyJPEGDerivativeAndTheOriginalRebuildTheSourcesHDR() async throws {
        let (site, sources, report) = try await Self.site()
        for name in ["ultrahdr", "iso-only", "rotated", "apple_gainmap_new"] {
            let files = try Self.jpegs(of: name, in: site)
            #expect(files.count >= 3, "\(name): \(files.map(\.lastPathComponent))")
            for file in files {
                let result = try Self.compare(sources[name]!, file)
                #expect(result.gainMap, "\(name)/\(file.lastPathComponent) has no gain map")
                #expect(
                    result.psnr >= Self.leastPSNR,
                    "\(name)/\(file.lastPathComponent) at \(result.size): \(result.psnr) dB")
            }
        }
        // Apple's older form keeps its headroom in the maker note: published in SDR, and said so.
        for file in try Self.jpegs(of: "apple_gainmap_old", in: site) {
            #expect(MultiPicture.followingImages(in: try Data(contentsOf: file)).isEmpty)
        }
        #expect(
            report.warnings.map { "\($0.id): \($0.reason)" } == [
                "apple_gainmap_old: \(GainMapProblem.appleMakerNoteOnly)"
            ])
    }

    @Test func withHDROffTheDerivativesAreSDRAndFailTheComparison() async throws {
        let (site, sources, report) = try await Self.site(hdr: false)
        #expect(report.warnings.isEmpty, "with images.hdr off, no gain map is expected: \(report.warnings)")
        for name in ["ultrahdr", "rotated"] {
            for file in try Self.jpegs(of: name, in: site) where file.lastPathComponent != "original.jpg" {
                let result = try Self.compare(sources[name]!, file)
                #expect(!result.gainMap)
                #expect(result.psnr < Self.leastPSNR, "\(name)/\(file.lastPathComponent): \(result.psnr) dB")
            }
        }
    }

    @Test func exiftoolReadsTheIndexAndTheGainMapValuesAndNoPosition() async throws {
        let (site, _, _) = try await Self.site()
        for name in ["rotated", "apple_gainmap_new"] {
            for file in try Self.jpegs(of: name, in: site) {
                guard let tags = try Exiftool.tags(of: file) else { return }
                #expect(tags.contains("[MPF0] NumberOfImages : 2"), "\(file.path)")
                #expect(tags.contains { $0.hasPrefix("[MPImage2] MPImageLength") })
                #expect(!tags.contains { $0.hasPrefix("[GPS]") || $0.contains("GPSPosition") }, "\(file.path)")
                let data = try Data(contentsOf: file)
                let gainMap = try #require(MultiPicture.followingImages(in: data).first)
                let image = folder(of: file).appendingPathComponent("\(file.lastPathComponent).gainmap.jpg")
                try Data(data[gainMap]).write(to: image)
                let gainMapTags = try #require(try Exiftool.tags(of: image))
                #expect(!gainMapTags.contains { $0.hasPrefix("[GPS]") })
                if name == "rotated" {
                    #expect(tags.contains("[XMP-hdrgm] Version : 1.0"), "\(tags)")
                    #expect(gainMapTags.contains { $0.hasPrefix("[XMP-hdrgm] GainMapMax") }, "\(gainMapTags)")
                    #expect(gainMapTags.contains { $0.hasPrefix("[XMP-hdrgm] HDRCapacityMax") })
                    // The ISO 21496-1 blocks are carried too, in both images.
                    let urn = Data(ISOGainMapBlocks.signature)
                    #expect(data[..<gainMap.lowerBound].range(of: urn) != nil)
                    #expect(data[gainMap].range(of: urn) != nil)
                } else {
                    #expect(gainMapTags.contains("[XMP-HDRGainMap] HDRGainMapHeadroom : 4.532783"), "\(gainMapTags)")
                }
                try FileManager.default.removeItem(at: image)
            }
        }
    }

    private func folder(of file: URL) -> URL { file.deletingLastPathComponent() }
}
