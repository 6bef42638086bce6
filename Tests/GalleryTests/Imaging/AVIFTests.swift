import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryOutput
import GalleryServe
import Hummingbird
import HummingbirdTesting
import Testing

/// AVIF derivatives (`images.avif`): libheif's AV1 encoder, how they look, that they are the same
/// bytes every time and carry nothing but pixels, and how pages offer them.
@Suite("AVIF derivatives")
struct AVIFTests {
    func settings(avif: Bool = true) throws -> ImageSettings {
        var settings = try ImageSettings.defaults()
        settings.avif = avif
        return settings
    }

    @Test func twinsHaveEveryDerivativeSizeAndLookLikeTheJPEG() throws {
        let image = try ImageProcessor(settings: try settings()).process(
            try Fixtures.data("images/photo-2.jpg"), folder: "photos/a")
        #expect(image.avif.count == image.encoded.count && !image.avif.isEmpty)
        let jpegs = Dictionary(uniqueKeysWithValues: image.encoded.map { ($0.derivative, $0.data) })
        for (derivative, data) in image.avif {
            #expect(derivative.avifPath.hasPrefix("photos/a/") && derivative.avifPath.hasSuffix(".avif"))
            #expect(data.count > 12 && data[4..<12] == Data("ftypavif".utf8), "\(derivative.avifPath)")
            let header = try HEIFCodec.header(data)
            #expect(header.size == derivative.size)
            // Decoded, it is as close to the JPEG's source pixels as the JPEG is (the quality mapping
            // aims at equal SSIM), and close in absolute terms.
            let decoded = try HEIFCodec.decode(data, background: RGB(red: 255, green: 255, blue: 255), decoder: "aom")
            let jpeg = try #require(jpegs[derivative])
            let jpegBitmap = try JPEGCodec.decode(jpeg, header: try JPEGCodec.header(jpeg), size: derivative.size)
            #expect(decoded.width == derivative.size.width && decoded.height == derivative.size.height)
            let agreement = SSIM.luma(decoded, jpegBitmap)
            #expect(agreement > 0.9, "\(derivative.avifPath): SSIM \(agreement) against the JPEG")
        }
        // Off by default: no AVIF work at all.
        #expect(
            try ImageProcessor(settings: .defaults()).process(try Fixtures.data("images/photo-2.jpg"), folder: "a").avif
                .isEmpty)
    }

    @Test func roundTripKeepsSizeAndLooksLikeTheSource() throws {
        // A smooth gradient with a hard-edged square: detail that lossy coding blurs if quality is too low.
        let width = 96
        let height = 64
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = (30..<60).contains(x) && (20..<44).contains(y)
                let base = (y * width + x) * 3
                pixels[base] = inSquare ? 230 : UInt8(x * 255 / width)
                pixels[base + 1] = inSquare ? 40 : UInt8(y * 255 / height)
                pixels[base + 2] = UInt8((x + y) * 255 / (width + height))
            }
        }
        let source = Bitmap(width: width, height: height, pixels: pixels)
        let quality = HEIFCodec.avifQuality(forJPEG: SiteConfig.Defaults.quality)
        let data = try HEIFCodec.encodeAVIF(source, quality: quality)
        let decoded = try HEIFCodec.decode(data, background: RGB(red: 0, green: 0, blue: 0), decoder: "aom")
        #expect(decoded.width == width && decoded.height == height)
        let score = SSIM.luma(decoded, source)
        #expect(score > 0.95, "SSIM \(score)")
        // A far lower quality is measurably worse: the quality reaches the encoder.
        let poor = try HEIFCodec.decode(
            try HEIFCodec.encodeAVIF(source, quality: 5), background: RGB(red: 0, green: 0, blue: 0))
        #expect(SSIM.luma(poor, source) < score)
    }

    @Test func twoEncodesAreByteIdentical() async throws {
        let data = try Fixtures.data("images/photo-3.jpg")
        let processor = ImageProcessor(settings: try settings())
        let first = try processor.process(data, folder: "a").avif.map(\.data)
        // The second time from other threads at once, as a build does.
        let again = try await withThrowingTaskGroup(of: [Data].self) { group in
            for _ in 0..<3 { group.addTask { try processor.process(data, folder: "a").avif.map(\.data) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(!first.isEmpty)
        for other in again { #expect(other == first) }
    }

    @Test func avifCarriesNoLocationOrOtherMetadata() throws {
        let data = try Fixtures.data("images/gps.jpg")
        let image = try ImageProcessor(settings: try settings()).process(data, folder: "x")
        #expect(image.exif.location != nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("avif-metadata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (derivative, bytes) in image.avif {
            #expect(bytes.range(of: Data("Exif".utf8)) == nil && bytes.range(of: Data("TestCam".utf8)) == nil)
            let header = try HEIFCodec.header(bytes)
            #expect(header.metadata.exif == nil && header.metadata.xmp == nil && header.iccProfile == nil)
            let file = folder.appendingPathComponent("\(derivative.size.width).avif")
            try bytes.write(to: file)
            guard let tags = try Exiftool.tags(of: file) else { continue }
            #expect(!tags.contains { $0.hasPrefix("[GPS]") || $0.contains("GPS") || $0.contains("Make") }, "\(tags)")
            // sRGB said the AV1 way (nclx), 4:2:0, as the JPEG and WebP twins imply by carrying no profile.
            #expect(tags.contains { $0.contains("ColorPrimaries") && $0.contains("BT.709") }, "\(tags)")
            #expect(tags.contains { $0.contains("TransferCharacteristics") && $0.contains("sRGB") }, "\(tags)")
            #expect(tags.contains { $0.contains("ChromaFormat") && $0.contains("4:2:0") }, "\(tags)")
        }
    }

    @Test func previewServerAndDeploySayImageAVIF() async throws {
        let served = try await ServeTests.ServedSite.make()
        let image = try ImageProcessor(settings: try settings()).process(
            try Fixtures.data("images/photo-1.jpg"), folder: "photos/one")
        let avif = try #require(image.avif.first)
        try avif.data.write(to: served.output.appendingPathComponent(avif.derivative.avifPath))
        try await served.test { client in
            for headers: HTTPFields in [[:], [.range: "bytes=0-99"]] {
                try await client.execute(uri: "/" + avif.derivative.avifPath, method: .get, headers: headers) {
                    response in
                    #expect(response.status == .ok || response.status == .partialContent)
                    #expect(response.headers[.contentType] == "image/avif", "\(headers)")
                }
            }
        }
        #expect(
            SiteMiddleware<BasicRequestContext>.mediaType(URL(fileURLWithPath: "/site/photos/a/800x500.avif"))
                == "image/avif")
        #expect(
            SiteMiddleware<BasicRequestContext>.mediaType(URL(fileURLWithPath: "/site/photos/a/800x500.webp"))
                == "image/webp")
        #expect(LocalSite.contentType("photos/a/800x500.avif") == "image/avif")
    }
}
