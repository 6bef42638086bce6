import CPNG
import Foundation
import GalleryModel

/// PNG decoding through libpng's simplified `png_image_*` API, the only file that imports libpng.
///
/// The simplified API reports errors in `png_image.message` instead of longjmp-ing through Swift
/// frames. It also handles every PNG colour type, bit depth, palette, tRNS and interlacing, and
/// reduces 16-bit samples to 8-bit sRGB.
package enum PNGCodec {
    /// Reads the header without decoding pixels.
    /// - Throws: `ImagingError` when the data is not a readable PNG.
    package static func size(_ data: Data) throws -> PixelSize {
        try checkChunkLengths(data)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        let ok = data.withUnsafeBytes { raw in
            png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count)
        }
        guard ok != 0 else { throw ImagingError.format(.png, message(of: &image)) }
        return PixelSize(width: Int(image.width), height: Int(image.height))
    }

    /// Decodes to 8-bit RGB, compositing any transparency over `background`.
    /// - Throws: `ImagingError` for corrupt data, with libpng's own reason.
    package static func decode(_ data: Data, background: RGB) throws -> Bitmap {
        try checkChunkLengths(data)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        return try data.withUnsafeBytes { raw in
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                throw ImagingError.format(.png, message(of: &image))
            }
            image.format = UInt32(PNG_FORMAT_FLAG_COLOR)
            let width = Int(image.width)
            let height = Int(image.height)
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            var color = png_color(red: background.red, green: background.green, blue: background.blue)
            let ok = pixels.withUnsafeMutableBytes { out in
                png_image_finish_read(&image, &color, out.baseAddress, Int32(width * 3), nil)
            }
            guard ok != 0 else { throw ImagingError.format(.png, message(of: &image)) }
            return Bitmap(width: width, height: height, pixels: pixels)
        }
    }

    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unreadable PNG data" : text
    }
}
