#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The fixed-point kernels of `Resampler`: samples are Int16 in units of `FixedCurve.one`, weights
/// Q14, and every sum is exact in Int32 until one rounding at the end of each pass.
///
/// Both passes take two taps at a time: the samples of two neighbouring taps are stored
/// interleaved (source pixels 2k and 2k + 1 in the horizontal pass, ring rows 2j and 2j + 1 in the
/// vertical one; runs of taps start on even samples, `EvenPairedTaps`), so one multiply-add of
/// 16-bit pairs into 32-bit sums (`pmaddwd`, SSE2, so every x86-64 has it) straight from memory
/// does two taps for four sums. Elsewhere the same steps are plain SIMD arithmetic
/// (`Resampler+Portable.swift`, compiled and tested against these everywhere); the results are
/// identical, as integer sums are.
extension Resampler {
    /// Rows filtered horizontally together: one Int16 lane each.
    static let band = 8

    /// Rounds Q14 sums back to samples, saturating at the Int16 range (only ringing past ±2× gets there).
    @inline(__always)
    package static func narrow(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>) -> SIMD8<Int16> {
        let half = SIMD4<Int32>(repeating: Int32(FilterTable.one >> 1))
        let bits = Int32(FilterTable.fractionBits)
        let a = (low &+ half) &>> bits
        let b = (high &+ half) &>> bits
        #if arch(x86_64)
            // The generic SIMD init(clamping:) is a call and a loop a vector: a fifth of the time.
            return unsafeBitCast(
                _mm_packs_epi32(unsafeBitCast(a, to: __m128i.self), unsafeBitCast(b, to: __m128i.self)),
                to: SIMD8<Int16>.self)
        #else
            return portablePack(a, b)
        #endif
    }

    /// `value` held to 0…`FixedCurve.one`, the range of the encode table.
    @inline(__always)
    package static func clampToCurve(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
        #if arch(x86_64)
            let top = _mm_set1_epi16(Int16(FixedCurve.one))
            return unsafeBitCast(
                _mm_min_epi16(_mm_max_epi16(unsafeBitCast(value, to: __m128i.self), _mm_setzero_si128()), top),
                to: SIMD8<Int16>.self)
        #else
            return portableClampToCurve(value)
        #endif
    }

    /// Eight samples from a 16-byte boundary (both `wide` and the ring start on one).
    @inline(__always)
    static func load(_ pointer: UnsafePointer<Int16>) -> SIMD8<Int16> {
        UnsafeRawPointer(pointer).load(as: SIMD8<Int16>.self)
    }

    /// Values of `filterBand`'s `wide` a pair of source pixels takes: three channels, two samples,
    /// `band` rows.
    static let pairStride = 6 * band

    /// Adds `pairs × weight`, two taps a sum, to `low` and `high`: lane 2i of `lowPairs` holds row i
    /// of the first tap and lane 2i + 1 row i of the second (rows 0–3), `highPairs` rows 4–7.
    @inline(__always)
    package static func multiplyAddPairs(
        _ lowPairs: SIMD8<Int16>, _ highPairs: SIMD8<Int16>, _ pair: UInt32,
        _ low: inout SIMD4<Int32>, _ high: inout SIMD4<Int32>
    ) {
        #if arch(x86_64)
            let weights = unsafeBitCast(SIMD4<UInt32>(repeating: pair), to: __m128i.self)
            low &+= unsafeBitCast(
                _mm_madd_epi16(unsafeBitCast(lowPairs, to: __m128i.self), weights), to: SIMD4<Int32>.self)
            high &+= unsafeBitCast(
                _mm_madd_epi16(unsafeBitCast(highPairs, to: __m128i.self), weights), to: SIMD4<Int32>.self)
        #else
            portableMultiplyAddPairs(lowPairs, highPairs, pair, &low, &high)
        #endif
    }

