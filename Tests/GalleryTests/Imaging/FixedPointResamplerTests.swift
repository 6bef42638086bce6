import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// The fixed-point `Resampler` against the Float resampler it replaced (`ReferenceResampler`).
@Suite("Fixed-point resampler")
struct FixedPointResamplerTests {
    /// A photo-like test card: smooth shading, fine noise, hard edges and a few saturated colours,
    /// from a fixed-seed generator so every run sees the same pixels.
    static func card(width: Int, height: Int, seed: UInt64 = 7) -> Bitmap {
        var state = seed
        func noise() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 59) - 16
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let u = Double(x) / Double(max(width - 1, 1))
                let v = Double(y) / Double(max(height - 1, 1))
                let edge = (x / 9 + y / 13) % 5 == 0 ? 180 : 0
                let base = [
                    Int(200 * u) + edge / 2, Int(230 * v) + (x % 7 == 0 ? 40 : 0),
                    Int(128 + 120 * sin(9 * u + 5 * v)) - edge / 3
                ]
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = UInt8(clamping: base[c] + noise()) }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The largest difference of any channel of any pixel.
    static func maxDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        precondition(a.size == b.size)
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var source: PixelSize, target: PixelSize, region: SourceRegion?
        var testDescription: String {
            "\(source.width)×\(source.height) → \(target.width)×\(target.height) \(region.map { "\($0)" } ?? "")"
        }
    }

    static let cases: [Case] = [
        Case(source: PixelSize(width: 640, height: 480), target: PixelSize(width: 300, height: 225), region: nil),
        Case(source: PixelSize(width: 1021, height: 449), target: PixelSize(width: 640, height: 281), region: nil),
        // A DCT-scaled decode whose last block is partial: the picture is a fraction of the bitmap.
        Case(
            source: PixelSize(width: 383, height: 269), target: PixelSize(width: 240, height: 168),
            region: SourceRegion(x: 0, y: 0, width: 382.875, height: 268.875)),
        Case(
            source: PixelSize(width: 400, height: 300), target: PixelSize(width: 97, height: 61),
            region: SourceRegion(x: 13.25, y: 7.5, width: 301.5, height: 190.125)),
        Case(source: PixelSize(width: 300, height: 200), target: PixelSize(width: 299, height: 199), region: nil),
        Case(source: PixelSize(width: 96, height: 2000), target: PixelSize(width: 24, height: 500), region: nil),
        Case(source: PixelSize(width: 1600, height: 1067), target: PixelSize(width: 24, height: 16), region: nil)
    ]

    @Test("within one step of the float reference, SSIM at least 0.995", arguments: cases, [false, true])
    func matchesTheFloatReference(_ test: Case, linearLight: Bool) {
        let source = Self.card(width: test.source.width, height: test.source.height)
        let fixed = Resampler.resize(source, to: test.target, region: test.region, linearLight: linearLight)
        let reference = Resampler.resizeFloat(source, to: test.target, region: test.region, linearLight: linearLight)
        let difference = Self.maxDifference(fixed, reference)
        #expect(difference <= 1, "largest difference \(difference)")
        let score = SSIM.luma(fixed, reference)
        #expect(score >= 0.995, "SSIM \(score)")
    }

    @Test("every flat colour stays exactly flat", arguments: [false, true])
    func flatColoursStayExactlyFlat(linearLight: Bool) {
        for value in 0...255 {
            let colour = [UInt8(value), UInt8(255 - value), UInt8((value * 7) % 256)]
            let flat = Bitmap(width: 41, height: 29, pixels: (0..<(41 * 29 * 3)).map { colour[$0 % 3] })
            for target in [
                PixelSize(width: 17, height: 13), PixelSize(width: 40, height: 3), PixelSize(width: 1, height: 1)
            ] {
                let small = Resampler.resize(
                    flat, to: target, region: SourceRegion(x: 0.4, y: 1.3, width: 39.1, height: 26.6),
                    linearLight: linearLight)
                #expect(
                    small.pixels.enumerated().allSatisfy { $0.element == colour[$0.offset % 3] },
                    "\(colour) → \(target) came out \(small.pixel(x: 0, y: 0))")
            }
        }
    }

    @Test func everyFilterSampleSumsToExactlyOne() {
        for (source, target, start, extent) in [
            (1000, 333, 0.0, 1000.0), (7, 3, 0.5, 5.9), (6000, 1, 0, 6000), (2, 1, 0, 2),
            (300, 299, 0, 300), (449, 281, 0, 448.875), (50, 50, 0.25, 49.5)
        ] {
            let table = FilterTable(source: source, target: target, start: start, extent: extent)
            for out in 0..<target {
                let pairs = table.pairs[(out * table.pairsPerSample)..<((out + 1) * table.pairsPerSample)]
                let sum = pairs.reduce(0) {
                    $0 + Int(Int16(truncatingIfNeeded: $1)) + Int(Int16(truncatingIfNeeded: $1 >> 16))
                }
                #expect(sum == FilterTable.one, "\(source) → \(target), sample \(out): \(sum)")
            }
        }
    }

    /// The horizontal and vertical passes read runs of taps in pairs that start on even samples;
    /// each run must weight every source sample as the table does, and stay inside the pixel
    /// past the edge (the passes keep that one, zeroed, and no further).
    @Test func evenPairedRunsWeightEverySampleAsTheTableDoes() {
        for (source, target, start, extent) in [
            (1000, 333, 0.0, 1000.0), (7, 3, 0.5, 5.9), (6000, 1, 0, 6000), (2, 1, 0, 2), (1, 1, 0, 1),
            (300, 299, 0, 300), (449, 281, 0, 448.875), (50, 50, 0.25, 49.5), (2737, 1600, 0.3, 2736.2)
        ] {
            let table = FilterTable(source: source, target: target, start: start, extent: extent)
            let even = EvenPairedTaps(table)
            func weights(_ pairs: ArraySlice<UInt32>, from first: Int) -> [Int: Int] {
                var byTap = [Int: Int]()
                for (index, pair) in pairs.enumerated() {
                    for (half, weight) in [Int16(truncatingIfNeeded: pair), Int16(truncatingIfNeeded: pair >> 16)]
                        .enumerated() where weight != 0
                    {
                        byTap[first + 2 * index + half] = Int(weight)
                    }
                }
                return byTap
            }
            for out in 0..<target {
                let slots = (out * table.pairsPerSample)..<((out + 1) * table.pairsPerSample)
                let evenStart = even.starts[out]
                #expect(evenStart % 2 == 0 && evenStart >= 0)
                #expect(evenStart + 2 * even.pairCounts[out] <= source + 1, "\(source) → \(target), sample \(out)")
                #expect(
                    weights(even.pairs[slots], from: evenStart) == weights(table.pairs[slots], from: table.starts[out]),
                    "\(source) → \(target), sample \(out)")
                #expect(
                    weights(even.pairs[slots.prefix(even.pairCounts[out])], from: evenStart).count
                        == weights(even.pairs[slots], from: evenStart).count)
            }
        }
    }
}
