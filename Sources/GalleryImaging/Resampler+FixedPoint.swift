#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The fixed-point kernels of `Resampler`: samples are Int16 in units of `FixedCurve.one`, weights
/// Q14, and every sum is exact in Int32 until one rounding at the end of each pass.
///
/// Both passes take two taps at a time: the two source vectors' lanes are interleaved and one
/// multiply-add of 16-bit pairs into 32-bit sums (`pmaddwd`, SSE2, so every x86-64 has it) does two
/// taps for eight samples. Elsewhere the same steps are plain SIMD arithmetic
/// (`Resampler+Portable.swift`, compiled and tested against these everywhere); the results are
/// identical, as integer sums are.
extension Resampler {
    /// Rows filtered horizontally together: one Int16 lane each.
    static let band = 8

    /// Adds `a × weight[0] + b × weight[1]` lane by lane to the eight sums `low` (lanes 0–3) and `high`.
    /// `pair` holds both weights as `FilterTable.pairs` packs them.
    @inline(__always)
    package static func multiplyAdd(
        _ a: SIMD8<Int16>, _ b: SIMD8<Int16>, _ pair: UInt32,
        _ low: inout SIMD4<Int32>, _ high: inout SIMD4<Int32>
    ) {
        #if arch(x86_64)
            let weights = unsafeBitCast(SIMD4<UInt32>(repeating: pair), to: __m128i.self)
            let va = unsafeBitCast(a, to: __m128i.self)
            let vb = unsafeBitCast(b, to: __m128i.self)
            low &+= unsafeBitCast(_mm_madd_epi16(_mm_unpacklo_epi16(va, vb), weights), to: SIMD4<Int32>.self)
            high &+= unsafeBitCast(_mm_madd_epi16(_mm_unpackhi_epi16(va, vb), weights), to: SIMD4<Int32>.self)
        #else
            portableMultiplyAdd(a, b, pair, &low, &high)
        #endif
    }

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

