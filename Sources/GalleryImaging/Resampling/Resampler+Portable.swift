/// The fixed-point kernels' steps in plain SIMD arithmetic, as every processor but x86-64 runs
/// them; x86-64 runs SSE2 instructions for the same steps (`Resampler+FixedPoint.swift`). They are
/// compiled on every processor, so that the tests hold both to the same results on the machine that
/// runs them (`FixedPointPortableTests`): integer sums are exact, so they must agree bit for bit.
extension Resampler {
    /// `narrow`'s saturation without SSE2: rounded Q14 sums held to the Int16 range.
    @inline(__always)
    package static func portablePack(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD8<Int16> {
        let limit = SIMD8<Int32>(repeating: Int32(Int16.max))
        return SIMD8<Int16>(
            truncatingIfNeeded: SIMD8<Int32>(lowHalf: a, highHalf: b).clamped(
                lowerBound: 0 &- limit &- 1, upperBound: limit))
    }

    /// `clampToCurve` without SSE2.
    @inline(__always)
    package static func portableClampToCurve(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
        value.clamped(lowerBound: .zero, upperBound: SIMD8(repeating: Int16(FixedCurve.one)))
    }

    /// `transposePairs` without SSE2: row pair p of sample s (lanes 2p, 2p + 1 of vector s) goes to
    /// lanes 2(s mod 4), 2(s mod 4) + 1 of vector p, or of vector 4 + p for samples 4–7.
    @inline(__always)
    package static func portableTransposePairs(_ v: UnsafeMutablePointer<SIMD8<Int16>>) {
        let samples = (0..<8).map { v[$0] }
        for sample in 0..<8 {
            for pair in 0..<4 {
                let target = sample < 4 ? pair : 4 + pair
                v[target][2 * (sample % 4)] = samples[sample][2 * pair]
                v[target][2 * (sample % 4) + 1] = samples[sample][2 * pair + 1]
            }
        }
    }

    /// `multiplyAddPairs` without SSE2: lanes 2i and 2i + 1 weighted by the pair's two weights and
    /// summed into lane i.
    @inline(__always)
    package static func portableMultiplyAddPairs(
        _ lowPairs: SIMD8<Int16>, _ highPairs: SIMD8<Int16>, _ pair: UInt32,
        _ low: inout SIMD4<Int32>, _ high: inout SIMD4<Int32>
    ) {
        let wa = SIMD4<Int32>(repeating: Int32(Int16(truncatingIfNeeded: pair)))
        let wb = SIMD4<Int32>(repeating: Int32(Int16(truncatingIfNeeded: pair >> 16)))
        let l = SIMD8<Int32>(truncatingIfNeeded: lowPairs)
        let h = SIMD8<Int32>(truncatingIfNeeded: highPairs)
        low &+= l.evenHalf &* wa &+ l.oddHalf &* wb
        high &+= h.evenHalf &* wa &+ h.oddHalf &* wb
    }
}
