import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryRender
import Testing

@Suite("Colour, privacy and safety")
struct ColourAndPrivacyTests {
    let processor: ImageProcessor

    init() throws {
        processor = ImageProcessor(settings: try .defaults())
    }

    struct Expected: Decodable {
        struct Entry: Decodable {
            var stored: [[Int]]?
            var srgb: [[Int]]
        }
        var adobe: Entry
        var cmyk: Entry
        var prophoto: Entry
        enum CodingKeys: String, CodingKey {
            case adobe = "adobe-rgb.jpg"
            case cmyk = "cmyk.jpg"
            case prophoto = "prophoto.png"
        }
    }

    /// colour/expected.json, read per test so a missing or bad file fails those tests, not the run.
    static func expected() throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Fixtures.data("colour/expected.json"))
    }

    /// The largest derivative of a fixture, decoded back to pixels.
    func output(_ fixture: String) throws -> Bitmap {
        let image = try processor.process(try Fixtures.data(fixture), folder: "x")
        let header = try JPEGCodec.header(image.encoded[0].data)
        return try JPEGCodec.decode(image.encoded[0].data, header: header, size: header.size)
    }

    func distance(_ pixel: (red: UInt8, green: UInt8, blue: UInt8), _ rgb: [Int]) -> Int {
        max(abs(Int(pixel.red) - rgb[0]), abs(Int(pixel.green) - rgb[1]), abs(Int(pixel.blue) - rgb[2]))
    }

    /// Checks both colour patches of a fixture against the sRGB values LittleCMS gives them.
    func expectConverted(_ fixture: String, _ expected: Expected.Entry) throws {
        let bitmap = try output(fixture)
        for (index, x) in [8, 48].enumerated() {
            let pixel = bitmap.pixel(x: x, y: 16)
            #expect(
                distance(pixel, expected.srgb[index]) <= 6,
                "\(fixture) patch \(index): \(pixel) vs \(expected.srgb[index])")
            // The conversion matters: the stored numbers shown as sRGB would be visibly off.
            #expect(distance(pixel, try #require(expected.stored)[index]) > 12)
        }
    }

    @Test func adobeRGBIsConvertedToSRGB() throws {
        try expectConverted("colour/adobe-rgb.jpg", Self.expected().adobe)
    }

    @Test func proPhotoPNGIsConvertedToSRGB() throws {
        let profile = try #require(ICCProfile.fromPNG(try Fixtures.data("colour/prophoto.png")))
        #expect(String(decoding: profile.data[36..<40], as: UTF8.self) == "acsp")
        #expect(ICCProfile.fromPNG(try Fixtures.data("images/half-transparent.png")) == nil)
        try expectConverted("colour/prophoto.png", Self.expected().prophoto)
    }

    @Test func cmykComesOutLikeLittleCMSReadsIt() throws {
        let bitmap = try output("colour/cmyk.jpg")
        let cmyk = try Self.expected().cmyk
        for (index, x) in [8, 48].enumerated() {
            let pixel = bitmap.pixel(x: x, y: 16)
            #expect(distance(pixel, cmyk.srgb[index]) <= 12, "patch \(index): \(pixel) vs \(cmyk.srgb[index])")
        }
    }

    @Test func profileIsFoundInTheJPEGMarkers() throws {
        let profile = try #require(ICCProfile.fromJPEG(try Fixtures.data("colour/adobe-rgb.jpg")))
        #expect(profile.data.count > 300)
        #expect(String(decoding: profile.data[36..<40], as: UTF8.self) == "acsp")  // ICC header signature
        #expect(ICCProfile.fromJPEG(try Fixtures.data("images/photo-1.jpg")) == nil)
    }

    @Test func derivativesCarryNoGPSOrOtherMetadata() throws {
        let data = try Fixtures.data("images/gps.jpg")
        let location = try #require(ExifReader.read(jpeg: data).location)
        #expect(abs(location.latitude - 51.227778) < 0.0001)
        #expect(abs(location.longitude - -0.1275) < 0.0001)
        let image = try processor.process(data, folder: "x")
        #expect(image.exif.location == location)
        for (_, derivative) in image.encoded {
            #expect(derivative.range(of: Data("Exif".utf8)) == nil)
            #expect(derivative.range(of: Data("TestCam".utf8)) == nil)
            #expect(ExifReader.read(jpeg: derivative).location == nil)
        }
        #expect(image.placeholder.hasPrefix("data:image/jpeg;base64,"))
        #expect(image.placeholder.count < 1500)
    }

    @Test func locationIsShownOnlyWhenEnabled() async throws {
        let entries: [[String: Any]] = [["id": "gps", "title": "Somewhere", "image": "photos/gps.jpg"]]
        for show in [false, true] {
            let site = try FixtureSite.make(
                entries: entries, config: ["images": ["thumbnail": 64, "preview": 96, "showLocation": show]])
            _ = try await site.build()
            let page = try site.read("photos/gps/index.html")
            #expect(page.contains("51.22778° N, 0.12750° W") == show)
            #expect(page.contains("openstreetmap.org") == show)
        }
    }

    @Test func decompressionBombsAreRejectedFromTheHeader() throws {
        // A real JPEG whose frame header claims 65,000 × 65,000 pixels (4.2 gigapixels).
        var jpeg = [UInt8](try Fixtures.data("images/photo-1.jpg"))
        let sof = try #require(
            (0..<(jpeg.count - 9)).first { jpeg[$0] == 0xff && (jpeg[$0 + 1] == 0xc0 || jpeg[$0 + 1] == 0xc2) })
        jpeg[sof + 5] = 0xfd
        jpeg[sof + 6] = 0xe8
        jpeg[sof + 7] = 0xfd
        jpeg[sof + 8] = 0xe8
        let started = ContinuousClock.now
        do {
            _ = try processor.process(Data(jpeg), folder: "x")
            Issue.record("a 4.2-gigapixel header was accepted")
        } catch let error as ImagingError {
            #expect(error == ImagingError.tooManyPixels(PixelSize(width: 65000, height: 65000), limit: 100_000_000))
            #expect(error.kind == .overLimit)
        }
        #expect(started.secondsElapsed < 0.5)  // refused from the header, nothing decoded
    }

    @Test func arithmeticCodedJPEGDecodes() throws {
        // Debian's libjpeg-turbo is built with arithmetic decoding, so these are handled, not rejected.
        let image = try processor.process(try Fixtures.data("images/arithmetic.jpg"), folder: "x")
        #expect(image.displaySize == PixelSize(width: 160, height: 100))
        let header = try JPEGCodec.header(image.encoded[0].data)
        let bitmap = try JPEGCodec.decode(image.encoded[0].data, header: header, size: header.size)
        #expect(distance(bitmap.pixel(x: 20, y: 20), [200, 80, 40]) <= 12)
    }

    @Test("the DCT-scaled shortcut matches a full decode", arguments: [300, 240, 160])
    func previewShortcutMatchesAFullDecode(width: Int) throws {
        // A sharp 1021 × 717 photo decoded at 5/8, 4/8 and 3/8: 717 rows become 448.125, 358.5 and
        // 268.875, so each decode ends in a partial block, which shifts the picture by up to half a
        // pixel unless the resize maps the exact content.
        let data = try Fixtures.data("scaling/path-crop.jpg")
        let header = try JPEGCodec.header(data)
        let target = header.size.fitting(width: width)
        let scaling = JPEGCodec.scaling(of: header.size, atLeast: target)
        #expect(scaling.size.width < header.size.width && Double(scaling.size.height) != scaling.content.height)
        let decoded = try JPEGCodec.decode(data, header: header, size: scaling.size)
        let shortcut = Resampler.resize(decoded, to: target, region: scaling.content, linearLight: true)
        let reference = Resampler.resize(
            try JPEGCodec.decode(data, header: header, size: header.size), to: target, linearLight: true)
        let score = SSIM.luma(shortcut, reference)
        #expect(score >= 0.985, "SSIM \(score)")
        // Without the region, the same shortcut scores measurably lower: the half pixel is real.
        let misaligned = SSIM.luma(Resampler.resize(decoded, to: target, linearLight: true), reference)
        #expect(misaligned < score, "aligned \(score), misaligned \(misaligned)")
    }
}

