import Foundation

/// Separable Lanczos3 resampling over unsafe buffers.
///
/// Each axis gets a table of filter weights computed once (normalised to sum to 1, with taps past
/// an edge folded onto the edge pixel), then rows are filtered horizontally into a Float buffer and
/// the result is filtered vertically, row by row, which keeps memory access sequential.
enum Resampler {
    /// Resizes to `size`. Only reductions are expected; an equal size returns the input.
    static func resize(_ source: Bitmap, to size: PixelSize) -> Bitmap {
        if size.width == source.width && size.height == source.height { return source }
        let horizontal = FilterTable(source: source.width, target: size.width)
        let vertical = FilterTable(source: source.height, target: size.height)

        // Horizontal pass: source.height rows of size.width pixels, as Float.
        let rowFloats = size.width * 3
        var intermediate = [Float](repeating: 0, count: rowFloats * source.height)
        source.pixels.withUnsafeBufferPointer { input in
            intermediate.withUnsafeMutableBufferPointer { output in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<source.height {
                        let inRow = input.baseAddress! + y * source.width * 3
                        let outRow = output.baseAddress! + y * rowFloats
                        for x in 0..<size.width {
                            let start = horizontal.starts[x]
                            var r: Float = 0, g: Float = 0, b: Float = 0
                            let w = weights.baseAddress! + x * horizontal.taps
                            var p = inRow + start * 3
                            for tap in 0..<horizontal.counts[x] {
                                let weight = w[tap]
                                r += weight * Float(p[0])
                                g += weight * Float(p[1])
                                b += weight * Float(p[2])
                                p += 3
                            }
                            outRow[x * 3] = r
                            outRow[x * 3 + 1] = g
                            outRow[x * 3 + 2] = b
                        }
                    }
                }
            }
        }

        // Vertical pass: accumulate weighted rows, then round and clamp to bytes.
        var pixels = [UInt8](repeating: 0, count: rowFloats * size.height)
        var accumulator = [Float](repeating: 0, count: rowFloats)
        intermediate.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                accumulator.withUnsafeMutableBufferPointer { sum in
                    for y in 0..<size.height {
                        sum.update(repeating: 0)
                        let start = vertical.starts[y]
                        for tap in 0..<vertical.counts[y] {
                            let weight = vertical.weights[y * vertical.taps + tap]
                            let row = input.baseAddress! + (start + tap) * rowFloats
                            for i in 0..<rowFloats { sum[i] += weight * row[i] }
                        }
                        let outRow = output.baseAddress! + y * rowFloats
                        for i in 0..<rowFloats {
                            outRow[i] = UInt8(min(max(sum[i] + 0.5, 0), 255))
                        }
                    }
                }
            }
        }
        return Bitmap(width: size.width, height: size.height, pixels: pixels)
    }
}

/// Lanczos3 weights for mapping `source` samples onto `target` samples along one axis.
struct FilterTable {
    let taps: Int
    var starts: [Int]
    var counts: [Int]
    var weights: [Float]

    static let radius = 3.0

    static func lanczos3(_ x: Double) -> Double {
        let ax = abs(x)
        if ax < 1e-8 { return 1 }
        if ax >= radius { return 0 }
        let pix = Double.pi * ax
        return radius * sin(pix) * sin(pix / radius) / (pix * pix)
    }

    init(source: Int, target: Int) {
        let scale = Double(source) / Double(target)
        let filterScale = max(scale, 1)
        let support = Self.radius * filterScale
        let taps = Int(ceil(support)) * 2 + 1
        self.taps = taps
        starts = [Int](repeating: 0, count: target)
        counts = [Int](repeating: 0, count: target)
        weights = [Float](repeating: 0, count: target * taps)
        var local = [Double](repeating: 0, count: source)
        for out in 0..<target {
            let center = (Double(out) + 0.5) * scale - 0.5
            let first = Int(floor(center - support)) + 1
            let last = Int(ceil(center + support)) - 1
            // Fold taps beyond the edges onto the edge pixel (clamp-to-edge).
            var lo = source, hi = -1
            for i in first...last {
                let weight = Self.lanczos3((Double(i) - center) / filterScale)
                if weight == 0 { continue }
                let clamped = min(max(i, 0), source - 1)
                local[clamped] += weight
                lo = min(lo, clamped)
                hi = max(hi, clamped)
            }
            if hi < lo { lo = min(max(Int(center.rounded()), 0), source - 1); hi = lo; local[lo] = 1 }
            let count = min(hi - lo + 1, taps)
            var total = 0.0
            for i in lo..<(lo + count) { total += local[i] }
            for tap in 0..<count {
                weights[out * taps + tap] = Float(local[lo + tap] / (total == 0 ? 1 : total))
            }
            for i in lo...hi { local[i] = 0 }
            starts[out] = lo
            counts[out] = count
        }
    }
}
