import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// Gradients and the shapes at the edges of what the fixed-point `Resampler` takes.
@Suite("Fixed-point resampler edges")
struct FixedPointResamplerEdgeTests {
    /// A ramp from `low` to `high` (bytes) along `length` pixels, rounded from 16-bit values, so
    /// neighbouring pixels differ by at most one: any larger step in a reduction of it is banding.
    static func ramp(length: Int, across: Int, low: Int, high: Int, vertical: Bool) -> Bitmap {
        let width = vertical ? across : length
        let height = vertical ? length : across
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let t = vertical ? y : x
                let sixteen = (low * 257 * (length - 1 - t) + high * 257 * t) / (length - 1)
                let byte = UInt8((Double(sixteen) / 257).rounded())
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = byte }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test(
        "a reduced 16-bit gradient is monotonic, with no step over one", arguments: [false, true],
        [(0, 255), (0, 24), (200, 255)])
    func gradientsDoNotBand(linearLight: Bool, range: (Int, Int)) {
        for vertical in [false, true] {
            let source = Self.ramp(length: 3001, across: 9, low: range.0, high: range.1, vertical: vertical)
            let target = vertical ? PixelSize(width: 3, height: 787) : PixelSize(width: 787, height: 3)
            let small = Resampler.resize(source, to: target, linearLight: linearLight)
            for line in 0..<3 {
                // The first and last samples lean on the folded edge; the ramp is judged inside them.
                let values = (0..<787).map {
                    Int(vertical ? small.pixel(x: line, y: $0).green : small.pixel(x: $0, y: line).green)
                }
                let steps = zip(values.dropFirst(), values).map { $0 - $1 }
                #expect(
                    steps.allSatisfy { (0...1).contains($0) },
                    "steps \(Set(steps).sorted()) along \(vertical ? "a column" : "a row")")
                #expect(
                    abs(values.first! - range.0) <= 1 && abs(values.last! - range.1) <= 1,
                    "ends \(values.first!), \(values.last!)")
            }
        }
    }

    @Test(
        "thin, tiny and extreme reductions match the float reference",
        arguments: [
            (PixelSize(width: 1, height: 500), PixelSize(width: 1, height: 37)),
            (PixelSize(width: 500, height: 1), PixelSize(width: 37, height: 1)),
            (PixelSize(width: 2, height: 2), PixelSize(width: 1, height: 1)),
            (PixelSize(width: 3, height: 1), PixelSize(width: 1, height: 1)),
            (PixelSize(width: 6000, height: 3), PixelSize(width: 1, height: 1)),
            (PixelSize(width: 6000, height: 2), PixelSize(width: 5, height: 1)),
            (PixelSize(width: 2, height: 6000), PixelSize(width: 1, height: 3)),
            (PixelSize(width: 23, height: 17), PixelSize(width: 9, height: 16))
        ])
    func edgeShapes(source: PixelSize, target: PixelSize) {
        let bitmap = FixedPointResamplerTests.card(width: source.width, height: source.height, seed: 11)
        for linearLight in [false, true] {
            let fixed = Resampler.resize(bitmap, to: target, linearLight: linearLight)
            let reference = Resampler.resizeFloat(bitmap, to: target, linearLight: linearLight)
            #expect(fixed.size == target)
            let difference = FixedPointResamplerTests.maxDifference(fixed, reference)
            #expect(difference <= 1, "linear light \(linearLight): largest difference \(difference)")
        }
    }

    @Test func aRegionOffsetMovesThePicture() {
        // A white column at x = 20 of a black 64 × 8 picture; the region starting at x = 16 puts it
        // at output x = 4 (scale 1), where the whole bitmap would put it at 20.
        var pixels = [UInt8](repeating: 0, count: 64 * 8 * 3)
        for y in 0..<8 { for c in 0..<3 { pixels[(y * 64 + 20) * 3 + c] = 255 } }
        let source = Bitmap(width: 64, height: 8, pixels: pixels)
        let shifted = Resampler.resize(
            source, to: PixelSize(width: 32, height: 8),
            region: SourceRegion(x: 16, y: 0, width: 32, height: 8))
        let row = (0..<32).map { Int(shifted.pixel(x: $0, y: 3).red) }
        #expect(row.firstIndex(of: row.max()!) == 4 && row[4] == 255, "\(row)")
        let reference = Resampler.resizeFloat(
            source, to: PixelSize(width: 32, height: 8),
            region: SourceRegion(x: 16, y: 0, width: 32, height: 8))
        #expect(FixedPointResamplerTests.maxDifference(shifted, reference) <= 1)
    }
}

/// Where Q14 weights stop being fine enough: the reason `Resampler.floatBeyond` exists.
@Suite("Fixed-point resampler reach")
struct FixedPointReachTests {
    /// The largest difference from the Float path, over rows and columns and both curves, of
    /// reducing 6000 samples `scale` times in fixed point.
    static func worstDifference(scale: Int) -> Int {
        var worst = 0
        for (source, target) in [
            (PixelSize(width: 6000, height: 2), PixelSize(width: 6000 / scale, height: 1)),
            (PixelSize(width: 2, height: 6000), PixelSize(width: 1, height: 6000 / scale))
        ] {
            let bitmap = FixedPointResamplerTests.card(width: source.width, height: source.height, seed: 11)
            let region = SourceRegion(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
            for linearLight in [false, true] {
                let fixed = Resampler.resizeFixed(bitmap, to: target, region: region, linearLight: linearLight)
                let float = Resampler.resizeFloat(bitmap, to: target, linearLight: linearLight)
                worst = max(worst, FixedPointResamplerTests.maxDifference(fixed, float))
            }
        }
        return worst
    }

    @Test("fixed point holds to the float path well past floatBeyond", arguments: [16, 64, 300])
    func fixedPointHolds(scale: Int) {
        #expect(Self.worstDifference(scale: scale) <= 1)
    }

    @Test func theFloatPathIsStillNeededForExtremeReductions() {
        // 2026-11-26: 5 levels at 1200×. If fixed point ever holds here, resizeFloat can go.
        #expect(Self.worstDifference(scale: 1200) > 1)
    }
}
