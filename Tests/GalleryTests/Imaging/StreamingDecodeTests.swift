import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import Testing

/// A JPEG's largest derivative is resampled as the photo decodes, a band of rows at a time
/// (`ImageProcessor.streamLargest`, `JPEGRows`): the same pixels, warnings and errors as decoding
/// it whole first.
@Suite struct StreamingDecodeTests {
    static func processor(preview: Int, thumbnail: Int) throws -> ImageProcessor {
        var settings = try ImageSettings.defaults()
        settings.preview = preview
        settings.thumbnail = thumbnail
        settings.widths = []
        settings.gridSteps = false
        return ImageProcessor(settings: settings)
    }

    /// The first derivative the old way: the whole decode, converted, turned upright, then resized.
    static func wholeDecode(_ processor: ImageProcessor, _ job: ImageJob, _ recipe: DerivativeRecipe) throws
        -> (bitmap: Bitmap, warnings: [String])
    {
        let decoded = try processor.decodeUpright(job)
        let size = try #require(recipe.steps.first).derivative.size
        let resized = Resampler.resize(
            decoded.bitmap, to: size, region: decoded.region, linearLight: recipe.linearLight)
        return (resized, decoded.warnings)
    }

    static func streamed(_ data: Data, preview: Int, thumbnail: Int, linearLight: Bool = false) throws
        -> (
            streamed: (bitmap: Bitmap, seconds: [ImagingPhase: Double], warnings: [String])?,
            whole: () throws -> (bitmap: Bitmap, warnings: [String])
        )
    {
        var settings = try processor(preview: preview, thumbnail: thumbnail).settings
        settings.linearLight = linearLight
        let processor = ImageProcessor(settings: settings)
        let job = try processor.inspect(data, folder: "photos/x")
        let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: processor.settings)
        return (try processor.streamLargest(job, recipe), { [processor] in try wholeDecode(processor, job, recipe) })
    }

    /// A JPEG with an EXIF segment that says `orientation`, placed right after the start of image.
    static func turned(_ jpeg: Data, _ orientation: UInt8) -> Data {
        let tiff: [UInt8] = [
            0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, orientation, 0, 0, 0, 0, 0, 0, 0
        ]
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return Data([0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body) + jpeg.dropFirst(2)
    }

    static let kite = Fixtures.repository.appendingPathComponent("Samples/photos/Kite.jpg")

    @Test(arguments: [(1600, false), (600, false), (1000, true)])
    func theLargestSizeIsTheWholeDecodesToTheByte(preview: Int, linearLight: Bool) throws {
        let (streamed, whole) = try Self.streamed(
            try Data(contentsOf: Self.kite), preview: preview, thumbnail: 300,
            linearLight: linearLight)
        let result = try #require(streamed, "a 2048 px JPEG reduced to \(preview) px streams")
        let expected = try whole().bitmap
        #expect(result.bitmap == expected)
        #expect(result.warnings.isEmpty)
    }

    @Test func anEmbeddedProfileIsConvertedBandByBandToTheSamePixels() throws {
        let (streamed, whole) = try Self.streamed(try Fixtures.data("colour/adobe-rgb.jpg"), preview: 40, thumbnail: 20)
        let result = try #require(streamed)
        let expected = try whole().bitmap
        #expect(result.bitmap == expected)
        // And the conversion happened: a plain decode and resize differs.
        let processor = try Self.processor(preview: 40, thumbnail: 20)
        let job = try processor.inspect(try Fixtures.data("colour/adobe-rgb.jpg"), folder: "x")
        let plain = Resampler.resize(try processor.decode(job).bitmap, to: expected.size, region: job.decodeContent)
        #expect(plain != expected)
    }

    /// Turned photos are resampled first and turned after: the same picture, a level off here and there.
    @Test(arguments: 2...8)
    func aTurnedPhotoComesOutUprightAsBefore(orientation: Int) throws {
        let data = Self.turned(try Data(contentsOf: Self.kite), UInt8(orientation))
        let (streamed, whole) = try Self.streamed(data, preview: 700, thumbnail: 300)
        let result = try #require(streamed)
        let expected = try whole().bitmap
        #expect(result.bitmap.size == expected.size)
        #expect(
            result.bitmap.size
                == (orientation >= 5 ? PixelSize(width: 438, height: 700) : PixelSize(width: 700, height: 438)))
        let differences = zip(result.bitmap.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max()! <= 2)
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 0.1)
    }

    @Test func warningsAreThoseOfTheWholeDecode() throws {
        let (streamed, whole) = try Self.streamed(
            try Fixtures.data("formats/jpeg-extraneous.jpg"), preview: 40, thumbnail: 20)
        let result = try #require(streamed)
        let expected = try whole().warnings
        #expect(result.warnings.count == 1 && result.warnings == expected, "\(result.warnings)")
        #expect(result.warnings.first?.contains("extraneous bytes before marker") == true)
    }

    @Test func aFileThatEndsEarlyFailsAsTheWholeDecodeDoes() throws {
        let data = try Data(contentsOf: Self.kite)
        let cut = data.prefix(data.count / 2)
        let processor = try Self.processor(preview: 1600, thumbnail: 300)
        let job = try processor.inspect(Data(cut), folder: "x")
        let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: processor.settings)
        let streamedError = try #require(throws: ImagingError.self) { _ = try processor.streamLargest(job, recipe) }
        let wholeError = try #require(throws: ImagingError.self) { _ = try processor.decode(job) }
        #expect(streamedError.description == wholeError.description)
        #expect(streamedError.kind == .damaged && wholeError.kind == .damaged)
    }

    /// Damaged files, seeded byte changes as in `FormatFuzzTests`: whatever the whole decode gives
    /// (pixels and warnings, or an error), streaming gives too.
    @Test(arguments: ["formats/jpeg-extraneous.jpg", "formats/mpo-stereo.mpo"])
    func damagedFilesStreamAsTheyDecodeWhole(_ fixture: String) throws {
        let data = try Fixtures.data(fixture)
        let processor = try Self.processor(preview: 40, thumbnail: 20)
        var generator = FormatFuzzTests.Generator(state: UInt64(data.count))
        var compared = 0
        for round in 0..<300 {
            var bytes = [UInt8](data)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            guard let job = try? processor.inspect(Data(bytes), folder: "x") else { continue }
            let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: processor.settings)
            let whole = Result { try Self.wholeDecode(processor, job, recipe) }
            switch (whole, Result { try processor.streamLargest(job, recipe) }) {
            case (.success(let whole), .success(let streamed?)):
                #expect(
                    streamed.bitmap == whole.bitmap && streamed.warnings == whole.warnings,
                    "\(fixture) mutation \(round)")
                compared += 1
            case (.failure(let whole), .failure(let streamed)):
                #expect("\(streamed)" == "\(whole)", "\(fixture) mutation \(round)")
                compared += 1
            case (_, .success(nil)):
                continue  // no longer a JPEG that streams (its header now says CMYK, say)
            case (let whole, let streamed):
                Issue.record("\(fixture) mutation \(round): whole \(whole), streamed \(streamed)")
            }
        }
        #expect(compared > 100)
    }

    @Test func cmykAndUnreducedPhotosDecodeWhole() throws {
        let cmyk = try Self.streamed(try Fixtures.data("colour/cmyk.jpg"), preview: 4, thumbnail: 2).streamed
        let unreduced = try Self.streamed(
            try Fixtures.data("formats/jpeg-extraneous.jpg"), preview: 1600, thumbnail: 400
        ).streamed
        #expect(cmyk == nil && unreduced == nil)
    }
}
