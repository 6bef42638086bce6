import Foundation
import GalleryModel

/// The Float resampler the fixed-point one replaced: the same `FilterTable` (its Float weights), the
/// same ring of horizontally filtered rows, in `SIMD4<Float>` lanes, out through `Transfer`'s 4096 steps.
///
/// Kept for reductions of more than `floatBeyond` times, where Q14 weights get too coarse: at 1200×
/// (6000 px to 5) the largest weight is about 14/16384, each rounds by up to half a unit, and the
/// fixed-point result was 3–5 levels off this one (`FixedPointResamplerEdgeTests`). No derivative of
/// a build reduces that far in one step; the largest is the placeholder, about 17×.
extension Resampler {
    /// Resizes to `size` in Float, as every resize did before 2026-11-26. `resize` takes this path
    /// for reductions past `floatBeyond`; the tests hold the fixed-point path to it.
    package static func resizeFloat(
        _ source: Bitmap, to size: PixelSize, region: SourceRegion? = nil, linearLight: Bool = false
    ) -> Bitmap {
        let region = region ?? SourceRegion(x: 0, y: 0, width: Double(source.width), height: Double(source.height))
        if size.width == source.width && size.height == source.height && region.isWhole(of: source) { return source }
        let horizontal = FilterTable(source: source.width, target: size.width, start: region.x, extent: region.width)
        let vertical = FilterTable(source: source.height, target: size.height, start: region.y, extent: region.height)
        let transfer = linearLight ? Transfer.sRGB : Transfer.identity
        let width = size.width
        let ringRows = vertical.taps

        let wide = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: source.width)
        let ring = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: ringRows * width)
        let sum = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: width)
        var ringSource = [Int](repeating: -1, count: ringRows)  // the source row each ring slot holds
        defer {
            wide.deallocate()
            ring.deallocate()
            sum.deallocate()
        }

        var pixels = PixelBuffers.take(width * size.height * 3)  // every byte is written below
        source.pixels.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                transfer.decode.withUnsafeBufferPointer { decode in
                    transfer.encode.withUnsafeBufferPointer { encode in
                        for y in 0..<size.height {
                            let start = vertical.starts[y]
                            let count = vertical.counts[y]
                            for row in start..<(start + count) where ringSource[row % ringRows] != row {
                                filterRowFloat(
                                    input.baseAddress! + row * source.width * 3, source.width, horizontal,
                                    decode.baseAddress!, wide.baseAddress!, ring.baseAddress! + (row % ringRows) * width
                                )
                                ringSource[row % ringRows] = row
                            }
                            combineRowsFloat(
                                ring.baseAddress!, ringRows, width, start, count,
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
    private static func filterRowFloat(
        _ row: UnsafePointer<UInt8>, _ sourceWidth: Int, _ table: FilterTable,
        _ decode: UnsafePointer<Float>, _ wide: UnsafeMutablePointer<SIMD4<Float>>,
        _ target: UnsafeMutablePointer<SIMD4<Float>>
    ) {
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
    private static func combineRowsFloat(
        _ ring: UnsafeMutablePointer<SIMD4<Float>>, _ ringRows: Int, _ width: Int,
        _ start: Int, _ count: Int, _ weights: [Float], _ weightOffset: Int,
        _ sum: UnsafeMutablePointer<SIMD4<Float>>
    ) {
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
