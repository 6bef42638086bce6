import Foundation

/// Lanczos3 weights for mapping `source` samples onto `target` samples along one axis.
///
/// The weights come twice: as Float (the float reference the tests compare against) and as Q14
/// fixed point for `Resampler`, in pairs, because the fixed-point kernels take two taps per
/// multiply-add. Each output sample's fixed weights sum to exactly `one`, so a flat colour stays
/// exactly flat however many taps round the same way.
package struct FilterTable {
    let taps: Int
    package var starts: [Int]
    package var counts: [Int]
    package var weights: [Float]
    /// Taps two at a time: `pairsPerSample` a sample, each pair's weights packed low then high
    /// (tap 2k in the low 16 bits), padded with zero weights past `counts`.
    package var pairs: [UInt32]
    package let pairsPerSample: Int

    static let radius = 3.0
    /// The fixed-point one: 14 bits keep every weight (≤ 1, plus the fold's surplus) inside Int16.
    package static let fractionBits = 14
    package static let one = 1 << fractionBits

    static func lanczos3(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 1e-8 { return 1 }
        if ax >= radius { return 0 }
        let pix = Double.pi * ax
        return radius * sin(pix) * sin(pix / radius) / (pix * pix)
    }

    /// Weights mapping source samples `start ..< start + extent` (fractional) onto `target` samples.
    package init(source: Int, target: Int, start: Double = 0, extent: Double? = nil) {
        let scale = (extent ?? Double(source)) / Double(target)
        let filterScale = max(scale, 1)
        let support = Self.radius * filterScale
        let taps = Int(ceil(support)) * 2 + 1
        self.taps = taps
        pairsPerSample = (taps + 1) / 2
        starts = [Int](repeating: 0, count: target)
        counts = [Int](repeating: 0, count: target)
        weights = [Float](repeating: 0, count: target * taps)
        pairs = [UInt32](repeating: 0, count: target * pairsPerSample)
        var local = [Double](repeating: 0, count: source)
        var fixed = [Int](repeating: 0, count: taps + 1)
        for out in 0..<target {
            let center = start + (Double(out) + 0.5) * scale - 0.5
            let first = Int(floor(center - support)) + 1
            let last = Int(ceil(center + support)) - 1
            // Fold taps beyond the edges onto the edge pixel (clamp-to-edge).
            var lo = source
            var hi = -1
            for i in first...last {
                let weight = Self.lanczos3((Double(i) - center) / filterScale)
                if weight == 0 { continue }
                let clamped = min(max(i, 0), source - 1)
                local[clamped] += weight
                lo = min(lo, clamped)
                hi = max(hi, clamped)
            }
            if hi < lo {
                lo = min(max(Int(center.rounded()), 0), source - 1)
                hi = lo
                local[lo] = 1
            }
            let count = min(hi - lo + 1, taps)
            var total = 0.0
            for i in lo..<(lo + count) { total += local[i] }
            var sum = 0
            var largest = 0
            for tap in 0..<count {
                let weight = local[lo + tap] / (total == 0 ? 1 : total)
                weights[out * taps + tap] = Float(weight)
                fixed[tap] = Int((weight * Double(Self.one)).rounded())
                sum += fixed[tap]
                if abs(fixed[tap]) > abs(fixed[largest]) { largest = tap }
            }
            // Rounding leaves the sum a few units off one; the largest tap absorbs it, where it
            // changes the shape least.
            fixed[largest] += Self.one - sum
            for pair in 0..<pairsPerSample {
                let low = pair * 2 < count ? fixed[pair * 2] : 0
                let high = pair * 2 + 1 < count ? fixed[pair * 2 + 1] : 0
                pairs[out * pairsPerSample + pair] =
                    UInt32(UInt16(bitPattern: Int16(clamping: low)))
                    | UInt32(UInt16(bitPattern: Int16(clamping: high))) << 16
            }
            for i in lo...hi { local[i] = 0 }
            starts[out] = lo
            counts[out] = count
        }
    }
}

/// A `FilterTable`'s fixed-point taps with every sample's run starting on an even source sample,
/// for both passes of `Resampler.resizeFixed`, which keep samples 2k and 2k + 1 side by side
/// (source pixels in `filterBand`, ring rows in `combineRows`), so that a pair of taps is read
/// whole. A run that starts on an odd sample moves back one, behind a zero weight, so the sums
/// are those of the table's own pairs.
package struct EvenPairedTaps {
    package let starts: [Int]
    /// Pairs of taps each sample takes, from `starts`.
    package let pairCounts: [Int]
    package let pairs: [UInt32]
    package let pairsPerSample: Int

    package init(_ table: FilterTable) {
        var starts = table.starts
        var pairs = table.pairs
        var pairCounts = [Int](repeating: 0, count: starts.count)
        for out in 0..<starts.count {
            let count = table.counts[out]
            guard starts[out] % 2 == 1 else {
                pairCounts[out] = (count + 1) / 2
                continue
            }
            starts[out] -= 1
            pairCounts[out] = (count + 2) / 2
            // Every weight moves up a tap. `taps` is odd, so the last pair's high half is an
            // unused zero and the run still fits in `pairsPerSample`.
            var carry: UInt32 = 0
            for pair in (out * table.pairsPerSample)..<((out + 1) * table.pairsPerSample) {
                let weights = table.pairs[pair]
                pairs[pair] = weights << 16 | carry
                carry = weights >> 16
            }
            precondition(carry == 0, "a run of \(count) taps past \(table.pairsPerSample) pairs")
        }
        self.starts = starts
        self.pairCounts = pairCounts
        self.pairs = pairs
        pairsPerSample = table.pairsPerSample
    }
}
