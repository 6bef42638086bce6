/// A light unsharp mask for derivatives that were reduced a lot (`images.sharpen`).
///
/// A large reduction through any low-pass filter, Lanczos3 included, leaves small images a little
/// soft next to the original seen at a distance; photo exporters (Lightroom's "sharpen for screen")
/// add a touch of sharpening back. This adds `amount × (pixel − blur)`, where the blur is the
/// 3×3 binomial kernel (1 2 1 / 2 4 2 / 1 2 1) with edges clamped. The work is one pass over the
/// small output, in integer arithmetic over unsafe row pointers.
package enum Sharpener {
    /// Reductions at least this large (original long edge over derivative long edge) get sharpened.
    static let minimumReduction = 3.0

    /// Returns `bitmap` sharpened by `amount` (0…1); 0 returns it unchanged.
    package static func sharpen(_ bitmap: Bitmap, amount: Double) -> Bitmap {
        guard amount > 0, bitmap.width >= 3, bitmap.height >= 3 else { return bitmap }
        let width = bitmap.width
        let height = bitmap.height
        let stride = width * 3
        // amount in 1/256ths; the blur's weights sum to 16, so the difference is in 1/16ths.
        let gain = Int32((amount * 256).rounded())
        var output = PixelBuffers.take(bitmap.pixels.count)  // every byte is written below
        bitmap.pixels.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                let base = input.baseAddress!
                for y in 0..<height {
                    let above = base + max(y - 1, 0) * stride
                    let row = base + y * stride
                    let below = base + min(y + 1, height - 1) * stride
                    let target = out.baseAddress! + y * stride
                    for x in 0..<width {
                        let left = max(x - 1, 0) * 3
                        let center = x * 3
                        let right = min(x + 1, width - 1) * 3
                        for c in 0..<3 {
                            func at(_ pointer: UnsafePointer<UInt8>, _ offset: Int) -> Int32 {
                                Int32(pointer[offset + c])
                            }
                            let middle = at(row, center)
                            let blur16 =
                                at(above, left) + 2 * at(above, center) + at(above, right)
                                + 2 * at(row, left) + 4 * middle + 2 * at(row, right)
                                + at(below, left) + 2 * at(below, center) + at(below, right)
                            let detail = middle * 16 - blur16  // (pixel − blur) × 16
                            let value = middle + (detail * gain + (1 << 11)) >> 12  // ÷ 16 ÷ 256, rounded
                            target[center + c] = UInt8(clamping: value)
                        }
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: output)
    }
}
