import CWebP
import Foundation

/// Encodes lossy WebP with libwebp, the only file that imports it.
///
/// libwebp's simple encoding API returns a length (0 on failure) and never jumps, so Swift can call
/// it directly. WebP is optional (`images.webp`): pages offer it through `<picture>` and keep the
/// progressive JPEG as the fallback, so browsers without WebP lose nothing.
enum WebPCodec {
    /// Encodes packed RGB at `quality` (1–100, libwebp's scale, close to JPEG's for the same look).
    /// - Throws: `ImagingError` if libwebp refuses the picture (for example over 16383 px a side).
    static func encode(_ bitmap: Bitmap, quality: Int) throws -> Data {
        guard bitmap.width <= 16383, bitmap.height <= 16383 else {
            throw ImagingError.webp("\(bitmap.width)×\(bitmap.height) is over WebP's 16383 px limit")
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = bitmap.pixels.withUnsafeBufferPointer { pixels in
            WebPEncodeRGB(pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 3),
                          Float(quality), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard length > 0, let output else { throw ImagingError.webp("encoding failed") }
        return Data(bytes: output, count: length)
    }
}