/// Mean SSIM (Wang et al. 2004) over 8×8 windows of luma, with the paper's constants.
enum SSIM {
    static func luma(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        func y(_ bitmap: Bitmap, _ x: Int, _ row: Int) -> Double {
            let p = bitmap.pixel(x: x, y: row)
            return 0.299 * Double(p.red) + 0.587 * Double(p.green) + 0.114 * Double(p.blue)
        }
        let c1: Double = (0.01 * 255) * (0.01 * 255)
        let c2: Double = (0.03 * 255) * (0.03 * 255)
        var total = 0.0
        var windows = 0
        for top in stride(from: 0, to: a.height - 7, by: 8) {
            for left in stride(from: 0, to: a.width - 7, by: 8) {
                var sa = 0.0
                var sb = 0.0
                var saa = 0.0
                var sbb = 0.0
                var sab = 0.0
                for row in top..<(top + 8) {
                    for x in left..<(left + 8) {
                        let va = y(a, x, row)
                        let vb = y(b, x, row)
                        sa += va
                        sb += vb
                        saa += va * va
                        sbb += vb * vb
                        sab += va * vb
                    }
                }
                let n = 64.0
                let ma = sa / n
                let mb = sb / n
                let va = saa / n - ma * ma
                let vb = sbb / n - mb * mb
                let cov = sab / n - ma * mb
                total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (va + vb + c2))
                windows += 1
            }
        }
        return total / Double(windows)
    }
}
