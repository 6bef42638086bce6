import Foundation
import GalleryModel

/// Separable Lanczos3 resampling in fixed point, horizontal pass first, over unsafe buffers.
///
/// Each axis gets a table of filter weights computed once (normalised to sum to exactly one in
/// Q14, with taps past an edge folded onto the edge pixel). Source rows are decoded eight at a time
/// to 16-bit samples (through the sRGB-to-linear table in linear light), each looked up once and
/// stored so that one vector holds two neighbouring samples of four rows, interleaved, and
/// filtered horizontally into a ring of Int16 rows as wide as the output, kept in pairs of rows
/// interleaved the same way. Each output row is then the weighted sum of the ring rows under its
/// vertical filter, re-encoded through a table with a byte for every sample value. Both passes are
/// 16-bit multiply-adds into exact 32-bit sums, four sums of two taps an instruction, with no
/// per-pixel allocation or bounds checks; memory beyond the output is a few rows.
///
/// It replaced a Float version (4 lanes, one wasted on the missing alpha) that was a third of a
/// cold build's CPU. That version stays in `Resampler+Float.swift`, for reductions past
/// `floatBeyond` and as the reference the tests hold this one to.
package enum Resampler {
    /// Resizes to `size`. Only reductions are expected; an equal size returns the input.
    /// - Parameters:
    ///   - region: The part of `source` that holds the picture, in fractional pixels; nil for all of
    ///     it. A DCT-scaled decode is a fraction of a pixel larger than the scaled picture (its last
    ///     block is partial), and mapping the whole bitmap onto the output would shift the picture by
    ///     up to half an output pixel, which shows as a loss of fine detail.
    ///   - linearLight: Filter in linear light (sRGB decoded to linear and re-encoded), which keeps
    ///     fine bright-on-dark detail from darkening.
    package static func resize(
        _ source: Bitmap, to size: PixelSize, region: SourceRegion? = nil, linearLight: Bool = false
    ) -> Bitmap {
        let region = region ?? SourceRegion(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        if size.width == source.width && size.height == source.height && region.isWhole(of: source) { return source }
        if max(region.width / Double(size.width), region.height / Double(size.height)) > floatBeyond {
            return resizeFloat(source, to: size, region: region, linearLight: linearLight)
        }
        return resizeFixed(source, to: size, region: region, linearLight: linearLight)
    }

    /// The largest reduction (source samples per output sample) done in fixed point; see `resizeFloat`.
    package static let floatBeyond = 64.0

    /// `resize` in fixed point, whatever the reduction.
    package static func resizeFixed(_ source: Bitmap, to size: PixelSize, region: SourceRegion, linearLight: Bool)
        -> Bitmap
    {
        let values = source.width * 3
        return source.pixels.withUnsafeBufferPointer { input in
            resizeFixed(
                PixelSize(width: source.width, height: source.height), to: size, region: region,
                linearLight: linearLight
            ) { first, _ in input.baseAddress! + first * values }
        }
    }

    /// `resizeFixed` from a source whose rows come from `rows(first, count)`: a pointer to rows
    /// `first ..< first + count` (three bytes a pixel, one row after another), asked for in order,
    /// eight at a time, each band once. So a decoder can hand over rows as it makes them.
    package static func resizeFixed(
        _ source: PixelSize, to size: PixelSize, region: SourceRegion, linearLight: Bool,
        rows: (Int, Int) throws -> UnsafePointer<UInt8>
    ) rethrows -> Bitmap {
        let horizontal = EvenPairedTaps(
            FilterTable(source: source.width, target: size.width, start: region.x, extent: region.width))
        let vertical = FilterTable(source: source.height, target: size.height, start: region.y, extent: region.height)
        let verticalPairs = EvenPairedTaps(vertical)
        let curve = linearLight ? FixedCurve.sRGB : FixedCurve.identity
        let values = size.width * 3
        let stride = (values + 15) & ~15  // ring rows end on two whole vectors; the padding is read, never used
        // A band may write up to band - 1 rows either side of the rows an output row needs; an even
        // count keeps rows 2j and 2j + 1 together.
        let ringRows = (min(vertical.taps, source.height) + 2 * band + 1) & ~1

        // Source pixels in pairs, up to the pair that holds the zeroed pixel past the row: the
        // odd tap of a run's last pair may read it, weighted 0.
        let wideCount = (source.width / 2 + 1) * pairStride
        let wide = UnsafeMutableRawPointer.allocate(byteCount: wideCount * 2, alignment: 16)
            .initializeMemory(as: Int16.self, repeating: 0, count: wideCount)
        // Ring rows 2j and 2j + 1 interleaved, sample by sample, in one pair row of 2 × stride values.
        let ring = UnsafeMutableRawPointer.allocate(byteCount: ringRows * stride * 2, alignment: 16)
            .initializeMemory(as: Int16.self, repeating: 0, count: ringRows * stride)
        let rowPairs = UnsafeMutableBufferPointer<UnsafePointer<Int16>>.allocate(capacity: vertical.pairsPerSample)
        var ringSource = [Int](repeating: -1, count: ringRows)  // the source row each ring slot holds
        defer {
            wide.deallocate()
            ring.deallocate()
            rowPairs.deallocate()
        }
        let pairRow = { (pair: Int) in ring + (pair * 2 % ringRows) * stride }

        var pixels = PixelBuffers.take(values * size.height)  // every byte is written below
        try pixels.withUnsafeMutableBufferPointer { output in
            try curve.decode.withUnsafeBufferPointer { decode in
                try curve.encode.withUnsafeBufferPointer { encode in
                    try verticalPairs.pairs.withUnsafeBufferPointer { pairs in
                        for y in 0..<size.height {
                            let start = vertical.starts[y]
                            for row in start..<(start + vertical.counts[y]) where ringSource[row % ringRows] != row {
                                let first = row - row % band
                                let inBand = min(band, source.height - first)
                                filterBand(
                                    try rows(first, inBand), source.width, rows: inBand, horizontal,
                                    decode.baseAddress!, wide
                                ) { pairRow(first / 2 + $0) }
                                for filtered in first..<(first + inBand) { ringSource[filtered % ringRows] = filtered }
                            }
                            // The even run may take the row before `start`, and one past the last,
                            // weighted 0: in the ring, whatever they hold.
                            let firstPair = verticalPairs.starts[y] / 2
                            let used = verticalPairs.pairCounts[y]
                            for pair in 0..<used { rowPairs[pair] = UnsafePointer(pairRow(firstPair + pair)) }
                            combineRows(
                                UnsafeBufferPointer(rebasing: rowPairs[0..<used]),
                                pairs.baseAddress! + y * verticalPairs.pairsPerSample, values: values,
                                encode.baseAddress!, output.baseAddress! + y * values)
                        }
                    }
                }
            }
        }
        return Bitmap(width: size.width, height: size.height, pixels: pixels)
    }
}

/// A rectangle of a bitmap in fractional pixel coordinates: the part of it a resize maps onto the output.
package struct SourceRegion: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    func isWhole(of bitmap: Bitmap) -> Bool {
        x == 0 && y == 0 && width == Double(bitmap.width) && height == Double(bitmap.height)
    }

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A transfer curve as two tables: byte to Float (0…1), and 0…`steps` back to a byte. The float
/// reference resampler in the tests uses it; `FixedCurve` is the one the resampler uses.
package struct Transfer {
    /// Quantisation of the output; 4096 steps keep every dark sRGB tone exact through linear light.
    package static let steps: Float = 4095
    package let decode: [Float]
    package let encode: [UInt8]

    /// The sRGB curve (IEC 61966-2-1), 0…1 each way.
    package static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    package static func gamma(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// sRGB: filtering happens in linear light.
    package static let sRGB = Transfer(
        decode: (0..<256).map { Float(linear(Double($0) / 255)) },
        encode: (0...Int(steps)).map { UInt8(max(0, min(255, (gamma(Double($0) / Double(steps)) * 255).rounded()))) })

    /// No curve: filtering happens on the stored values.
    package static let identity = Transfer(
        decode: (0..<256).map { Float($0) / 255 },
        encode: (0...Int(steps)).map { UInt8((Double($0) * 255 / Double(steps)).rounded()) })
}
