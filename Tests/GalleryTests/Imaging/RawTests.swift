import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryPipeline
import GalleryProviders
import Testing

/// Camera raw files through LibRaw (Tests/Fixtures/raw, made by make-raw.py): a raw alone is developed
/// or published from its preview, a raw beside a photo of the same name is left out on purpose.
@Suite("Camera raw")
struct RawTests {
    static let red = [255, 28, 28], blue = [28, 28, 255], green = [0, 200, 0]

    /// Processes a fixture and decodes its largest derivative back to pixels.
    static func rendered(_ fixture: String, settings: ImageSettings? = nil) throws -> (
        image: ProcessedImage, pixels: Bitmap
    ) {
        let image = try ImageProcessor(settings: settings ?? .defaults()).process(
            try Fixtures.data("raw/\(fixture)"), folder: "x")
        let encoded = try #require(image.encoded.first).data
        let header = try JPEGCodec.header(encoded)
        return (image, try JPEGCodec.decode(encoded, header: header, size: header.size))
    }

    /// The colour at a fraction of the bitmap's width and height.
    static func expect(
        _ bitmap: Bitmap, at x: Double, _ y: Double, is colour: [Int], tolerance: Int = 40,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let pixel = bitmap.pixel(x: Int(Double(bitmap.width) * x), y: Int(Double(bitmap.height) * y))
        let distance = max(
            abs(Int(pixel.red) - colour[0]), abs(Int(pixel.green) - colour[1]), abs(Int(pixel.blue) - colour[2]))
        #expect(distance <= tolerance, "at \(x),\(y): \(pixel), expected \(colour)", sourceLocation: sourceLocation)
    }

    /// Settings whose largest derivative (120×80) the 150×100 preview covers.
    static func smallSizes(_ raw: RawPolicy = .preview) throws -> ImageSettings {
        var settings = try ImageSettings.defaults()
        settings.thumbnail = 40
        settings.preview = 120
        settings.widths = []
        settings.raw = raw
        return settings
    }

    @Test func aDNGIsSniffedByContentAndItsHeadersRead() throws {
        let facts = try ImageProcessor.facts(of: try Fixtures.data("raw/lone.dng"))
        #expect(facts.format == .raw && facts.size == PixelSize(width: 192, height: 128) && facts.preview == nil)
        #expect(facts.exif.camera.make == "galleryssg" && facts.exif.camera.model == "Test DNG")
        #expect(facts.exif.takenAt == "2024-06-01T12:34:56" && facts.exif.orientation == 1)
        // A TIFF that is a picture stays a TIFF: LibRaw is asked, and says no.
        #expect(try ImageProcessor.facts(of: try Fixtures.data("formats/tiff-rgb8.tif")).format == .tiff)
    }

    @Test func aRawWithoutPreviewIsDevelopedWithItsColours() throws {
        let (image, pixels) = try Self.rendered("lone.dng")
        #expect(image.format == .raw && image.displaySize == PixelSize(width: 192, height: 128))
        Self.expect(pixels, at: 0.25, 0.5, is: Self.red)
        Self.expect(pixels, at: 0.75, 0.5, is: Self.blue)
    }

    @Test func aPortraitRawIsTurnedByItsOrientation() throws {
        let facts = try ImageProcessor.facts(of: try Fixtures.data("raw/rotated.dng"))
        #expect(facts.exif.orientation == 6 && facts.size == PixelSize(width: 192, height: 128))
        let (image, pixels) = try Self.rendered("rotated.dng")
        #expect(image.displaySize == PixelSize(width: 128, height: 192))
        // A quarter turn clockwise: the scene's left (red) is now the top.
        Self.expect(pixels, at: 0.5, 0.25, is: Self.red)
        Self.expect(pixels, at: 0.5, 0.75, is: Self.blue)
    }