    /// Writes one source row of `width` pixels through `decode` into `filterBand`'s `wide` layout,
    /// at `target` (the row's first lane): pixel 2k's channel c at `(3k + c) × 2 × band`, pixel
    /// 2k + 1's one value after it.
    @inline(__always)
    static func decodeRow(
        _ source: UnsafePointer<UInt8>, _ width: Int, _ decode: UnsafePointer<Int16>,
        into target: UnsafeMutablePointer<Int16>
    ) {
        var (s, t) = (source, target)
        for _ in 0..<(width / 2) {
            t[0] = decode[Int(s[0])]
            t[2 * band] = decode[Int(s[1])]
            t[4 * band] = decode[Int(s[2])]
            t[1] = decode[Int(s[3])]
            t[2 * band + 1] = decode[Int(s[4])]
            t[4 * band + 1] = decode[Int(s[5])]
            s += 6
            t += pairStride
        }
        if width % 2 == 1 {
            t[0] = decode[Int(s[0])]
            t[2 * band] = decode[Int(s[1])]
            t[4 * band] = decode[Int(s[2])]
        }
    }

    /// Decodes the `rows` source rows at `input` (at most `band`) into `wide` and filters them
    /// horizontally into their ring rows, which `ring(p)` gives in pairs: rows 2p and 2p + 1
    /// interleaved sample by sample (`combineRows` reads them so).
    ///
    /// In `wide`, a channel's source samples 2k and 2k + 1 sit interleaved, row by row, in two
    /// vectors (rows 0–3, then 4–7; the last row repeats to fill the band): `pairStride` values
    /// for each pair of pixels, from a 16-byte boundary. So each sample is looked up and stored
    /// once, and two taps for eight rows are two multiply-adds with no shuffling; runs of taps
    /// start on even samples (`EvenPairedTaps`). The pixel past the row is never written: zero,
    /// weighted 0.
    static func filterBand(
        _ input: UnsafePointer<UInt8>, _ sourceWidth: Int, rows: Int,
        _ table: EvenPairedTaps, _ decode: UnsafePointer<Int16>, _ wide: UnsafeMutablePointer<Int16>,
        ring: (Int) -> UnsafeMutablePointer<Int16>
    ) {
        let values = sourceWidth * 3
        for row in 0..<band {
            decodeRow(input + min(row, rows - 1) * values, sourceWidth, decode, into: wide + 2 * row)
        }
        let t = (0..<(band / 2)).map { ring($0) }
        // Results leave eight samples at a time: eight vectors (one a sample, a lane a row) are
        // transposed into the four pair rows' layout and stored whole. A ring row's padding takes
        // the tail; in the last band, rows past the picture land in ring rows no output row needs.
        let tile = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: band)
        tile.initialize(repeating: .zero, count: band)
        defer { tile.deallocate() }
        var filled = 0
        var at = 0
        @inline(__always) func put(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>) {
            tile[filled] = narrow(low, high)
            filled += 1
            guard filled == band else { return }
            transposePairs(tile)
            for pair in 0..<(band / 2) {
                let target = UnsafeMutableRawPointer(t[pair] + 2 * at)
                target.storeBytes(of: tile[pair], as: SIMD8<Int16>.self)
                (target + 16).storeBytes(of: tile[band / 2 + pair], as: SIMD8<Int16>.self)
            }
            at += band
            filled = 0
        }
        table.pairs.withUnsafeBufferPointer { pairs in
            table.starts.withUnsafeBufferPointer { starts in
                table.pairCounts.withUnsafeBufferPointer { counts in
                    for x in 0..<counts.count {
                        let weights = pairs.baseAddress! + x * table.pairsPerSample
                        var r0 = SIMD4<Int32>.zero
                        var r1 = r0
                        var g0 = r0
                        var g1 = r0
                        var b0 = r0
                        var b1 = r0
                        var pixel = UnsafePointer(wide + starts[x] / 2 * pairStride)
                        for pair in 0..<counts[x] {
                            let weight = weights[pair]
                            multiplyAddPairs(load(pixel), load(pixel + band), weight, &r0, &r1)
                            multiplyAddPairs(
                                load(pixel + 2 * band), load(pixel + 3 * band), weight, &g0, &g1)
                            multiplyAddPairs(
                                load(pixel + 4 * band), load(pixel + 5 * band), weight, &b0, &b1)
                            pixel += pairStride
                        }
                        put(r0, r1)
                        put(g0, g1)
                        put(b0, b1)
                    }
                }
            }
        }
        if filled > 0 {
            filled = band - 1
            put(.zero, .zero)
        }  // the tail: the rest of the tile lands in padding
    }

    /// Transposes eight vectors of eight samples, a lane a row, into the layout of pair rows:
    /// vector p (p < 4) becomes rows 2p and 2p + 1 of samples 0–3, interleaved, and vector 4 + p
    /// the same of samples 4–7. It is two 4 × 4 transposes of 32-bit lanes (each a pair of rows).
    @inline(__always)
    package static func transposePairs(_ v: UnsafeMutablePointer<SIMD8<Int16>>) {
        #if arch(x86_64)
            func m(_ i: Int) -> __m128i { unsafeBitCast(v[i], to: __m128i.self) }
            func s(_ x: __m128i) -> SIMD8<Int16> { unsafeBitCast(x, to: SIMD8<Int16>.self) }
            let a0 = _mm_unpacklo_epi32(m(0), m(1))
            let a1 = _mm_unpackhi_epi32(m(0), m(1))
            let a2 = _mm_unpacklo_epi32(m(2), m(3))
            let a3 = _mm_unpackhi_epi32(m(2), m(3))
            let b0 = _mm_unpacklo_epi32(m(4), m(5))
            let b1 = _mm_unpackhi_epi32(m(4), m(5))
            let b2 = _mm_unpacklo_epi32(m(6), m(7))
            let b3 = _mm_unpackhi_epi32(m(6), m(7))
            v[0] = s(_mm_unpacklo_epi64(a0, a2))
            v[1] = s(_mm_unpackhi_epi64(a0, a2))
            v[2] = s(_mm_unpacklo_epi64(a1, a3))
            v[3] = s(_mm_unpackhi_epi64(a1, a3))
            v[4] = s(_mm_unpacklo_epi64(b0, b2))
            v[5] = s(_mm_unpackhi_epi64(b0, b2))
            v[6] = s(_mm_unpacklo_epi64(b1, b3))
            v[7] = s(_mm_unpackhi_epi64(b1, b3))
        #else
            portableTransposePairs(v)
        #endif
    }

    /// Writes an output row: the weighted sum of the ring rows in `rowPairs` (each a pair row,
    /// two rows interleaved), a pair of weights for each, through `encode`.
    static func combineRows(
        _ rowPairs: UnsafeBufferPointer<UnsafePointer<Int16>>, _ pairs: UnsafePointer<UInt32>, values: Int,
        _ encode: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>
    ) {
        @inline(__always) func emit(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>, at chunk: Int) {
            // Each byte stored as it is looked up: gathering them into a vector first took
            // twice the instructions.
            let r = SIMD8<UInt16>(truncatingIfNeeded: clampToCurve(narrow(low, high)))
            if values - chunk >= 8 {
                for lane in 0..<8 { out[chunk + lane] = encode[Int(r[lane])] }
            } else {
                for lane in 0..<(values - chunk) { out[chunk + lane] = encode[Int(r[lane])] }
            }
        }
        var chunk = 0
        // Sixteen samples a pass, so that each pair's row pointer and weights are loaded once for both.
        while chunk < values {
            var l0 = SIMD4<Int32>.zero
            var h0 = l0
            var l1 = l0
            var h1 = l0
            for pair in 0..<rowPairs.count {
                let rows = rowPairs[pair] + 2 * chunk
                let weight = pairs[pair]
                multiplyAddPairs(load(rows), load(rows + 8), weight, &l0, &h0)
                multiplyAddPairs(load(rows + 16), load(rows + 24), weight, &l1, &h1)
            }
            emit(l0, h0, at: chunk)
            if chunk + 8 < values { emit(l1, h1, at: chunk + 8) }
            chunk += 16
        }
    }
}
