/// The fixed-point kernels' steps in plain SIMD arithmetic, as every processor but x86-64 runs
/// them; x86-64 runs SSE2 instructions for the same steps (`Resampler+FixedPoint.swift`). They are
/// compiled on every processor, so that the tests hold both to the same results on the machine that
/// runs them (`FixedPointPortableTests`): integer sums are exact, so they must agree bit for bit.
extension Resampler {
    /// `multiplyAdd` without SSE2: `a × weight[0] + b × weight[1]`, lane by lane, added to `low`
    /// (lanes 0–3) and `high`.
    @inline(__always)
    package static func portableMultiplyAdd(
        _ a: SIMD8<Int16>, _ b: SIMD8<Int16>, _ pair: UInt32,
        _ low: inout SIMD4<Int32>, _ high: inout SIMD4<Int32>
    ) {
        let wa = SIMD8<Int32>(repeating: Int32(Int16(truncatingIfNeeded: pair)))
        let wb = SIMD8<Int32>(repeating: Int32(Int16(truncatingIfNeeded: pair >> 16)))
        let sum = SIMD8<Int32>(truncatingIfNeeded: a) &* wa &+ SIMD8<Int32>(truncatingIfNeeded: b) &* wb
        low &+= sum.lowHalf
        high &+= sum.highHalf
    }

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

    /// `transpose` without SSE2: lane j of vector i becomes lane i of vector j.
    @inline(__always)
    package static func portableTranspose(_ v: UnsafeMutablePointer<SIMD8<Int16>>) {
        for i in 0..<8 { for j in (i + 1)..<8 { (v[i][j], v[j][i]) = (v[j][i], v[i][j]) } }
    }
}