    @Test func thePreviewIsPublishedWhenItCoversTheLargestDerivative() throws {
        let facts = try ImageProcessor.facts(of: try Fixtures.data("raw/preview.dng"))
        #expect(facts.preview == PixelSize(width: 150, height: 100))
        let (image, pixels) = try Self.rendered("preview.dng", settings: try Self.smallSizes())
        #expect(
            image.displaySize == PixelSize(width: 192, height: 128)
                && image.plan.largest == PixelSize(width: 120, height: 80))
        Self.expect(pixels, at: 0.25, 0.5, is: Self.green)
        Self.expect(pixels, at: 0.75, 0.5, is: Self.green)
        // "develop" ignores the preview; with the default sizes (192 wide) the 150-wide preview is too small.
        for settings in [try Self.smallSizes(.develop), try ImageSettings.defaults()] {
            let developed = try Self.rendered("preview.dng", settings: settings).pixels
            Self.expect(developed, at: 0.25, 0.5, is: Self.red)
            Self.expect(developed, at: 0.75, 0.5, is: Self.blue)
        }
    }

    @Test func aJPEGPreviewIsDecodedAsCamerasWriteIt() throws {
        let facts = try ImageProcessor.facts(of: try Fixtures.data("raw/jpeg-preview.dng"))
        #expect(facts.preview == PixelSize(width: 240, height: 160))
        let (image, pixels) = try Self.rendered("jpeg-preview.dng")
        #expect(image.displaySize == PixelSize(width: 192, height: 128))
        Self.expect(pixels, at: 0.5, 0.5, is: Self.green, tolerance: 24)
    }

    @Test func previewAndDevelopmentHaveTheirOwnCacheKeys() throws {
        let data = try Fixtures.data("raw/preview.dng")
        let facts = try ImageProcessor.facts(of: data)
        let hash = Fixtures.key("preview.dng")
        func keys(_ policy: RawPolicy) throws -> DerivativeKeys {
            let processor = ImageProcessor(settings: try Self.smallSizes(policy))
            return processor.keys(contentHash: hash, facts: facts, layout: try processor.layout(facts, folder: "x"))
        }
        #expect(try keys(.preview).files.map(\.key) != keys(.develop).files.map(\.key))
        #expect(try keys(.preview) == keys(.preview))
    }

    @Test func skipRefusesARawNamedByAManifest() throws {
        let error = #expect(throws: ImagingError.self) {
            try Self.rendered("lone.dng", settings: try Self.smallSizes(.skip))
        }
        #expect(error?.kind == .rawSkipped)
    }

    @Test func aDamagedRawIsReportedNotCrashed() throws {
        let whole = try Fixtures.data("raw/lone.dng")
        for length in [16, 200, 4_000, whole.count - 20_000] {
            let error = #expect(throws: ImagingError.self) {
                try ImageProcessor(settings: .defaults()).process(whole.prefix(length), folder: "x")
            }
            #expect(error != nil, "\(length) bytes")
        }
        // Its header whole, its sensor data cut short: said in words, with LibRaw's own after them.
        let error = #expect(throws: ImagingError.self) {
            try ImageProcessor(settings: .defaults()).process(whole.prefix(3_000), folder: "x")
        }
        #expect(error?.kind == .damaged)
        #expect(
            error?.description
                == "camera raw: LibRaw failed unpacking the sensor data: the file ends early or is damaged; "
                + "copy it from the card again (Input/output error)")
    }

    @Test func aRawBesideItsPhotoIsIgnoredAndALoneRawPublished() async throws {
        let root = try Fixtures.temporaryFolder()
        let raw = try Fixtures.data("raw/lone.dng")
        try raw.write(to: root.appendingPathComponent("IMG_0042.CR2"))  // named as a camera names it
        try Fixtures.data("images/photo-1.jpg").write(to: root.appendingPathComponent("IMG_0042.jpg"))
        try raw.write(to: root.appendingPathComponent("lone.dng"))
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(manifest.photos.map(\.fallbackTitle) == ["IMG 0042", "lone"])
        #expect(manifest.ignored.map(\.path) == ["IMG_0042.CR2"])
        #expect(manifest.ignored.first?.reason == .rawBesideItsPhoto("IMG_0042.jpg"))
        #expect(manifest.issues.isEmpty)

        let skipped = try await FolderProvider(folder: root, raw: .skip).fetchManifest()
        #expect(skipped.photos.count == 1 && skipped.ignored.map(\.path) == ["IMG_0042.CR2", "lone.dng"])
        #expect(skipped.ignored.last?.reason == .rawSkipped)
    }

    @Test func theConfigNamesThePolicy() throws {
        func parse(_ images: String) throws -> SiteConfig {
            try SiteConfig.parse(
                Data(#"{"source": {"type": "folder", "path": "photos"}, "images": \#(images)}"#.utf8),
                file: Fixtures.url("site-config.json"), environment: [:])
        }
        #expect(try parse("{}").images.raw == .preview)
        #expect(try parse(#"{"raw": "develop"}"#).images.raw == .develop)
        let error = #expect(throws: ConfigError.self) { try parse(#"{"raw": "jpeg"}"#) }
        #expect(error?.description.contains("images.raw") == true && error?.description.contains("\"develop\"") == true)
    }
}

/// A folder of raws built twice: what the first build learnt of each raw (its preview's size
/// included) is in the state, so the second build plans the same files and makes none.
@Suite("Camera raw builds")
struct RawBuildTests {
    @Test func aFolderOfRawsBuildsThenRebuildsWithoutWork() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for (fixture, name) in [
            ("raw/lone.dng", "IMG_0001.DNG"), ("raw/lone.dng", "IMG_0002.dng"), ("raw/preview.dng", "preview.dng"),
            ("raw/jpeg-preview.dng", "IMG_0003.NEF"), ("images/photo-1.jpg", "IMG_0002.jpg")
        ] {
            try Fixtures.data(fixture).write(to: photos.appendingPathComponent(name))
        }
        let config: [String: Any] = [
            "title": "Raws", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 40, "preview": 120, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        func build() async throws -> BuildReport {
            let loaded = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
            return try await Build(config: loaded, options: BuildOptions(jobs: 2)).run()
        }
        let first = try await build()
        #expect(first.photosPublished == 4 && first.failures.isEmpty, "\(first.failures)")
        #expect(first.ignored.map(\.path) == ["IMG_0002.dng"] && first.ignoredSummary == "1 raw beside its photo")
        #expect(first.derivativesMade > 0)
        let output = folder.appendingPathComponent("public")
        #expect(
            FileManager.default.fileExists(atPath: output.appendingPathComponent("photos/img-0003/index.html").path))
        // The raw itself is not published, not even as the "Full size" original.
        let published = FileManager.default.enumerator(atPath: output.path)?.compactMap { $0 as? String } ?? []
        #expect(
            !published.contains {
                $0.lowercased().hasSuffix(".dng") || $0.lowercased().hasSuffix(".nef") || $0.hasSuffix(".raw")
            })

        let second = try await build()
        #expect(second.photosUnchanged == 4 && second.derivativesMade == 0, "\(second.derivativesMade) made")
    }
}
