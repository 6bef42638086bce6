import CGIF
import Foundation
import GalleryMetadata
import GalleryModel

/// GIF decoding through giflib's low-level record API, the only file that imports giflib.
///
/// giflib reports errors by return code and prints nothing. Only the first frame is read: the
/// records are walked up to the first image, whose rows are decoded one at a time, so an animation
/// with thousands of frames costs no more than a still (`DGifSlurp` would hold every frame). The
/// picture is the logical screen, grown to the first frame when that frame reaches outside it as
/// browsers do; what the frame leaves uncovered and its transparent colour show `images.background`.
/// An animation's other frames are counted and timed (`timing`) without decoding them: ffmpeg, which
/// reads GIF with its disposal methods, makes its clip (`VideoEncoder.animationClip`).
package enum GIFCodec {
    /// Reads the canvas size (screen and first frame), any XMP before the first frame and whether a
    /// second frame follows, decoding no pixels.
    /// - Throws: `ImagingError` when the file is not a readable GIF or has no image.
    package static func header(_ data: Data) throws -> ImageHeader {
        try withGIF(data) { gif in
            let frame = try firstFrame(gif)
            var header = ImageHeader(size: frame.canvas, metadata: MetadataBlocks(xmp: frame.xmp))
            // Damage after the first frame leaves a still: that frame is what a browser shows too.
            header.animated = (try? skipImageData(gif)).map { (try? nextImage(gif)) ?? false } ?? false
            return header
        }
    }

    /// Counts the frames and adds up their delays, walking the records without decoding a pixel, up
    /// to `maxFrames` frames. A delay of 0 or 0.01 s counts as 0.1 s, as browsers and ffmpeg show it.
    /// - Throws: `ImagingError` when the file is not a readable GIF.
    package static func timing(_ data: Data, maxFrames: Int) throws -> AnimationTiming {
        try withGIF(data) { gif in
            var delay = max(try firstFrame(gif).delay, 0)
            var timing = AnimationTiming(frames: 0, seconds: 0)
            while true {
                timing.add(milliseconds: AnimationTiming.shown(milliseconds: delay * 10))
                guard timing.frames < maxFrames, (try? skipImageData(gif)) != nil else { break }
                var next = -1
                guard (try? nextImage(gif, delay: &next)) == true else { break }
                delay = max(next, 0)
            }
            return timing
        }
    }

    /// Reads past the current frame's compressed data without decoding it.
    private static func skipImageData(_ gif: UnsafeMutablePointer<GifFileType>) throws {
        var size: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(gif, &size, &block) == GIF_OK else { throw error(gif, "the image data") }
        while block != nil {
            guard DGifGetCodeNext(gif, &block) == GIF_OK else { throw error(gif, "the image data") }
        }
    }

    /// Walks the records after a frame to the next image descriptor: true when there is one (its
    /// control block's delay in `delay`), false at the end of the file.
    private static func nextImage(_ gif: UnsafeMutablePointer<GifFileType>) throws -> Bool {
        var delay = -1
        return try nextImage(gif, delay: &delay)
    }

    private static func nextImage(_ gif: UnsafeMutablePointer<GifFileType>, delay: inout Int) throws -> Bool {
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { throw error(gif, "the records") }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw error(gif, "an extension") }
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                        delay = Int(control.DelayTime)
                    }
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw error(gif, "an extension") }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw error(gif, "the image descriptor") }
                return true
            default:
                return false
            }
        }
    }

    /// Decodes the first frame onto the canvas, transparent pixels and the rest showing `background`.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    package static func decode(_ data: Data, background: RGB) throws -> Bitmap {
        try withGIF(data) { gif in
            let frame = try firstFrame(gif)
            guard let map = gif.pointee.Image.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
                throw ImagingError.format(.gif, "the first frame has no colour table")
            }
            let colourCount = Int(map.pointee.ColorCount)
            let canvas = frame.canvas
            var pixels = [UInt8](repeating: 0, count: canvas.pixelCount * 3)
            for index in 0..<canvas.pixelCount {
                pixels[index * 3] = background.red
                pixels[index * 3 + 1] = background.green
                pixels[index * 3 + 2] = background.blue
            }
            var line = [GifPixelType](repeating: 0, count: frame.width)
            // Interlaced rows arrive in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
            let passes = gif.pointee.Image.Interlace ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
            for (start, step) in passes {
                for row in stride(from: start, to: frame.height, by: step) {
                    guard DGifGetLine(gif, &line, Int32(frame.width)) == GIF_OK else {
                        throw error(gif, "the image data")
                    }
                    let y = frame.top + row
                    for column in 0..<frame.width {
                        let index = Int(line[column])
                        guard index != frame.transparent, index < colourCount else { continue }
                        let colour = colours[index]
                        let target = (y * canvas.width + frame.left + column) * 3
                        pixels[target] = colour.Red
                        pixels[target + 1] = colour.Green
                        pixels[target + 2] = colour.Blue
                    }
                }
            }
            return Bitmap(width: canvas.width, height: canvas.height, pixels: pixels)
        }
    }

    /// Where the first frame lies on the canvas, its transparent palette index (-1 for none) and
    /// the XMP packet of an extension before it.
    private struct Frame {
        var canvas: PixelSize
        var left: Int, top: Int, width: Int, height: Int
        var transparent: Int
        var xmp: Data?
        /// Its control block's delay in hundredths of a second; -1 without one.
        var delay = -1
    }

    /// The application identifier of XMP in GIF (the XMP specification, part 3, 1.1.2).
    private static let xmpApplication = Array("XMP DataXMP".utf8)

    /// Walks the records up to the first image descriptor, noting the graphic control extension's
    /// transparent colour and an XMP application extension; leaves the decoder at that frame's pixels.
    ///
    /// XMP in GIF is stored raw after its identifier, its bytes read as sub-block lengths too, and
    /// ends with a 258-byte "magic trailer" (0x01, 0xFF … 0x00) that makes the walk end. So the
    /// packet is the sub-blocks joined with their length bytes, up to the trailer's 0x01, a byte
    /// XML text never holds. Programs write it before the first image, as ExifTool does; one after
    /// the first image is not read, since that would mean reading the whole animation.
    private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>) throws -> Frame {
        var transparent = -1
        var delay = -1
        var xmp: Data?
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else { throw error(gif, "the records") }
            switch type {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw error(gif, "an extension") }
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(Int(block[0]), block + 1, &control) == GIF_OK {
                        transparent = Int(control.TransparentColor)
                        delay = Int(control.DelayTime)
                    }
                }
                let isXMP =
                    code == APPLICATION_EXT_FUNC_CODE && xmp == nil
                    && block.map { Array(UnsafeBufferPointer(start: $0 + 1, count: Int($0[0]))) == xmpApplication }
                        == true
                var packet = Data()
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw error(gif, "an extension") }
                    if isXMP, let block, packet.count <= XMPReader.maxPacketBytes {
                        packet.append(UnsafeBufferPointer(start: block, count: Int(block[0]) + 1))
                    }
                }
                if isXMP { xmp = Data(packet.prefix { $0 != 0x01 }) }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw error(gif, "the image descriptor") }
                let image = gif.pointee.Image
                let left = Int(image.Left)
                let top = Int(image.Top)
                let width = Int(image.Width)
                let height = Int(image.Height)
                guard left >= 0, top >= 0, width > 0, height > 0 else {
                    throw ImagingError.format(.gif, "the first frame has no size")
                }
                let canvas = PixelSize(
                    width: max(Int(gif.pointee.SWidth), left + width),
                    height: max(Int(gif.pointee.SHeight), top + height))
                return Frame(
                    canvas: canvas, left: left, top: top, width: width, height: height, transparent: transparent,
                    xmp: xmp, delay: delay)
            case TERMINATE_RECORD_TYPE:
                throw ImagingError.format(.gif, "the file has no image")
            default:
                throw ImagingError.format(.gif, "unknown record (the file is damaged)")
            }
        }
    }

    /// The bytes giflib reads through its input callback.
    private final class Source {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static func withGIF<T>(_ data: Data, _ body: (UnsafeMutablePointer<GifFileType>) throws -> T) throws -> T {
        try data.withUnsafeBytes { raw in
            let source = Source(raw)
            return try withExtendedLifetime(source) {
                var code: Int32 = 0
                let opened = DGifOpen(
                    Unmanaged.passUnretained(source).toOpaque(),
                    { gif, buffer, wanted in
                        guard let gif, let user = gif.pointee.UserData, let buffer else { return 0 }
                        let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
                        let count = max(0, min(Int(wanted), source.bytes.count - source.offset))
                        if count > 0, let base = source.bytes.baseAddress {
                            UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: count)
                        }
                        source.offset += count
                        return Int32(count)
                    }, &code)
                guard let gif = opened else {
                    throw ImagingError.format(.gif, "\(text(code)) (the file is damaged or truncated)")
                }
                defer { DGifCloseFile(gif, &code) }
                return try body(gif)
            }
        }
    }

    private static func error(_ gif: UnsafeMutablePointer<GifFileType>, _ what: String) -> ImagingError {
        ImagingError.format(.gif, "cannot read \(what): \(text(gif.pointee.Error)) (the file is damaged or truncated)")
    }

    private static func text(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
