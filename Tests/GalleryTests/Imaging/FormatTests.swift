import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryOutput
import Testing

/// The formats beyond JPEG and PNG (Tests/Fixtures/formats, remade by make-formats.py): each one is
/// decoded through the whole pipeline and judged by its displayed size and quadrant colours.
@Suite("Formats")
struct FormatTests {
    /// The fixtures' quadrant colours, as make-formats.py draws them.
    static let red = [220, 30, 30], green = [30, 200, 30], blue = [30, 30, 220], white = [240, 240, 240]

    /// Processes a fixture and decodes its largest derivative (the original's own size) back to pixels.
    /// `settings` nil: the config defaults.
    static func rendered(_ fixture: String, settings: ImageSettings? = nil) throws -> (
        image: ProcessedImage, pixels: Bitmap
    ) {
        let image = try ImageProcessor(settings: settings ?? .defaults()).process(
            try Fixtures.data("formats/\(fixture)"), folder: "x")
        let encoded = try #require(image.encoded.first).data
        let header = try JPEGCodec.header(encoded)
        return (image, try JPEGCodec.decode(encoded, header: header, size: header.size))
    }

    /// Checks the centre of each quadrant (top-left, top-right, bottom-left, bottom-right).
    static func expectQuadrants(
        _ bitmap: Bitmap, _ colours: [[Int]], tolerance: Int = 16,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let points = [(1, 1), (3, 1), (1, 3), (3, 3)].map { (bitmap.width * $0.0 / 4, bitmap.height * $0.1 / 4) }
        for (point, colour) in zip(points, colours) {
            let pixel = bitmap.pixel(x: point.0, y: point.1)
            let distance = max(
                abs(Int(pixel.red) - colour[0]), abs(Int(pixel.green) - colour[1]), abs(Int(pixel.blue) - colour[2]))
            #expect(distance <= tolerance, "at \(point): \(pixel), expected \(colour)", sourceLocation: sourceLocation)
        }
    }

