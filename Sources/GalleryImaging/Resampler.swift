import Foundation
import GalleryModel

/// Separable Lanczos3 resampling, horizontal pass first, over unsafe buffers.
///
/// Each axis gets a table of filter weights computed once (normalised to sum to 1, with taps past
/// an edge folded onto the edge pixel). Every source row is converted to Float once (through the
/// sRGB-to-linear table in linear light) and filtered horizontally into a ring of `SIMD4<Float>`
/// rows as wide as the output. Each output row is then the weighted sum of the ring rows under its
/// vertical filter. Both passes are vector multiply-adds with no per-pixel allocation or bounds
/// checks, each source sample is converted once, and memory beyond the output is a few rows.
package enum Resampler {
    /// Resizes to `size`. Only reductions are expected; an equal size returns the input.
    /// - Parameters:
    ///   - region: The part of `source` that holds the picture, in fractional pixels; nil for all of
    ///     it. A DCT-scaled decode is a fraction of a pixel larger than the scaled picture (its last
    ///     block is partial), and mapping the whole bitmap onto the output would shift the picture by
    ///     up to half an output pixel, which shows as a loss of fine detail.
    ///   - linearLight: Filter in linear light (sRGB decoded to linear and re-encoded), which keeps
    ///     fine bright-on-dark detail from darkening.
    package static func resize(_ source: Bitmap, to size: PixelSize, region: SourceRegion? = nil, linearLight: Bool = false) -> Bitmap {
        let region = region ?? SourceRegion(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        if size.width == source.width && size.height == source.height && region.isWhole(of: source) { return source }
        let horizontal = FilterTable(source: source.width, target: size.width, start: region.x, extent: region.width)
        let vertical = FilterTable(source: source.height, target: size.height, start: region.y, extent: region.height)
        let transfer = linearLight ? Transfer.sRGB : Transfer.identity
        let width = size.width, ringRows = vertical.taps

        let wide = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: source.width)
        let ring = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: ringRows * width)
        let sum = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: width)
        var ringSource = [Int](repeating: -1, count: ringRows)   // the source row each ring slot holds
        defer { wide.deallocate(); ring.deallocate(); sum.deallocate() }

        var pixels = PixelBuffers.take(width * size.height * 3)   // every byte is written below
        source.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                transfer.decode.withUnsafeBufferPointer { decode in
                    transfer.encode.withUnsafeBufferPointer { encode in
                        for y in 0..<size.height {
                            let start = vertical.starts[y], count = vertical.counts[y]
                            for row in start..<(start + count) where ringSource[row % ringRows] != row {
                                filterRow(input.baseAddress! + row * source.width * 3, source.width, horizontal,
                                          decode.baseAddress!, wide.baseAddress!, ring.baseAddress! + (row % ringRows) * width)
                                ringSource[row % ringRows] = row
                            }
                            combineRows(ring.baseAddress!, ringRows, width, start, count,
                                        vertical.weights, y * vertical.taps, sum.baseAddress!)
                            let out = output.baseAddress! + y * width * 3
                            let top = SIMD4<Float>(repeating: Transfer.steps)
                            for x in 0..<width {
                                let index = (sum[x] * Transfer.steps + 0.5).clamped(lowerBound: .zero, upperBound: top)
                                out[x * 3] = encode[Int(index[0])]
                                out[x * 3 + 1] = encode[Int(index[1])]
                                out[x * 3 + 2] = encode[Int(index[2])]
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: size.height, pixels: pixels)
    }

    /// Converts one source row to Float pixels and filters it horizontally into `target` (output width).
    @inline(__always)
    private static func filterRow(_ row: UnsafePointer<UInt8>, _ sourceWidth: Int, _ table: FilterTable,
                                  _ decode: UnsafePointer<Float>, _ wide: UnsafeMutablePointer<SIMD4<Float>>,
                                  _ target: UnsafeMutablePointer<SIMD4<Float>>) {
        for x in 0..<sourceWidth {
            wide[x] = SIMD4(decode[Int(row[x * 3])], decode[Int(row[x * 3 + 1])], decode[Int(row[x * 3 + 2])], 0)
        }
        table.weights.withUnsafeBufferPointer { weights in
            table.starts.withUnsafeBufferPointer { starts in
                table.counts.withUnsafeBufferPointer { counts in
                    for x in 0..<counts.count {
                        let w = weights.baseAddress! + x * table.taps
                        var pixel = wide + starts[x]
                        var total = SIMD4<Float>.zero
                        for tap in 0..<counts[x] {
                            total += pixel.pointee * w[tap]
                            pixel += 1
                        }
                        target[x] = total
                    }
                }
            }
        }
    }

    /// Sums ring rows `start ..< start + count` (source row numbers), weighted, into `sum`.
    @inline(__always)
    private static func combineRows(_ ring: UnsafeMutablePointer<SIMD4<Float>>, _ ringRows: Int, _ width: Int,
                                    _ start: Int, _ count: Int, _ weights: [Float], _ weightOffset: Int,
                                    _ sum: UnsafeMutablePointer<SIMD4<Float>>) {
        let first = ring + (start % ringRows) * width
        let w0 = weights[weightOffset]
        for x in 0..<width { sum[x] = first[x] * w0 }
        for tap in 1..<max(1, count) {
            let row = ring + ((start + tap) % ringRows) * width
            let weight = weights[weightOffset + tap]
            for x in 0..<width { sum[x] += row[x] * weight }
        }
    }
}

/// A rectangle of a bitmap in fractional pixel coordinates: the part of it a resize maps onto the output.
package struct SourceRegion: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package func isWhole(of bitmap: Bitmap) -> Bool {
        x == 0 && y == 0 && width == Double(bitmap.width) && height == Double(bitmap.height)
    }

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A transfer curve as two tables: byte to Float (0…1), and 0…`steps` back to a byte.
package struct Transfer {
    /// Quantisation of the output; 4096 steps keep every dark sRGB tone exact through linear light.
    package static let steps: Float = 4095
    package let decode: [Float]
    package let encode: [UInt8]

    /// sRGB (IEC 61966-2-1): filtering happens in linear light.
    package static let sRGB = Transfer(
        decode: (0..<256).map { value in
            let c = Double(value) / 255
            return Float(c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4))
        },
        encode: (0...Int(steps)).map { step in
            let linear = Double(step) / Double(steps)
            let c = linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (c * 255).rounded())))
        })

    /// No curve: filtering happens on the stored values.
    package static let identity = Transfer(
        decode: (0..<256).map { Float($0) / 255 },
        encode: (0...Int(steps)).map { UInt8((Double($0) * 255 / Double(steps)).rounded()) })
}

/// Lanczos3 weights for mapping `source` samples onto `target` samples along one axis.
package struct FilterTable {
    package let taps: Int
    package var starts: [Int]
    package var counts: [Int]
    package var weights: [Float]

    package static let radius = 3.0

    package static func lanczos3(_ x: Double) -> Double {
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
        starts = [Int](repeating: 0, count: target)
        counts = [Int](repeating: 0, count: target)
        weights = [Float](repeating: 0, count: target * taps)
        var local = [Double](repeating: 0, count: source)
        for out in 0..<target {
            let center = start + (Double(out) + 0.5) * scale - 0.5
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
