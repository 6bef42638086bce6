import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import Testing

@Suite("Output formats and sharpening")
struct OutputFormatTests {
    /// Width and height from a lossy WebP's RIFF container and VP8 key-frame header (RFC 9649 §2.5, RFC 6386 §9.1).
    func webpSize(_ data: Data) -> PixelSize? {
        let bytes = [UInt8](data)
        guard bytes.count > 30, Array(bytes[0..<4]) == Array("RIFF".utf8), Array(bytes[8..<12]) == Array("WEBP".utf8),
            Array(bytes[12..<16]) == Array("VP8 ".utf8), Array(bytes[23..<26]) == [0x9d, 0x01, 0x2a]
        else { return nil }
        let width = Int(bytes[26]) | Int(bytes[27] & 0x3f) << 8
        let height = Int(bytes[28]) | Int(bytes[29] & 0x3f) << 8
        return PixelSize(width: width, height: height)
    }

    @Test func webpTwinsHaveEveryDerivativeSize() throws {
        var settings = try ImageSettings.defaults()
        settings.webp = true
        let image = try ImageProcessor(settings: settings).process(
            try Fixtures.data("images/photo-1.jpg"), folder: "photos/a")
        #expect(image.webp.count == image.encoded.count)
        for (derivative, data) in image.webp {
            #expect(webpSize(data) == derivative.size, "\(derivative.webpPath)")
            #expect(derivative.webpPath.hasSuffix(".webp") && derivative.webpPath.hasPrefix("photos/a/"))
        }
        // Off by default: no WebP work at all.
        #expect(
            try ImageProcessor(settings: .defaults()).process(try Fixtures.data("images/photo-1.jpg"), folder: "a").webp
                .isEmpty)
    }

    @Test func pagesOfferWebPThroughPictureWithTheJPEGAsFallback() async throws {
        let site = try FixtureSite.make(config: [
            "images": ["thumbnail": 64, "preview": 120, "widths": [96], "webp": true]
        ])
        _ = try await site.build()
        let grid = try site.read("index.html")
        #expect(grid.contains(#"<picture><source type="image/webp" srcset="photos/"#))
        #expect(grid.components(separatedBy: "<picture>").count == grid.components(separatedBy: "</picture>").count)
        let page = try site.read("photos/one/index.html")
        #expect(
            page.contains(#"<source type="image/webp""#) && page.contains(#"<img class="main" src="../../photos/one/"#))
        let files = site.outputFiles()
        let jpegs = files.filter {
            $0.hasPrefix("photos/one/") && $0.hasSuffix(".jpg") && !$0.hasSuffix("original.jpg")
        }
        let webps = files.filter { $0.hasPrefix("photos/one/") && $0.hasSuffix(".webp") }
        #expect(!jpegs.isEmpty && webps.count == jpegs.count)
        #expect(try site.brokenLinks().isEmpty)
    }

    @Test func sharpeningRaisesEdgeContrastAndLeavesFlatAreasAlone() {
        // A vertical edge from grey 80 to grey 170.
        var pixels = [UInt8](repeating: 80, count: 16 * 8 * 3)
        for y in 0..<8 { for x in 8..<16 { for c in 0..<3 { pixels[(y * 16 + x) * 3 + c] = 170 } } }
        let edge = Bitmap(width: 16, height: 8, pixels: pixels)
        #expect(Sharpener.sharpen(edge, amount: 0) == edge)
        let sharp = Sharpener.sharpen(edge, amount: 0.5)
        #expect(sharp.pixel(x: 7, y: 4).red < 80 && sharp.pixel(x: 8, y: 4).red > 170)  // overshoot on both sides
        #expect(sharp.pixel(x: 2, y: 4).red == 80 && sharp.pixel(x: 13, y: 4).red == 170)  // flat areas untouched
        #expect(sharp.pixel(x: 7, y: 0) == sharp.pixel(x: 7, y: 4))  // edges of the image clamp cleanly
    }

    @Test func onlyLargeReductionsAreSharpened() throws {
        var settings = try ImageSettings.defaults()
        settings.thumbnail = 40
        settings.preview = 1600  // no reduction for the 120 px fixture
        settings.widths = []
        let data = try Fixtures.data("images/photo-1.jpg")
        let plain = try ImageProcessor(settings: settings).process(data, folder: "a")
        settings.sharpen = 0.6
        let sharpened = try ImageProcessor(settings: settings).process(data, folder: "a")
        let byPath = { (image: ProcessedImage) in
            Dictionary(uniqueKeysWithValues: image.encoded.map { ($0.derivative.path, $0.data) })
        }
        let before = byPath(plain)
        let after = byPath(sharpened)
        #expect(before[sharpened.plan.preview.path] == after[sharpened.plan.preview.path])  // 1×: untouched
        #expect(before[sharpened.plan.thumbnail.path] != after[sharpened.plan.thumbnail.path])  // 3×: sharpened
    }

    @Test func twelveBitJPEGIsRejectedCleanly() throws {
        // The same photo with its frame header claiming 12-bit samples, which this libjpeg-turbo build cannot decode.
        var jpeg = [UInt8](try Fixtures.data("images/photo-1.jpg"))
        let sof = try #require(
            (0..<(jpeg.count - 9)).first { jpeg[$0] == 0xff && (0xc0...0xc2).contains(jpeg[$0 + 1]) })
        jpeg[sof + 4] = 12
        do {
            _ = try ImageProcessor(settings: .defaults()).process(Data(jpeg), folder: "x")
            Issue.record("a 12-bit JPEG was accepted")
        } catch let error as ImagingError {
            // Every libjpeg failure is `.damaged`; only libjpeg's own words tell this one.
            #expect(error.kind == .damaged && error.description.contains("precision 12"), "\(error.description)")
        }
    }
}
