import Foundation
import GalleryConfig
import GalleryImaging
import GalleryMetadata
import GalleryModel
import Testing

@Suite("Imaging")
struct ImagingTests {
    let processor: ImageProcessor

    init() throws {
        processor = ImageProcessor(settings: try .defaults())
    }

    /// Decodes a fixture the way a build does and returns the largest derivative, decoded again.
    func largestDerivative(_ fixture: String) throws -> (ProcessedImage, Bitmap) {
        let image = try processor.process(try Fixtures.data(fixture), folder: "photos/x")
        let data = image.encoded[0].data
        let header = try JPEGCodec.header(data)
        return (image, try JPEGCodec.decode(data, header: header, size: header.size))
    }

    func isClose(_ pixel: (red: UInt8, green: UInt8, blue: UInt8), _ expected: (Int, Int, Int)) -> Bool {
        abs(Int(pixel.red) - expected.0) < 60 && abs(Int(pixel.green) - expected.1) < 60
            && abs(Int(pixel.blue) - expected.2) < 60
    }

    @Test("EXIF orientation 1–8 comes out upright", arguments: 1...8)
    func orientation(_ value: Int) throws {
        let (image, bitmap) = try largestDerivative("orientation/orientation-\(value).jpg")
        #expect(image.exif.orientation == value)
        #expect(image.displaySize == PixelSize(width: 48, height: 32))
        #expect(bitmap.width == 48 && bitmap.height == 32)
        // Sample the middle of each quadrant: red top-left, green top-right, blue bottom-left, white bottom-right.
        #expect(isClose(bitmap.pixel(x: 12, y: 8), (255, 0, 0)))
        #expect(isClose(bitmap.pixel(x: 36, y: 8), (0, 255, 0)))
        #expect(isClose(bitmap.pixel(x: 12, y: 24), (0, 0, 255)))
        #expect(isClose(bitmap.pixel(x: 36, y: 24), (255, 255, 255)))
    }

    @Test func rotatedSampleIsPortraitAfterOrientation() throws {
        let data = try Data(
            contentsOf: Fixtures.repository.appendingPathComponent("Samples/photos/friends_by_Aitzol_Berasategi.jpg"))
        let header = try JPEGCodec.header(data)
        #expect(header.size == PixelSize(width: 2048, height: 1364))
        let image = try processor.process(data, folder: "photos/friends")
        #expect(image.exif.orientation == 6)
        #expect(image.displaySize == PixelSize(width: 1364, height: 2048))
        #expect(image.plan.preview.size == PixelSize(width: 1066, height: 1600))
        #expect(image.plan.thumbnail.size.height == 400)
    }

    @Test func transparentPNGIsCompositedOverTheBackground() throws {
        var settings = try ImageSettings.defaults()
        settings.background = RGB(red: 0, green: 255, blue: 0)
        let image = try ImageProcessor(settings: settings).process(
            try Fixtures.data("images/half-transparent.png"), folder: "p")
        let data = image.encoded[0].data
        let header = try JPEGCodec.header(data)
        let bitmap = try JPEGCodec.decode(data, header: header, size: header.size)
        #expect(isClose(bitmap.pixel(x: 10, y: 30), (0, 0, 255)))  // opaque blue half
        #expect(isClose(bitmap.pixel(x: 70, y: 30), (0, 255, 0)))  // transparent half shows the background
    }

    @Test func neverUpscalesAndPlansDistinctSizes() throws {
        let plan = try DerivativePlan(
            display: PixelSize(width: 900, height: 600), settings: .defaults(), folder: "photos/a")
        #expect(plan.preview.size == PixelSize(width: 900, height: 600))
        #expect(plan.thumbnail.size == PixelSize(width: 400, height: 267))
        // The grid's own steps (GridSourcesTests) come after the others.
        #expect(plan.all.map(\.size.width) == [900, 800, 480, 400, 691, 576])
        #expect(plan.all.allSatisfy { $0.size.width <= 900 && $0.path.hasPrefix("photos/a/") })
        #expect(plan.thumbnailSources.map(\.size.width) == [400, 480, 576, 691, 800, 900])
        let tiny = try DerivativePlan(display: PixelSize(width: 120, height: 80), settings: .defaults(), folder: "t")
        #expect(tiny.all.map(\.size) == [PixelSize(width: 120, height: 80)])
    }

