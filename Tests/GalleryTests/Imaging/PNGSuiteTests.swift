import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import Testing

/// PngSuite (Willem van Schaik): every valid file decodes at its size; every `x*` file is rejected.
@Suite("PngSuite")
struct PNGSuiteTests {
    static let folder = Fixtures.url("pngsuite")
    static let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".png") }.sorted()
    static let valid = files.filter { !$0.hasPrefix("x") }
    static let corrupt = files.filter { $0.hasPrefix("x") }

    /// Sizes per the suite's naming: `sNN…` files are NN×NN, a few chunk-order files differ, the rest are 32×32.
    static func expectedSize(_ name: String) -> PixelSize {
        let exceptions = [
            "cdfn2c08.png": PixelSize(width: 8, height: 32), "cdhn2c08.png": PixelSize(width: 32, height: 8),
            "cdsn2c08.png": PixelSize(width: 8, height: 8)
        ]
        if let size = exceptions[name] { return size }
        if name.hasPrefix("s"), let side = Int(name.dropFirst().prefix(2)) {
            return PixelSize(width: side, height: side)
        }
        return PixelSize(width: 32, height: 32)
    }

    @Test func suiteIsComplete() {
        #expect(Self.valid.count == 161)
        #expect(Self.corrupt.count == 14)
    }

    @Test("valid files decode at their size", arguments: valid)
    func validFileDecodes(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let bitmap = try PNGCodec.decode(data, background: RGB(red: 255, green: 255, blue: 255))
        let size = PixelSize(width: bitmap.width, height: bitmap.height)
        #expect(size == Self.expectedSize(name))
        let image = try ImageProcessor(settings: .defaults()).process(data, folder: "p")
        #expect(image.displaySize == size)
        #expect(!image.encoded.isEmpty)
    }

    @Test("corrupt files are rejected with a reason", arguments: corrupt)
    func corruptFileIsRejected(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        do {
            _ = try ImageProcessor(settings: .defaults()).process(data, folder: "p")
            Issue.record("\(name) was accepted")
        } catch let error as ImagingError {
            #expect(error.description.count > 10)
            // libpng's reason, or, for a damaged signature, what the file is.
            #expect([.damaged, .notAnImage].contains(error.kind), "\(error)")
        }
    }
}
