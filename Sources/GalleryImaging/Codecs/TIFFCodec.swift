import CTIFF
import Foundation
import GalleryModel

/// TIFF decoding through libtiff, the only file that imports it.
///
/// libtiff reports errors through handlers and return codes, never by jumping. The file is read
/// from memory through `TIFFClientOpenExt`, with per-file error and warning handlers that collect
/// messages instead of printing them, and a cap on any single allocation. Only the first image
/// (IFD0) is read. Pixels come through libtiff's RGBA interface, which handles 8- and 16-bit RGB,
/// grey, palette, YCbCr and CMYK, every compression libtiff knows, strips and tiles, and alpha.
/// It is asked for the rows as stored, so the TIFF Orientation tag is applied once, as EXIF
/// orientation, by `ImageProcessor`, as for JPEG.
package enum TIFFCodec {
    /// The largest allocation libtiff may make for one strip, tile or tag: a hostile file cannot
    /// claim gigabytes for data it does not contain.
    static let maxSingleAllocation = 1 << 30
    /// The largest ICC profile, XMP packet, IPTC block or resource block kept.
    static let maxMetadataBytes = 4 << 20

    /// Reads IFD0's size, ICC profile (tag 34675), XMP (700), IPTC (33723) and Photoshop's image
    /// resources (34377: the IPTC digest, and the IPTC where there is no tag 33723), decoding no
    /// pixels. The file itself is the EXIF block: its IFD0 holds Orientation, Make and Model, and
    /// its EXIF IFD the exposure.
    /// - Throws: `ImagingError` when the file is not a readable TIFF.
    package static func header(_ data: Data) throws -> ImageHeader {
        try withTIFF(data) { tiff, _ in
            guard let width = uint32(tiff, TIFFTAG_IMAGEWIDTH), let height = uint32(tiff, TIFFTAG_IMAGELENGTH),
                width > 0, height > 0
            else { throw ImagingError.format(.tiff, "the first image has no size") }
            let metadata = MetadataBlocks(
                exif: data, xmp: block(tiff, TIFFTAG_XMLPACKET), iptc: iptc(tiff),
                photoshop: block(tiff, TIFFTAG_PHOTOSHOP))
            return ImageHeader(
                size: PixelSize(width: Int(width), height: Int(height)),
                iccProfile: block(tiff, TIFFTAG_ICCPROFILE).map(ICCProfile.init), metadata: metadata)
        }
    }

    /// Decodes IFD0 to 8-bit RGB in stored row order (16-bit samples are reduced to 8 bits),
    /// compositing any alpha over `background`.
    /// - Throws: `ImagingError` with libtiff's reason for corrupt data or an unsupported layout
    ///   (such as 32-bit or floating-point samples).
    package static func decode(_ data: Data, background: RGB) throws -> Bitmap {
        try withTIFF(data) { tiff, log in
            var reason = [CChar](repeating: 0, count: 1024)
            var image = TIFFRGBAImage()
            guard TIFFRGBAImageOK(tiff, &reason) != 0, TIFFRGBAImageBegin(&image, tiff, 1, &reason) != 0 else {
                throw ImagingError.format(.tiff, text(reason), kind: .unsupported)
            }
            defer { TIFFRGBAImageEnd(&image) }
            image.req_orientation = image.orientation  // rows as stored: no flips
            let columns = image.width
            let rows = image.height
            let width = Int(columns)
            let height = Int(rows)
            guard width > 0, height > 0 else { throw ImagingError.format(.tiff, "the first image has no size") }
            // ABGR words: red in the low byte on every platform libtiff supports; alpha is associated.
            var raster = [UInt32](repeating: 0, count: width * height)
            guard TIFFRGBAImageGet(&image, &raster, columns, rows) != 0 else {
                throw ImagingError.format(
                    .tiff,
                    "\(log.errors.first ?? "the image data cannot be read") (the file is damaged or truncated)")
            }
            for index in raster.indices { raster[index] = UInt32(littleEndian: raster[index]) }
            return raster.withUnsafeBytes {
                Bitmap.compositing(
                    rgba: $0, width: width, height: height, rowBytes: width * 4, premultiplied: true, over: background)
            }
        }
    }

    /// Messages libtiff reported for one file; warnings (unknown tags and the like) are dropped.
    private final class Log {
        var errors: [String] = []
    }

    /// The bytes libtiff reads through the client callbacks.
    private final class Source {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static let silenced: Void = {
        // Any message not sent through a file's own handlers would go to stderr.
        TIFFSetErrorHandler(nil)
        TIFFSetWarningHandler(nil)
    }()

    private static func withTIFF<T>(_ data: Data, _ body: (OpaquePointer, Log) throws -> T) throws -> T {
        _ = silenced
        let log = Log()
        guard let options = TIFFOpenOptionsAlloc() else {
            throw ImagingError.format(.tiff, "cannot start the decoder", kind: .toolFailed)
        }
        defer { TIFFOpenOptionsFree(options) }
        TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxSingleAllocation))
        return try withExtendedLifetime(log) {
            let logPointer = Unmanaged.passUnretained(log).toOpaque()
            TIFFOpenOptionsSetErrorHandlerExtR(
                options,
                { _, user, module, format, arguments in
                    guard let user, let format, let arguments else { return 1 }
                    var text = [CChar](repeating: 0, count: 512)
                    _ = vsnprintf(&text, text.count, format, arguments)
                    let prefix = module.map { String(cString: $0) + ": " } ?? ""
                    Unmanaged<Log>.fromOpaque(user).takeUnretainedValue().errors.append(prefix + TIFFCodec.text(text))
                    return 1
                }, logPointer)
            TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, nil)
            return try data.withUnsafeBytes { raw in
                let source = Source(raw)
                return try withExtendedLifetime(source) {
                    let handle = Unmanaged.passUnretained(source).toOpaque()
                    let opened = TIFFClientOpenExt(
                        "original", "rm", handle,
                        { handle, buffer, wanted in
                            let source = TIFFCodec.reader(handle)
                            let count = max(0, min(Int(wanted), source.bytes.count - source.offset))
                            if count > 0, let buffer, let base = source.bytes.baseAddress {
                                buffer.copyMemory(from: base + source.offset, byteCount: count)
                            }
                            source.offset += count
                            return tmsize_t(count)
                        }, { _, _, _ in 0 },
                        { handle, offset, whence in
                            TIFFCodec.seek(TIFFCodec.reader(handle), offset, whence)
                        }, { _ in 0 },
                        { handle in
                            toff_t(TIFFCodec.reader(handle).bytes.count)
                        }, { _, _, _ in 0 }, { _, _, _ in }, options)
                    guard let tiff = opened else {
                        throw ImagingError.format(
                            .tiff,
                            "\(log.errors.first ?? "not a readable TIFF") (the file is damaged or truncated)")
                    }
                    defer { TIFFClose(tiff) }
                    return try body(tiff, log)
                }
            }
        }
    }

    /// A NUL-terminated C string buffer as text.
    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func reader(_ handle: thandle_t?) -> Source {
        Unmanaged<Source>.fromOpaque(handle!).takeUnretainedValue()
    }

    /// Moves the read position as `lseek` does; `toff_t.max` (-1) for a position before the start.
    private static func seek(_ source: Source, _ offset: toff_t, _ whence: Int32) -> toff_t {
        let base: Int
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = source.offset
        case SEEK_END: base = source.bytes.count
        default: return toff_t.max
        }
        let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: offset))
        guard !overflow, target >= 0 else { return toff_t.max }
        source.offset = target
        return toff_t(target)
    }

    private static func uint32(_ tiff: OpaquePointer, _ tag: Int32) -> UInt32? {
        var value: UInt32 = 0
        let found = withUnsafeMutablePointer(to: &value) { pointer in
            withVaList([pointer]) { TIFFVGetField(tiff, UInt32(tag), $0) }
        }
        return found == 1 ? value : nil
    }

    /// Tag 33723's IIM, as the file stores its bytes, whether the tag is typed UNDEFINED, BYTE or
    /// LONG (as Photoshop and ExifTool write it). libtiff hands a LONG tag back as bytes, with the
    /// count in bytes, but in a file of the other byte order than the machine's (a big-endian `MM`
    /// file here) it has first swapped each 32-bit word, which scrambles the IIM: its first byte,
    /// always the 0x1C marker every dataset starts with, then stands fourth. Those words are swapped
    /// back, so the bytes are the file's, as ExifTool reads them.
    private static func iptc(_ tiff: OpaquePointer) -> Data? {
        guard let bytes = block(tiff, TIFFTAG_RICHTIFFIPTC) else { return nil }
        guard TIFFIsByteSwapped(tiff) != 0, bytes.count % 4 == 0, bytes[0] != 0x1C, bytes[3] == 0x1C else {
            return bytes
        }
        var words = [UInt8](bytes)
        for start in stride(from: 0, to: words.count, by: 4) { words[start..<start + 4].reverse() }
        return Data(words)
    }

    /// A counted byte tag (ICC profile, XMP packet, IPTC block, image resources), copied out of
    /// libtiff's directory.
    private static func block(_ tiff: OpaquePointer, _ tag: Int32) -> Data? {
        var count: UInt32 = 0
        var bytes: UnsafeMutableRawPointer?
        let found = withUnsafeMutablePointer(to: &count) { countPointer in
            withUnsafeMutablePointer(to: &bytes) { bytesPointer in
                withVaList([countPointer, bytesPointer]) { TIFFVGetField(tiff, UInt32(tag), $0) }
            }
        }
        guard found == 1, let bytes, count > 0, Int(count) <= maxMetadataBytes else { return nil }
        return Data(bytes: bytes, count: Int(count))
    }
}
