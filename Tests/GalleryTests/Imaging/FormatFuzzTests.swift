import Foundation
import GalleryImaging
import Testing

/// Hostile input for every decoder: truncations, zeros, headers that claim huge pictures and
/// seeded random byte changes must all end in an `ImagingError` (or a picture), never a crash.
@Suite("Format fuzzing")
struct FormatFuzzTests {
    static let fixtures = [
        "heic-exif6.heic", "heic-alpha.heic", "avif-irot.avif", "webp-lossy.webp", "webp-alpha.webp", "tiff-rgb8.tif",
        "tiff-grey16.tif", "gif-animated.gif", "png-metadata.png", "mpo-stereo.mpo", "jpeg-extraneous.jpg"
    ]

    /// SplitMix64, so that every run tries the same mutations and a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    /// Processes `data` and says whether it failed; any error other than `ImagingError` fails the test.
    @discardableResult
    static func survives(_ data: Data, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        do {
            _ = try ImageProcessor(settings: .defaults()).process(data, folder: "x")
            return true
        } catch is ImagingError {
            return false
        } catch {
            Issue.record("\(label): \(error) is not an ImagingError", sourceLocation: sourceLocation)
            return false
        }
    }

    @Test(arguments: fixtures)
    func truncatedAndZeroed(_ fixture: String) throws {
        let data = try Fixtures.data("formats/\(fixture)")
        let lengths = [
            0, 1, 2, 4, 8, 12, 16, 24, 32, 64, data.count / 4, data.count / 2, data.count * 3 / 4, data.count - 1
        ]
        for length in Set(lengths) where length < data.count {
            Self.survives(data.prefix(length), "\(fixture) cut to \(length)")
        }
        #expect(!Self.survives(Data(count: data.count), "\(fixture) zeroed"))
        // The signature kept, everything after it zeroed.
        Self.survives(data.prefix(16) + Data(count: data.count - 16), "\(fixture) zeroed after 16 bytes")
    }

    @Test(arguments: fixtures)
    func randomMutations(_ fixture: String) throws {
        let data = try Fixtures.data("formats/\(fixture)")
        var generator = Generator(state: UInt64(fixture.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
        for round in 0..<300 {
            var bytes = [UInt8](data)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            Self.survives(Data(bytes), "\(fixture) mutation \(round)")
        }
    }

    /// Each format's header claiming a picture far over `images.maxPixels` is refused from the
    /// header alone: decoding it would need gigabytes.
    @Test func hugeDimensionHeadersAreRefusedBeforeDecoding() throws {
        var bombs: [(String, Data)] = []
        var gif = [UInt8](try Fixtures.data("formats/gif-animated.gif"))
        gif.replaceSubrange(6..<10, with: [0xff, 0xff, 0xff, 0xff])  // logical screen 65535×65535
        bombs.append(("gif", Data(gif)))
        bombs.append(("tiff", Self.tiff(width: 100_000, height: 100_000)))
        bombs.append(("webp", Self.webpLossless(width: 16384, height: 16384)))
        // The HEIC fixture is not patched: its clean-aperture box crops to 64×48 whatever `ispe` claims.
        var avif = [UInt8](try Fixtures.data("formats/avif-irot.avif"))
        let ispe = try #require(avif.indices.dropLast(16).first { Array(avif[$0..<($0 + 4)]) == Array("ispe".utf8) })
        avif.replaceSubrange((ispe + 8)..<(ispe + 16), with: [0, 0, 0x4e, 0x20, 0, 0, 0x4e, 0x20])  // 20000×20000
        bombs.append(("avif", Data(avif)))
        for (name, data) in bombs {
            let facts = try ImageProcessor.facts(of: data)
            #expect(facts.size.pixelCount > 100_000_000, "\(name): \(facts.size)")
            #expect(throws: ImagingError.tooManyPixels(facts.size, limit: 100_000_000), "\(name)") {
                try ImageProcessor(settings: .defaults()).inspect(data, folder: "x")
            }
        }
    }

    /// A little-endian grey TIFF header of the given size whose single strip holds 16 bytes.
    static func tiff(width: UInt32, height: UInt32) -> Data {
        func short(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        func long(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let entries: [(UInt16, UInt16, UInt32)] = [
            (256, 4, width), (257, 4, height), (258, 3, 8), (259, 3, 1), (262, 3, 1),
            (273, 4, 8 + 2 + 9 * 12 + 4), (277, 3, 1), (278, 4, height), (279, 4, 16)
        ]
        var bytes: [UInt8] = Array("II".utf8) + short(42) + long(8) + short(UInt16(entries.count))
        for (tag, type, value) in entries {
            bytes += short(tag) + short(type) + long(1) + (type == 3 ? short(UInt16(value)) + short(0) : long(value))
        }
        return Data(bytes + long(0) + [UInt8](repeating: 0x80, count: 16))
    }

    /// A lossless WebP whose VP8L header claims the given size, followed by junk instead of pixels.
    static func webpLossless(width: UInt32, height: UInt32) -> Data {
        let bits = (width - 1) | (height - 1) << 14
        let payload: [UInt8] =
            [0x2f] + withUnsafeBytes(of: bits.littleEndian, Array.init) + [UInt8](repeating: 0, count: 27)
        func long(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        let chunk = Array("VP8L".utf8) + long(payload.count) + payload
        return Data(Array("RIFF".utf8) + long(4 + chunk.count) + Array("WEBP".utf8) + chunk)
    }
}
