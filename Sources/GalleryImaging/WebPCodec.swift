import CWebP
import Foundation
import GalleryConfig
import GalleryModel

/// Encodes lossy WebP derivatives and decodes WebP originals with libwebp and libwebpdemux, the
/// only file that imports them.
///
/// libwebp's simple APIs return a length or a pointer (0 or NULL on failure) and never jump, so
/// Swift can call them directly. WebP output is optional (`images.webp`): pages offer it through
/// `<picture>` and keep the progressive JPEG as the fallback, so browsers without WebP lose nothing.
/// WebP originals go through the demuxer, which validates the RIFF container, hands out the
/// `EXIF`, `XMP ` and `ICCP` chunks, and gives an animation's first frame without the others.
package enum WebPCodec {
    /// The largest metadata chunk kept; real ones are a few kilobytes.
    package static let maxMetadataBytes = 4 << 20

    /// Reads the canvas size and the metadata chunks, decoding no pixels.
    /// - Throws: `ImagingError` when the container is not a readable WebP.
    package static func header(_ data: Data) throws -> ImageHeader {
        try withDemuxer(data) { demuxer in
            let size = PixelSize(
                width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
            guard size.width > 0, size.height > 0 else { throw ImagingError.webp("the canvas has no size") }
            let metadata = MetadataBlocks(exif: chunk("EXIF", demuxer), xmp: chunk("XMP ", demuxer))
            return ImageHeader(size: size, iccProfile: chunk("ICCP", demuxer).map(ICCProfile.init), metadata: metadata)
        }
    }

    /// Decodes the first frame onto the canvas, compositing transparency over `background`.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    package static func decode(_ data: Data, background: RGB) throws -> Bitmap {
        try withDemuxer(data) { demuxer in
            let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            var frame = WebPIterator()
            guard width > 0, height > 0, WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else {
                throw ImagingError.webp("no frame to decode")
            }
            defer { WebPDemuxReleaseIterator(&frame) }
            let x = Int(frame.x_offset)
            let y = Int(frame.y_offset)
            let frameWidth = Int(frame.width)
            let frameHeight = Int(frame.height)
            guard frame.complete != 0, frameWidth > 0, frameHeight > 0, x >= 0, y >= 0,
                x + frameWidth <= width, y + frameHeight <= height
            else {
                throw ImagingError.webp("the first frame is incomplete or outside the canvas")
            }
            var rgba = [UInt8](repeating: 0, count: width * height * 4)  // transparent outside the frame
            let decoded = rgba.withUnsafeMutableBufferPointer { out in
                // Decode straight into the frame's place on the canvas: its rows are a canvas row apart.
                WebPDecodeRGBAInto(
                    frame.fragment.bytes, frame.fragment.size, out.baseAddress! + (y * width + x) * 4,
                    out.count - (y * width + x) * 4, Int32(width * 4))
            }
            guard decoded != nil else { throw ImagingError.webp("the image data is corrupt or truncated") }
            return rgba.withUnsafeBytes {
                Bitmap.compositing(rgba: $0, width: width, height: height, rowBytes: width * 4, over: background)
            }
        }
    }

    private static func withDemuxer<T>(_ data: Data, _ body: (OpaquePointer) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
                throw ImagingError.webp("the file is empty")
            }
            var webpData = WebPData(bytes: base, size: raw.count)
            guard let demuxer = WebPDemux(&webpData) else {
                throw ImagingError.webp("not a valid WebP container (damaged or truncated)")
            }
            defer { WebPDemuxDelete(demuxer) }
            return try body(demuxer)
        }
    }

    /// The first chunk with this four-character code, copied out, if it is present and not too large.
    private static func chunk(_ fourcc: String, _ demuxer: OpaquePointer) -> Data? {
        var iterator = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, fourcc, 1, &iterator) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&iterator) }
        guard let bytes = iterator.chunk.bytes, iterator.chunk.size > 0, iterator.chunk.size <= maxMetadataBytes else {
            return nil
        }
        return Data(bytes: bytes, count: iterator.chunk.size)
    }

    /// Encodes packed RGB at `quality` (1–100, libwebp's scale, close to JPEG's for the same look).
    /// - Throws: `ImagingError` if libwebp refuses the picture (for example over 16383 px a side).
    package static func encode(_ bitmap: Bitmap, quality: Int) throws -> Data {
        guard bitmap.width <= 16383, bitmap.height <= 16383 else {
            throw ImagingError.webp(
                "\(bitmap.width)×\(bitmap.height) is over WebP's 16383 px limit", kind: .unsupported)
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = bitmap.pixels.withUnsafeBufferPointer { pixels in
            WebPEncodeRGB(
                pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 3),
                Float(quality), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard length > 0, let output else { throw ImagingError.webp("encoding failed", kind: .toolFailed) }
        return Data(bytes: output, count: length)
    }
}
