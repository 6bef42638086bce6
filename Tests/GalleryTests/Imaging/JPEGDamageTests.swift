import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import Testing

/// What a damaged JPEG comes to is decided by how far its picture got (`JPEGRows`): an error after
/// the last row leaves the picture whole and is reported like a warning; one before it throws,
/// whatever warnings came first.
@Suite struct JPEGDamageTests {
    static func render(_ data: Data, preview: Int = 1600) throws -> ProcessedImage {
        var settings = try ImageSettings.defaults()
        settings.preview = preview
        settings.thumbnail = min(preview / 2, 400)
        settings.widths = []
        return try ImageProcessor(settings: settings).process(data, folder: "x")
    }

    /// Found by `StreamingDecodeTests`' seeded mutations: one byte of the Huffman table's counts, in a
    /// file that already warned of extraneous bytes. TurboJPEG reported the fatal error with a
    /// warning's code once a warning had come, and the photo was published black.
    @Test func aFatalErrorAfterAWarningStillStopsThePhoto() throws {
        var bytes = [UInt8](try Fixtures.data("formats/jpeg-extraneous.jpg"))
        #expect(bytes[428] == 0x09)
        bytes[428] = 0xDE
        for preview in [64, 1600] {  // made as it decodes, and from the whole decode
            let error = try #require(throws: ImagingError.self) { try Self.render(Data(bytes), preview: preview) }
            #expect(error.kind == .damaged, "\(error)")
        }
    }

    /// The end-of-image marker overwritten: every row decodes, then libjpeg meets an unknown marker.
    @Test func junkAfterTheLastRowLeavesTheWholePictureWithAWarning() throws {
        let clean = try Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/photos/Kite.jpg"))
        var bytes = [UInt8](clean)
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        bytes[bytes.count - 1] = 0x10
        for preview in [600, 2048] {  // made as it decodes, and from the whole decode
            let damaged = try Self.render(Data(bytes), preview: preview)
            #expect(damaged.warnings == ["JPEG: Unsupported marker type 0x10 (decoded as browsers show it)"])
            let expected = try Self.render(clean, preview: preview)
            #expect(damaged.encoded.map(\.data) == expected.encoded.map(\.data))
            #expect(expected.warnings.isEmpty)
        }
    }
}