    @Test func heicIgnoresItsEXIFOrientation() throws {
        // EXIF says 6, but HEIF's own irot/imir are authoritative and this file has none.
        let (image, pixels) = try Self.rendered("heic-exif6.heic")
        #expect(image.format == .heif && image.displaySize == PixelSize(width: 64, height: 48))
        #expect(image.exif.orientation == 1 && image.exif.camera.make == "FormatCam")
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, Self.white])
    }

    @Test func avifIsRotatedOnceByItsIrot() throws {
        // irot makes it a quarter turn clockwise; the EXIF orientation 6 beside it must not turn it again.
        let facts = try ImageProcessor.facts(of: try Fixtures.data("formats/avif-irot.avif"))
        #expect(facts.format == .avif && facts.size == PixelSize(width: 48, height: 64) && facts.exif.orientation == 1)
        let (image, pixels) = try Self.rendered("avif-irot.avif")
        #expect(
            image.displaySize == PixelSize(width: 48, height: 64)
                && image.plan.preview.size == PixelSize(width: 48, height: 64))
        Self.expectQuadrants(pixels, [Self.blue, Self.red, Self.white, Self.green])
    }

    @Test func heicAlphaShowsTheBackground() throws {
        var settings = try ImageSettings.defaults()
        settings.background = RGB(red: 0, green: 128, blue: 255)
        let (image, pixels) = try Self.rendered("heic-alpha.heic", settings: settings)
        #expect(image.format == .heif && image.displaySize == PixelSize(width: 64, height: 48))
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, [0, 128, 255]])
    }

    @Test func lossyWebPWithEXIFOrientation() throws {
        let (image, pixels) = try Self.rendered("webp-lossy.webp")
        #expect(image.format == .webp && image.displaySize == PixelSize(width: 64, height: 48))
        #expect(image.exif.orientation == 3 && image.exif.camera.make == "FormatCam")
        Self.expectQuadrants(pixels, [Self.white, Self.blue, Self.green, Self.red])
    }

    @Test func losslessWebPAlphaShowsTheBackground() throws {
        var settings = try ImageSettings.defaults()
        settings.background = RGB(red: 0, green: 128, blue: 255)
        let (_, pixels) = try Self.rendered("webp-alpha.webp", settings: settings)
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, [0, 128, 255]], tolerance: 8)
    }

    @Test func tiffRGB8AppliesItsOrientationTagOnce() throws {
        // IFD0 says 8 (turn a quarter anticlockwise to view); libtiff itself must not flip the rows.
        let (image, pixels) = try Self.rendered("tiff-rgb8.tif")
        #expect(image.format == .tiff && image.displaySize == PixelSize(width: 48, height: 64))
        #expect(image.exif.orientation == 8 && image.exif.camera.make == "FormatCam")
        Self.expectQuadrants(pixels, [Self.green, Self.white, Self.red, Self.blue], tolerance: 8)
    }

    @Test(arguments: ["tiff-rgb16.tif", "gif-animated.gif", "mpo-stereo.mpo"])
    func quadrantsUpright(_ fixture: String) throws {
        let (image, pixels) = try Self.rendered(fixture)
        #expect(image.displaySize == PixelSize(width: 64, height: 48))
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, Self.white], tolerance: 8)
    }

    @Test(arguments: ["tiff-grey8.tif", "tiff-grey16.tif"])
    func greyTIFF(_ fixture: String) throws {
        // Pillow's luma (ITU-R 601) of the four quadrant colours.
        let (_, pixels) = try Self.rendered(fixture)
        Self.expectQuadrants(pixels, [[87, 87, 87], [130, 130, 130], [52, 52, 52], [240, 240, 240]], tolerance: 5)
    }

    @Test func adobeRGBTIFFIsConvertedToSRGB() throws {
        // The same stored colours as colour/adobe-rgb.jpg, so colour/expected.json has their sRGB values.
        let (image, pixels) = try Self.rendered("tiff-adobergb.tif")
        #expect(image.displaySize == PixelSize(width: 64, height: 32))
        let left = pixels.pixel(x: 8, y: 16)
        let right = pixels.pixel(x: 48, y: 16)
        #expect(
            abs(Int(left.red) - 210) <= 6 && abs(Int(left.green) - 57) <= 6 && abs(Int(left.blue) - 35) <= 6, "\(left)")
        #expect(
            abs(Int(right.red) - 0) <= 6 && abs(Int(right.green) - 141) <= 6 && abs(Int(right.blue) - 203) <= 6,
            "\(right)")
    }

    @Test func transparentGIFShowsTheBackground() throws {
        var settings = try ImageSettings.defaults()
        settings.background = RGB(red: 10, green: 20, blue: 30)
        let (image, pixels) = try Self.rendered("gif-transparent.gif", settings: settings)
        #expect(image.format == .gif)
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, [10, 20, 30]], tolerance: 8)
    }

    @Test func mpoUsesOnlyItsFirstPicture() throws {
        let data = try Fixtures.data("formats/mpo-stereo.mpo")
        let facts = try ImageProcessor.facts(of: data)
        #expect(facts.format == .jpeg && facts.size == PixelSize(width: 64, height: 48))
    }

    @Test func pngCarriesEXIFOrientationAndXMP() throws {
        let data = try Fixtures.data("formats/png-metadata.png")
        let blocks = MetadataBlocks.fromPNG(data)
        #expect(String(decoding: try #require(blocks.xmp), as: UTF8.self).contains("x:xmpmeta"))
        #expect(blocks.exif != nil)
        let (image, pixels) = try Self.rendered("png-metadata.png")
        #expect(image.exif.orientation == 6 && image.displaySize == PixelSize(width: 48, height: 64))
        Self.expectQuadrants(pixels, [Self.blue, Self.red, Self.white, Self.green], tolerance: 8)
    }

    @Test func jpegWithExtraneousBytesDecodesWithAWarning() throws {
        let (image, pixels) = try Self.rendered("jpeg-extraneous.jpg")
        #expect(image.warnings.count == 1)
        #expect(image.warnings.first?.contains("extraneous bytes before marker") == true, "\(image.warnings)")
        Self.expectQuadrants(pixels, [Self.red, Self.green, Self.blue, Self.white], tolerance: 8)
        let clean = try ImageProcessor(settings: .defaults()).process(
            try Fixtures.data("formats/mpo-stereo.mpo"), folder: "x")
        #expect(clean.warnings.isEmpty)
    }

    @Test func truncatedJPEGIsStillAnError() throws {
        // libjpeg would fill the missing rows with grey; a cut-off copy is not published.
        let error = try #require(throws: ImagingError.self) { try Self.rendered("jpeg-truncated.jpg") }
        #expect(error.kind == .damaged, "\(error)")
    }

    static let all = [
        "heic-exif6.heic", "heic-alpha.heic", "avif-irot.avif", "webp-lossy.webp", "webp-alpha.webp", "tiff-rgb8.tif",
        "tiff-rgb16.tif", "tiff-grey8.tif", "tiff-grey16.tif", "tiff-adobergb.tif", "gif-animated.gif",
        "gif-transparent.gif", "mpo-stereo.mpo", "png-metadata.png"
    ]

    @Test func sniffAndHelpers() throws {
        let formats = try Self.all.map { try ImageFormat.sniff(try Fixtures.data("formats/\($0)")) }
        #expect(
            formats == [.heif, .heif, .avif, .webp, .webp, .tiff, .tiff, .tiff, .tiff, .tiff, .gif, .gif, .jpeg, .png])
        #expect(ImageFormat.jpeg.rawValue == "jpeg" && ImageFormat.png.rawValue == "png")
        #expect(ImageFormat.heif.fileExtension == "heic" && ImageFormat.avif.mimeType == "image/avif")
        #expect(!ImageFormat.jpeg.compositesOverBackground && ImageFormat.webp.compositesOverBackground)
        #expect(throws: ImagingError.self) { try ImageFormat.sniff(Data("<html>".utf8)) }
    }

    @Test func downloaderAcceptsEveryFormatAndStillRejectsPages() throws {
        func response(_ body: Data) -> HTTPTransport.Response {
            HTTPTransport.Response(
                url: URL(fileURLWithPath: "/photo"), status: 200,
                headers: [("Content-Type", "image/jpeg")], body: body)
        }
        for fixture in Self.all {
            #expect(throws: Never.self, "\(fixture)") {
                try Downloader.checkImage(response(try Fixtures.data("formats/\(fixture)")))
            }
        }
        #expect(throws: FetchError.self) { try Downloader.checkImage(response(Data("<html>Not found</html>".utf8))) }
    }

    @Test func pixelLimitComesBeforeDecodingForEveryFormat() throws {
        var settings = try ImageSettings.defaults()
        settings.maxPixels = 1000
        for fixture in Self.all {
            let data = try Fixtures.data("formats/\(fixture)")
            let size = try ImageProcessor.facts(of: data).size
            #expect(throws: ImagingError.tooManyPixels(size, limit: 1000), "\(fixture)") {
                try ImageProcessor(settings: settings).inspect(data, folder: "x")
            }
        }
    }

    @Test func backgroundIsInTheKeysOfFormatsWithTransparency() throws {
        let defaults = try ImageSettings.defaults()
        var black = defaults
        black.background = RGB(red: 0, green: 0, blue: 0)
        for (fixture, keyed) in [("webp-alpha.webp", true), ("gif-transparent.gif", true), ("mpo-stereo.mpo", false)] {
            let facts = try ImageProcessor.facts(of: try Fixtures.data("formats/\(fixture)"))
            var keys: [DerivativeKeys] = []
            for settings in [defaults, black] {
                let processor = ImageProcessor(settings: settings)
                keys.append(
                    processor.keys(
                        contentHash: Fixtures.key("h"), facts: facts, layout: try processor.layout(facts, folder: "x")))
            }
            #expect((keys[0] != keys[1]) == keyed, "\(fixture)")
        }
    }
}
