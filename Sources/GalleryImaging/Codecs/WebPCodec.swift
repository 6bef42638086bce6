import CWebP
import Foundation
import GalleryModel

/// Encodes lossy WebP derivatives and decodes WebP originals with libwebp and libwebpdemux, the
/// only file that imports them.
///
/// libwebp's simple APIs return a length or a pointer (0 or NULL on failure) and never jump, so
/// Swift can call them directly. WebP output is optional (`images.webp`): pages offer it through
/// `<picture>` and keep the progressive JPEG as the fallback, so browsers without WebP lose nothing.
/// WebP originals go through the demuxer, which validates the RIFF container, hands out the
/// `EXIF`, `XMP ` and `ICCP` chunks, and gives an animation's first frame without the others.
enum WebPCodec {
    /// The largest metadata chunk kept; real ones are a few kilobytes.
    static let maxMetadataBytes = 4 << 20

    /// Reads the canvas size and the metadata chunks, decoding no pixels.
    /// - Throws: `ImagingError` when the container is not a readable WebP.
    static func header(_ data: Data) throws -> ImageHeader {
        try withDemuxer(data) { demuxer in
            let size = PixelSize(
                width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
                height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
            guard size.width > 0, size.height > 0 else { throw ImagingError.format(.webp, "the canvas has no size") }
            let metadata = MetadataBlocks(exif: chunk("EXIF", demuxer), xmp: chunk("XMP ", demuxer))
            var header = ImageHeader(
                size: size, iccProfile: chunk("ICCP", demuxer).map(ICCProfile.init), metadata: metadata)
            header.animated = WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT) > 1
            return header
        }
    }

    /// Decodes the first frame onto the canvas, compositing transparency over `background`.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    static func decode(_ data: Data, background: RGB) throws -> Bitmap {
        try withDemuxer(data) { demuxer in
            let width = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH))
            let height = Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT))
            var frame = WebPIterator()
            guard width > 0, height > 0, WebPDemuxGetFrame(demuxer, 1, &frame) != 0 else {
                throw ImagingError.format(.webp, "no frame to decode")
            }
            defer { WebPDemuxReleaseIterator(&frame) }
            let x = Int(frame.x_offset)
            let y = Int(frame.y_offset)
            let frameWidth = Int(frame.width)
            let frameHeight = Int(frame.height)
            guard frame.complete != 0, frameWidth > 0, frameHeight > 0, x >= 0, y >= 0,
                x + frameWidth <= width, y + frameHeight <= height
            else {
                throw ImagingError.format(.webp, "the first frame is incomplete or outside the canvas")
            }
            var rgba = [UInt8](repeating: 0, count: width * height * 4)  // transparent outside the frame
            let decoded = rgba.withUnsafeMutableBufferPointer { out in
                // Decode straight into the frame's place on the canvas: its rows are a canvas row apart.
                WebPDecodeRGBAInto(
                    frame.fragment.bytes, frame.fragment.size, out.baseAddress! + (y * width + x) * 4,
                    out.count - (y * width + x) * 4, Int32(width * 4))
            }
            guard decoded != nil else { throw ImagingError.format(.webp, "the image data is corrupt or truncated") }
            return rgba.withUnsafeBytes {
                Bitmap.compositing(rgba: $0, width: width, height: height, rowBytes: width * 4, over: background)
            }
        }
    }

    /// Counts an animation's frames (up to `maxFrames`) and adds up their durations from the
    /// container, decoding no pixel. A duration of 10 ms or less counts as 100 ms, as browsers show it.
    /// - Throws: `ImagingError` when the container is not a readable WebP.
    static func timing(_ data: Data, maxFrames: Int) throws -> AnimationTiming {
        try withDemuxer(data) { demuxer in
            let count = min(Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT)), maxFrames)
            var timing = AnimationTiming(frames: 0, seconds: 0)
            var frame = WebPIterator()
            for number in 0..<count where WebPDemuxGetFrame(demuxer, Int32(number + 1), &frame) != 0 {
                timing.add(milliseconds: AnimationTiming.shown(milliseconds: Int(frame.duration)))
                WebPDemuxReleaseIterator(&frame)
            }
            return timing
        }
    }

    /// Decodes an animation's frames in order with libwebpdemux's animation decoder (which applies
    /// each frame's blending and disposal), each the whole canvas composited over `background`, and
    /// hands each to `body` with its duration in milliseconds as stored; `body` returns false to stop.
    /// Only one canvas is held at a time, whatever the number of frames.
    /// - Throws: `ImagingError` for corrupt or truncated data, or what `body` throws.
    static func frames(
        _ data: Data, background: RGB, _ body: (Bitmap, _ milliseconds: Int) throws -> Bool
    ) throws {
        try data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
                throw ImagingError.format(.webp, "the file is empty")
            }
            var webpData = WebPData(bytes: base, size: raw.count)
            var options = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&options) != 0 else {
                throw ImagingError.format(.webp, "libwebpdemux refused its options", kind: .toolFailed)
            }
            options.color_mode = MODE_RGBA
            options.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
                throw ImagingError.format(.webp, "not a readable animation (damaged or truncated)")
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0, info.canvas_width > 0, info.canvas_height > 0 else {
                throw ImagingError.format(.webp, "the animation has no canvas")
            }
            let width = Int(info.canvas_width)
            let height = Int(info.canvas_height)
            var previous: Int32 = 0
            while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                var pixels: UnsafeMutablePointer<UInt8>?
                var timestamp: Int32 = 0
                guard WebPAnimDecoderGetNext(decoder, &pixels, &timestamp) != 0, let pixels else {
                    throw ImagingError.format(.webp, "a frame of the animation is corrupt or truncated")
                }
                let canvas = Bitmap.compositing(
                    rgba: UnsafeRawBufferPointer(start: pixels, count: width * height * 4), width: width,
                    height: height, rowBytes: width * 4, over: background)
                // The decoder gives each frame's end time; the difference is its stored duration.
                let duration = Int(timestamp - previous)
                previous = timestamp
                guard try body(canvas, duration) else { return }
            }
        }
    }

    private static func withDemuxer<T>(_ data: Data, _ body: (OpaquePointer) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else {
                throw ImagingError.format(.webp, "the file is empty")
            }
            var webpData = WebPData(bytes: base, size: raw.count)
            guard let demuxer = WebPDemux(&webpData) else {
                throw ImagingError.format(.webp, "not a valid WebP container (damaged or truncated)")
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
    static func encode(_ bitmap: Bitmap, quality: Int) throws -> Data {
        guard bitmap.width <= 16383, bitmap.height <= 16383 else {
            throw ImagingError.format(
                .webp,
                "\(bitmap.width)×\(bitmap.height) is over WebP's 16383 px limit", kind: .unsupported)
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = bitmap.pixels.withUnsafeBufferPointer { pixels in
            WebPEncodeRGB(
                pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.width * 3),
                Float(quality), &output)
        }
        defer { if let output { WebPFree(output) } }
        guard length > 0, let output else { throw ImagingError.format(.webp, "encoding failed", kind: .toolFailed) }
        return Data(bytes: output, count: length)
    }
}