    @inline(__always)
    static func load(_ pointer: UnsafePointer<Int16>) -> SIMD8<Int16> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Int16>.self)
    }

    /// Decodes the `rows` source rows at `input` (at most `band`) into `wide`, transposed so that
    /// each sample's eight rows are one vector (the last row repeats to fill the band), then filters
    /// them horizontally into their ring rows, `ring(0)` for the first.
    static func filterBand(
        _ input: UnsafePointer<UInt8>, _ sourceWidth: Int, rows: Int,
        _ table: FilterTable, _ decode: UnsafePointer<Int16>, _ wide: UnsafeMutablePointer<Int16>,
        ring: (Int) -> UnsafeMutablePointer<Int16>
    ) {
        let values = sourceWidth * 3
        let r = (0..<band).map { input + min($0, rows - 1) * values }
        let (r0, r1, r2, r3, r4, r5, r6, r7) = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7])
        for index in 0..<values {
            let column = SIMD8<Int16>(
                decode[Int(r0[index])], decode[Int(r1[index])], decode[Int(r2[index])],
                decode[Int(r3[index])], decode[Int(r4[index])], decode[Int(r5[index])],
                decode[Int(r6[index])], decode[Int(r7[index])])
            UnsafeMutableRawPointer(wide + index &* band).storeBytes(of: column, as: SIMD8<Int16>.self)
        }
        let t = (0..<band).map { ring(min($0, rows - 1)) }
        // Results leave eight samples at a time: eight vectors (one a sample, a lane a row) are
        // transposed into eight row vectors and stored whole. A ring row's padding takes the tail.
        let tile = UnsafeMutablePointer<SIMD8<Int16>>.allocate(capacity: band)
        tile.initialize(repeating: .zero, count: band)
        defer { tile.deallocate() }
        var filled = 0
        var at = 0
        @inline(__always) func put(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>) {
            tile[filled] = narrow(low, high)
            filled += 1
            guard filled == band else { return }
            transpose(tile)
            for lane in 0..<band {
                UnsafeMutableRawPointer(t[lane] + at).storeBytes(of: tile[lane], as: SIMD8<Int16>.self)
            }
            at += band
            filled = 0
        }
        table.pairs.withUnsafeBufferPointer { pairs in
            table.starts.withUnsafeBufferPointer { starts in
                table.counts.withUnsafeBufferPointer { counts in
                    for x in 0..<counts.count {
                        let weights = pairs.baseAddress! + x * table.pairsPerSample
                        var r0 = SIMD4<Int32>.zero
                        var r1 = r0
                        var g0 = r0
                        var g1 = r0
                        var b0 = r0
                        var b1 = r0
                        // One pixel is 3 × band values; a pair of taps is two pixels. The second
                        // tap of an odd count reads the zeroed pixel past the row, weighted 0.
                        var pixel = UnsafePointer(wide + starts[x] * 3 * band)
                        for pair in 0..<((counts[x] + 1) / 2) {
                            let weight = weights[pair]
                            multiplyAdd(load(pixel), load(pixel + 3 * band), weight, &r0, &r1)
                            multiplyAdd(load(pixel + band), load(pixel + 4 * band), weight, &g0, &g1)
                            multiplyAdd(load(pixel + 2 * band), load(pixel + 5 * band), weight, &b0, &b1)
                            pixel += 6 * band
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

    /// Transposes eight vectors of eight samples in place: lane j of vector i becomes lane i of vector j.
    @inline(__always)
    package static func transpose(_ v: UnsafeMutablePointer<SIMD8<Int16>>) {
        #if arch(x86_64)
            func m(_ i: Int) -> __m128i { unsafeBitCast(v[i], to: __m128i.self) }
            let a0 = _mm_unpacklo_epi16(m(0), m(1))
            let a1 = _mm_unpackhi_epi16(m(0), m(1))
            let a2 = _mm_unpacklo_epi16(m(2), m(3))
            let a3 = _mm_unpackhi_epi16(m(2), m(3))
            let a4 = _mm_unpacklo_epi16(m(4), m(5))
            let a5 = _mm_unpackhi_epi16(m(4), m(5))
            let a6 = _mm_unpacklo_epi16(m(6), m(7))
            let a7 = _mm_unpackhi_epi16(m(6), m(7))
            let b0 = _mm_unpacklo_epi32(a0, a2)
            let b1 = _mm_unpackhi_epi32(a0, a2)
            let b2 = _mm_unpacklo_epi32(a1, a3)
            let b3 = _mm_unpackhi_epi32(a1, a3)
            let b4 = _mm_unpacklo_epi32(a4, a6)
            let b5 = _mm_unpackhi_epi32(a4, a6)
            let b6 = _mm_unpacklo_epi32(a5, a7)
            let b7 = _mm_unpackhi_epi32(a5, a7)
            func s(_ x: __m128i) -> SIMD8<Int16> { unsafeBitCast(x, to: SIMD8<Int16>.self) }
            v[0] = s(_mm_unpacklo_epi64(b0, b4))
            v[1] = s(_mm_unpackhi_epi64(b0, b4))
            v[2] = s(_mm_unpacklo_epi64(b1, b5))
            v[3] = s(_mm_unpackhi_epi64(b1, b5))
            v[4] = s(_mm_unpacklo_epi64(b2, b6))
            v[5] = s(_mm_unpackhi_epi64(b2, b6))
            v[6] = s(_mm_unpacklo_epi64(b3, b7))
            v[7] = s(_mm_unpackhi_epi64(b3, b7))
        #else
            portableTranspose(v)
        #endif
    }

    /// Writes output row `y`: the weighted sum of ring rows `rows`, taken two at a time, through `encode`.
    static func combineRows(
        _ rows: UnsafeBufferPointer<UnsafePointer<Int16>>, _ pairs: UnsafePointer<UInt32>, values: Int,
        _ encode: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>
    ) {
        let used = (rows.count + 1) / 2
        @inline(__always) func emit(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>, at chunk: Int) {
            let r = clampToCurve(narrow(low, high))
            if values - chunk >= 8 {
                let bytes = SIMD8<UInt8>(
                    encode[Int(r[0])], encode[Int(r[1])], encode[Int(r[2])], encode[Int(r[3])],
                    encode[Int(r[4])], encode[Int(r[5])], encode[Int(r[6])], encode[Int(r[7])])
                UnsafeMutableRawPointer(out + chunk).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
            } else {
                for lane in 0..<(values - chunk) { out[chunk + lane] = encode[Int(r[lane])] }
            }
        }
        var chunk = 0
        // Two vectors a pass, so that each pair's row pointers and weights are loaded once for both.
        while chunk < values {
            var l0 = SIMD4<Int32>.zero
            var h0 = l0
            var l1 = l0
            var h1 = l0
            for pair in 0..<used {
                // An odd count pairs the last row with itself, weighted 0.
                let a = rows[pair * 2]
                let b = rows[min(pair * 2 + 1, rows.count - 1)]
                let weight = pairs[pair]
                multiplyAdd(load(a + chunk), load(b + chunk), weight, &l0, &h0)
                multiplyAdd(load(a + chunk + 8), load(b + chunk + 8), weight, &l1, &h1)
            }
            emit(l0, h0, at: chunk)
            if chunk + 8 < values { emit(l1, h1, at: chunk + 8) }
            chunk += 16
        }
    }
}

/// A transfer curve in fixed point: byte to an Int16 sample (0…`one`), and every sample back to a byte.
package struct FixedCurve: Sendable {
    /// 255 × 64: the identity curve is exact, and linear light keeps about 14 bits, finer than
    /// every step of the sRGB curve (its darkest step is 5 units).
    package static let one = 255 * 64
    package let decode: [Int16]
    package let encode: [UInt8]

    /// sRGB (IEC 61966-2-1): filtering happens in linear light.
    package static let sRGB = FixedCurve(
        decode: (0..<256).map { Int16((Transfer.linear(Double($0) / 255) * Double(one)).rounded()) },
        encode: (0...one).map { UInt8(max(0, min(255, (Transfer.gamma(Double($0) / Double(one)) * 255).rounded()))) })

    /// No curve: filtering happens on the stored values.
    package static let identity = FixedCurve(
        decode: (0..<256).map { Int16($0 * 64) },
        encode: (0...one).map { UInt8(min(255, (Double($0) / 64).rounded())) })
}
