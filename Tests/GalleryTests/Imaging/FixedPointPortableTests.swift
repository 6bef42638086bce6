import GalleryImaging
import Testing

/// The fixed-point kernels' steps as processors without SSE2 run them (`Resampler+Portable.swift`)
/// against the steps this machine runs: on x86-64 its SSE2 instructions, so a build for another
/// processor computes the same sums bit for bit. Random lanes, extreme values included.
@Suite("Fixed-point kernels without SSE2")
struct FixedPointPortableTests {
    private static func vector(_ random: inout SeededRandom) -> SIMD8<Int16> {
        var v = SIMD8<Int16>()
        for lane in 0..<8 {
            v[lane] =
                switch random.next() % 6 {
                case 0: .max
                case 1: .min
                case 2: Int16(FixedCurve.one)
                default: Int16(truncatingIfNeeded: random.next())
                }
        }
        return v
    }

    @Test func theStepsWithoutSSE2ComputeWhatTheSSE2StepsCompute() {
        var random = SeededRandom(seed: 32)
        let bits = Int32(FilterTable.fractionBits)
        let half = SIMD4<Int32>(repeating: 1 << (bits - 1))
        for _ in 0..<20_000 {
            let (a, b) = (Self.vector(&random), Self.vector(&random))
            let pair = UInt32(truncatingIfNeeded: random.next())
            var low = SIMD4<Int32>(Int32(truncatingIfNeeded: random.next() >> 40), 0, -7, 1 << 20)
            var high = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: random.next() >> 42))
            var (portableLow, portableHigh) = (low, high)
            Resampler.multiplyAddPairs(a, b, pair, &low, &high)
            Resampler.portableMultiplyAddPairs(a, b, pair, &portableLow, &portableHigh)
            #expect(low == portableLow && high == portableHigh, "\(a) \(b) \(pair)")

            let rounded = ((low &+ half) &>> bits, (high &+ half) &>> bits)
            #expect(Resampler.narrow(low, high) == Resampler.portablePack(rounded.0, rounded.1))
            #expect(Resampler.clampToCurve(a) == Resampler.portableClampToCurve(a))
        }
        for _ in 0..<500 {
            let tile = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: 8)
            let portable = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: 8)
            defer {
                tile.deallocate()
                portable.deallocate()
            }
            for index in 0..<8 { tile[index] = Self.vector(&random) }
            portable.initialize(from: tile, count: 8)
            Resampler.transposePairs(tile)
            Resampler.portableTransposePairs(portable)
            #expect((0..<8).allSatisfy { tile[$0] == portable[$0] })
        }
    }
}
