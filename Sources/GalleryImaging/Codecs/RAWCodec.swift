import CLibRaw
import Foundation
import GalleryModel

/// Camera raw files (DNG, CR2, CR3, NEF, ARW, ORF, RAF, RW2, PEF) through LibRaw, the only file that
/// imports it.
///
/// LibRaw's C API returns codes and never jumps; the thread-safe build (`libraw_r`) is used, one
/// `libraw_data_t` per call, reading the file from memory. A raw is either published from the preview
/// the camera embedded (JPEG, or 8-bit RGB in some DNGs) or developed: the camera's white balance,
/// LibRaw's default AHD demosaic, sRGB, 8 bits. The developed bitmap is left in sensor orientation
/// (`user_flip` 0) and the camera's orientation is returned as EXIF orientation, which
/// `ImageProcessor` applies as it does for a JPEG.
package enum RAWCodec {
    /// What LibRaw reads without unpacking the sensor data.
    package struct Header: Sendable {
        /// The developed size, in sensor orientation.
        package var size: PixelSize
        /// EXIF orientation 1–8, from LibRaw's `flip`.
        package var orientation: Int
        package var camera: CameraInfo
        /// The capture time as ISO 8601, from LibRaw's reading of the file's date.
        package var takenAt: String?
        /// The largest embedded preview, in sensor orientation; nil when there is none that can be used.
        package var preview: PixelSize?
        /// XMP the file carries (DNGs written by Lightroom and the like), for the title and caption.
        package var xmp: Data?
    }

    /// An embedded preview, as the camera stored it.
    package enum Preview {
        case jpeg(Data)
        case bitmap(Bitmap)
    }

    /// The raw memory LibRaw may allocate for one file, in MB: a hostile header cannot claim more.
    private static let maxRawMemoryMB: UInt32 = 2048

    /// Whether LibRaw recognises `data` as a camera's raw file: a mosaic (or Foveon) sensor image or a
    /// DNG. A TIFF from a scanner or an editor is not one, though it may name a camera maker.
    static func isCameraRaw(_ data: Data) -> Bool {
        (try? withRaw(data) { raw in
            let idata = raw.pointee.idata
            return idata.filters != 0 || idata.dng_version != 0 || idata.is_foveon != 0
        }) ?? false
    }

    /// Reads the size, orientation, camera, date, preview size and XMP, unpacking no sensor data.
    /// - Throws: `ImagingError` when LibRaw cannot read the file.
    package static func header(_ data: Data) throws -> Header {
        try withRaw(data) { raw in
            // The camera's orientation, read before `user_flip` 0 (sizes as stored) overwrites it.
            let flip = raw.pointee.sizes.flip
            raw.pointee.params.user_flip = 0
            try check(libraw_adjust_sizes_info_only(raw), "reading its size")
            let sizes = raw.pointee.sizes
            let size = PixelSize(width: Int(sizes.iwidth), height: Int(sizes.iheight))
            guard size.width > 0, size.height > 0 else { throw ImagingError.format(.raw, "the file has no image size") }
            let idata = raw.pointee.idata
            let other = raw.pointee.other
            var camera = CameraInfo(make: text(idata.make), model: text(idata.model), lens: text(raw.pointee.lens.Lens))
            if other.focal_len > 0 { camera.focalLength = Double(other.focal_len) }
            if other.aperture > 0 { camera.aperture = Double(other.aperture) }
            if other.shutter > 0 { camera.exposureTime = Double(other.shutter) }
            if other.iso_speed >= 1 { camera.iso = Int(other.iso_speed.rounded()) }
            var xmp: Data?
            if let bytes = idata.xmpdata, idata.xmplen > 0, Int(idata.xmplen) <= TIFFCodec.maxMetadataBytes {
                xmp = Data(bytes: bytes, count: Int(idata.xmplen))
            }
            // The preview's true size is its JPEG's (what LibRaw's own fields say may come from a tag).
            var preview: PixelSize?
            if raw.pointee.thumbnail.twidth > 0, raw.pointee.thumbnail.theight > 0 {
                switch try? previewImage(raw) {
                case .jpeg(let jpeg)?: preview = try? JPEGCodec.header(jpeg).size
                case .bitmap(let bitmap)?: preview = PixelSize(width: bitmap.width, height: bitmap.height)
                case nil: preview = nil
                }
            }
            return Header(
                size: size, orientation: orientation(flip: flip), camera: camera, takenAt: date(other.timestamp),
                preview: preview, xmp: xmp)
        }
    }

    /// The version of LibRaw that develops raws, part of their derivatives' cache keys.
    package static var version: String { String(cString: libraw_version()) }

    /// The embedded preview, decoded by LibRaw only as far as finding it.
    /// - Throws: `ImagingError` when there is none or it cannot be read.
    package static func preview(_ data: Data) throws -> Preview {
        try withRaw(data) { raw in try previewImage(raw) }
    }

    private static func previewImage(_ raw: UnsafeMutablePointer<libraw_data_t>) throws -> Preview {
        try check(libraw_unpack_thumb(raw), "reading its preview")
        var code: Int32 = 0
        guard let image = libraw_dcraw_make_mem_thumb(raw, &code) else {
            throw ImagingError.format(.raw, message(code, "reading its preview"))
        }
        defer { libraw_dcraw_clear_mem(image) }
        let bytes = UnsafeRawBufferPointer(start: pointer(to: image), count: Int(image.pointee.data_size))
        switch image.pointee.type {
        case LIBRAW_IMAGE_JPEG:
            return .jpeg(Data(bytes))
        case LIBRAW_IMAGE_BITMAP where image.pointee.colors == 3 && image.pointee.bits == 8:
            return .bitmap(try bitmap(image, bytes))
        default:
            throw ImagingError.format(
                .raw,
                "its preview is in a form galleryssg does not read (neither JPEG nor 8-bit RGB)", kind: .unsupported)
        }
    }

    /// Develops the sensor data: the camera's white balance, sRGB, 8 bits, in sensor orientation.
    /// - Throws: `ImagingError` with LibRaw's reason for damaged or unsupported data.
    package static func develop(_ data: Data) throws -> Bitmap {
        try withRaw(data) { raw in
            raw.pointee.params.user_flip = 0
            raw.pointee.params.use_camera_wb = 1
            raw.pointee.params.output_color = 1  // sRGB
            raw.pointee.params.output_bps = 8
            try check(libraw_unpack(raw), "unpacking the sensor data")
            try check(libraw_dcraw_process(raw), "developing it")
            var code: Int32 = 0
            guard let image = libraw_dcraw_make_mem_image(raw, &code) else {
                throw ImagingError.format(.raw, message(code, "developing it"))
            }
            defer { libraw_dcraw_clear_mem(image) }
            guard image.pointee.type == LIBRAW_IMAGE_BITMAP, image.pointee.colors == 3, image.pointee.bits == 8 else {
                throw ImagingError.format(.raw, "LibRaw developed it in an unexpected form", kind: .toolFailed)
            }
            return try bitmap(
                image, UnsafeRawBufferPointer(start: pointer(to: image), count: Int(image.pointee.data_size)))
        }
    }

    /// Opens `data` in a fresh LibRaw instance for `body`, and releases it after.
    private static func withRaw<T>(_ data: Data, _ body: (UnsafeMutablePointer<libraw_data_t>) throws -> T) throws -> T
    {
        guard let raw = libraw_init(0) else {
            throw ImagingError.format(.raw, "LibRaw could not start (out of memory)", kind: .toolFailed)
        }
        defer { libraw_close(raw) }
        // Both in CLibRaw's shim.h, which bridges LibRaw 0.20 (Debian 12) and 0.21 (Debian 13).
        galleryssg_libraw_set_max_raw_memory_mb(raw, maxRawMemoryMB)
        // Failures come back as codes only, not also printed to stderr; galleryssg words them once.
        galleryssg_libraw_silence(raw)
        return try data.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                throw ImagingError.format(.raw, "the file is empty")
            }
            // LibRaw reads the buffer only; its C signature takes a mutable pointer.
            try check(libraw_open_buffer(raw, UnsafeMutableRawPointer(mutating: base), bytes.count), "opening it")
            return try body(raw)
        }
    }

    /// The pixels of a processed image: the flexible array member that follows its header.
    private static func pointer(to image: UnsafeMutablePointer<libraw_processed_image_t>) -> UnsafeRawPointer {
        UnsafeRawPointer(image).advanced(by: MemoryLayout<libraw_processed_image_t>.offset(of: \.data)!)
    }

    private static func bitmap(_ image: UnsafeMutablePointer<libraw_processed_image_t>, _ bytes: UnsafeRawBufferPointer)
        throws -> Bitmap
    {
        let width = Int(image.pointee.width)
        let height = Int(image.pointee.height)
        guard width > 0, height > 0, bytes.count >= width * height * 3 else {
            throw ImagingError.format(.raw, "LibRaw returned a truncated image")
        }
        return Bitmap(width: width, height: height, pixels: [UInt8](bytes.prefix(width * height * 3)))
    }

    private static func check(_ code: Int32, _ step: String) throws {
        guard code == LIBRAW_SUCCESS.rawValue else { throw ImagingError.format(.raw, message(code, step)) }
    }

    /// LibRaw's reason for a failed step, in words a photographer can act on, with LibRaw's own after it:
    /// "LibRaw failed unpacking the sensor data: the file ends early or is damaged (Input/output error)".
    private static func message(_ code: Int32, _ step: String) -> String {
        let own = String(cString: libraw_strerror(code))
        let words: String
        switch code {
        case LIBRAW_IO_ERROR.rawValue, LIBRAW_DATA_ERROR.rawValue:
            words = "the file ends early or is damaged; copy it from the card again"
        case LIBRAW_FILE_UNSUPPORTED.rawValue:
            words = "LibRaw \(version) does not know this file's format or camera; export a JPEG or TIFF beside it"
        case LIBRAW_UNSUFFICIENT_MEMORY.rawValue, LIBRAW_TOO_BIG.rawValue, LIBRAW_MEMPOOL_OVERFLOW.rawValue:
            words = "it needs more memory than the \(maxRawMemoryMB) MB a raw may take"
        default: return "LibRaw failed \(step): \(own)"
        }
        return "LibRaw failed \(step): \(words) (\(own))"
    }

    /// LibRaw's `flip` (dcraw's: 1 mirror, 2 flip, 4 transpose) as EXIF orientation.
    private static func orientation(flip: Int32) -> Int {
        [1, 2, 4, 3, 5, 8, 6, 7][Int(flip) & 7]
    }

    /// LibRaw turns the file's local date into a `time_t` with `mktime`; `localtime_r` turns it back
    /// into the fields the camera wrote, whatever the machine's time zone.
    private static func date(_ timestamp: time_t) -> String? {
        guard timestamp > 0 else { return nil }
        var time = timestamp
        var fields = tm()
        guard localtime_r(&time, &fields) != nil else { return nil }
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1,
            Int(fields.tm_mday), Int(fields.tm_hour), Int(fields.tm_min), Int(fields.tm_sec))
    }

    /// A fixed C string field as text; nil when empty.
    private static func text<T>(_ field: T) -> String? {
        let value = withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return value.isEmpty ? nil : value
    }
}