    @Test func jpegDecodeUsesDCTScalingButStaysAboveTheTarget() {
        // 1600 × 2 = 3200: 7/8 (3500) is the smallest scale that leaves the filter enough to do.
        let scaled = JPEGCodec.scaling(
            of: PixelSize(width: 6000, height: 4000), atLeast: PixelSize(width: 1600, height: 1067))
        #expect(scaled.size == PixelSize(width: 3750, height: 2500))
        #expect(scaled.content == SourceRegion(x: 0, y: 0, width: 3750, height: 2500))
        // 1364 × 7/8 = 1193.5: the bitmap rounds the partial block up, the content keeps the half.
        let partial = JPEGCodec.scaling(
            of: PixelSize(width: 2048, height: 1364), atLeast: PixelSize(width: 800, height: 533))
        #expect(partial.size == PixelSize(width: 1792, height: 1194))
        #expect(partial.content == SourceRegion(x: 0, y: 0, width: 1792, height: 1193.5))
        // Too little room for any scaling: decode in full.
        let full = JPEGCodec.scaling(
            of: PixelSize(width: 2048, height: 1364), atLeast: PixelSize(width: 1600, height: 1066))
        #expect(full.size == PixelSize(width: 2048, height: 1364))
    }

    @Test("a region follows its pixels through orientation", arguments: 1...8)
    func regionFollowsOrientation(_ orientation: Int) {
        // Stored 5×3: the picture is the 4×2 top-left part; the last column and row are slack (0).
        let stored = PixelSize(width: 5, height: 3)
        var pixels = [UInt8](repeating: 0, count: 5 * 3 * 3)
        for y in 0..<2 { for x in 0..<4 { for c in 0..<3 { pixels[(y * 5 + x) * 3 + c] = 200 } } }
        let upright = Orientation.apply(orientation, to: Bitmap(width: 5, height: 3, pixels: pixels))
        let region = Orientation.apply(orientation, to: SourceRegion(x: 0, y: 0, width: 4, height: 2), in: stored)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let inside =
                    Double(x) >= region.x && Double(x) < region.x + region.width
                    && Double(y) >= region.y && Double(y) < region.y + region.height
                #expect(
                    (upright.pixel(x: x, y: y).red == 200) == inside,
                    "orientation \(orientation) at \(x),\(y): \(region)")
            }
        }
    }

    @Test func lanczosKeepsFlatColourFlatAndAveragesStripes() {
        let flat = Bitmap(
            width: 50, height: 40,
            pixels: [UInt8](repeating: 0, count: 50 * 40 * 3).enumerated().map {
                [UInt8(200), 100, 50][$0.offset % 3]
            })
        let small = Resampler.resize(flat, to: PixelSize(width: 17, height: 13))
        #expect(small.width == 17 && small.height == 13)
        #expect(small.pixels.enumerated().allSatisfy { abs(Int($0.element) - [200, 100, 50][$0.offset % 3]) <= 1 })
        // One-pixel black and white columns shrink to mid grey, not to either colour (no nearest-neighbour).
        var stripes = [UInt8](repeating: 0, count: 64 * 8 * 3)
        for y in 0..<8 {
            for x in stride(from: 0, to: 64, by: 2) { for c in 0..<3 { stripes[(y * 64 + x) * 3 + c] = 255 } }
        }
        let grey = Resampler.resize(Bitmap(width: 64, height: 8, pixels: stripes), to: PixelSize(width: 16, height: 2))
        // Interior columns average to mid grey; the edge columns lean towards their replicated edge pixel.
        for y in 0..<2 {
            for x in 0..<16 {
                let value = Int(grey.pixel(x: x, y: y).red)
                #expect((x == 0 || x == 15 ? 100...156 : 120...136).contains(value), "column \(x): \(value)")
            }
        }
    }

    @Test func linearLightKeepsTheBrightnessOfFineDetail() {
        // Alternating black and white columns average to 50 % light, which is sRGB 188, not 128.
        var stripes = [UInt8](repeating: 0, count: 64 * 8 * 3)
        for y in 0..<8 {
            for x in stride(from: 0, to: 64, by: 2) { for c in 0..<3 { stripes[(y * 64 + x) * 3 + c] = 255 } }
        }
        let source = Bitmap(width: 64, height: 8, pixels: stripes)
        let linear = Resampler.resize(source, to: PixelSize(width: 16, height: 2), linearLight: true)
        let gamma = Resampler.resize(source, to: PixelSize(width: 16, height: 2), linearLight: false)
        #expect((182...194).contains(Int(linear.pixel(x: 8, y: 1).red)))
        #expect((120...136).contains(Int(gamma.pixel(x: 8, y: 1).red)))
        // Flat colours survive the round trip through linear light unchanged.
        let flat = Bitmap(width: 30, height: 20, pixels: [UInt8](repeating: 77, count: 30 * 20 * 3))
        #expect(
            Resampler.resize(flat, to: PixelSize(width: 11, height: 7), linearLight: true).pixels.allSatisfy {
                abs(Int($0) - 77) <= 1
            })
        for transfer in [Transfer.sRGB, Transfer.identity] {
            #expect(
                (0...255).allSatisfy {
                    transfer.encode[Int((transfer.decode[$0] * Transfer.steps).rounded())] == UInt8($0)
                })
        }
    }

    @Test func brokenFilesAreRejectedWithAReason() throws {
        #expect(throws: ImagingError.self) {
            try processor.process(try Fixtures.data("images/truncated.jpg"), folder: "x")
        }
        do {
            _ = try processor.process(try Fixtures.data("images/not-an-image.jpg"), folder: "x")
            Issue.record("expected an error")
        } catch let error as ImagingError {
            #expect(error.kind == .notAnImage)
            // The file named in words, as a person reads it.
            #expect(error.description == "a text file, not an image")
            #expect(error.firstBytes == "74 68 69 73 20 69 73 20")
        }
    }

    /// A file that is no image is named by what it is, in words; its bytes in hex are for `--report` only.
    @Test func filesThatAreNoImageAreNamedInWords() throws {
        let cases: [(bytes: [UInt8], words: String)] = [
            ([], "an empty file (0 bytes), not an image; replace it or remove it"),
            (
                Array("\u{FEFF}\n  <!DOCTYPE html><html><body>404 Not Found".utf8),
                "an HTML page, not an image (did a download return an error page?)"
            ),
            (Array("<html>".utf8), "an HTML page, not an image (did a download return an error page?)"),
            (Array("%PDF-1.7\n%".utf8) + [0xe2, 0xe3], "a PDF document, not an image; export its pages as JPEG or PNG"),
            (
                Array(#"<?xml version="1.0"?><svg"#.utf8),
                "an XML or SVG file, not an image galleryssg reads JPEG, PNG, WebP, HEIF, AVIF, TIFF and GIF; export it as PNG"
            ),
            ([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0], "a ZIP archive, not an image; unpack it"),
            (
                [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0d, 0x0a, 0x1a, 0x0a, 0],
                "a PNG file whose signature is damaged (was it copied as text, changing its line endings?); copy it again"
            ),
            (
                Array(#"{"error": "rate limited"}"#.utf8),
                "a JSON document, not an image (did a download return an error message?)"
            ),
            (Array("caf\u{e9} au lait, 日本".utf8), "a text file, not an image"),
            (
                [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0],
                "a video or other MP4/QuickTime file, not a still image "
                    + "galleryssg reads JPEG, PNG, WebP, HEIF, AVIF, TIFF and GIF"
            ),
            (
                [0x00, 0x01, 0xfe, 0x80, 0x7f],
                "not an image galleryssg reads JPEG, PNG, WebP, HEIF, AVIF, TIFF and GIF "
                    + "(its first bytes match none of them)"
            )
        ]
        for (bytes, words) in cases {
            let error = try #require(throws: ImagingError.self) { try ImageFormat.sniff(Data(bytes)) }
            #expect(error.kind == .notAnImage)
            #expect(error.description == words, "\(bytes.prefix(8))")
            #expect(error.firstBytes?.split(separator: " ").count == min(bytes.count, 8))
        }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        var settings = try ImageSettings.defaults()
        settings.maxPixels = 1000
        do {
            _ = try ImageProcessor(settings: settings).process(try Fixtures.data("images/photo-1.jpg"), folder: "x")
            Issue.record("expected an error")
        } catch let error as ImagingError {
            #expect(error.kind == .overLimit)
            // The words name the setting a person raises.
            #expect(error.description == "160×100 is 16000 pixels, over the 1000-pixel limit (images.maxPixels)")
        }
    }

    @Test func exifCameraFieldsAreRead() throws {
        let data = try Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/photos/Path.jpg"))
        let exif = ExifReader.read(jpeg: data)
        #expect(exif.camera.model == "E-M1")
        #expect(exif.takenAt == "2015-09-06T18:46:57")
    }
}
