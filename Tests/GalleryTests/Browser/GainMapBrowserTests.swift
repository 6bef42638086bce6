import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import Testing

/// Chromium decodes every gain-map JPEG the build writes (each size and each original of
/// `GainMapTests`' site), at the size its header says, into a picture (not one flat colour), through
/// `Tests/Browser/check_decodes.py`. Skipped like the other browser checks where Chromium or
/// selenium is missing, and where numpy or Pillow is; in CI a missing tool fails it.
extension LoadSensitive {
    @Suite("Gain-map JPEGs in Chromium")
    struct GainMapBrowserTests {
        static let enabled =
            BrowserTests.enabled && (GainMapPython.ready || ProcessInfo.processInfo.environment["CI"] != nil)

        @Test(.enabled(if: enabled, "needs Chromium, selenium, numpy and Pillow; see .ci/run"))
        func chromiumDecodesEveryGainMapJPEG() async throws {
            try BrowserTests.tools.require()
            let (site, _, _) = try await GainMapTests.site()
            let folder = try Fixtures.temporaryFolder()
            // The size each file shows at: an original keeps its EXIF orientation, which browsers apply.
            var headers: [String: PixelSize] = [:]
            for name in ["ultrahdr", "iso-only", "rotated", "apple_gainmap_new"] {
                for file in try GainMapTests.jpegs(of: name, in: site) {
                    let copy = "\(name)-\(file.lastPathComponent)"
                    try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(copy))
                    let data = try Data(contentsOf: file)
                    headers[copy] = Orientation.displaySize(
                        of: try JPEGCodec.header(data).size, orientation: ExifReader.read(jpeg: data).orientation)
                }
            }
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_decodes.py")
            let result = BrowserTools.run(["python3", script.path, folder.path])
            try #require(result.status == 0, "check_decodes.py failed: \(result.errors.suffix(2000))")
            let decoded = try #require(
                try JSONSerialization.jsonObject(with: result.output) as? [String: [String: Any]])
            #expect(Set(decoded.keys) == Set(headers.keys))
            for (name, size) in headers {
                let image = decoded[name] ?? [:]
                #expect(image["error"] is NSNull, "\(name): \(image)")
                #expect(BrowserTests.number(image["width"]) == Double(size.width), "\(name): \(image)")
                #expect(BrowserTests.number(image["height"]) == Double(size.height), "\(name): \(image)")
                #expect((BrowserTests.number(image["distinct"]) ?? 0) > 20, "\(name): \(image)")
            }
        }
    }
}
