import CHeif
import Foundation
import GalleryModel

/// HEIC/HEIF and AVIF decoding, and AVIF derivatives, through libheif, the only file that imports it.
///
/// libheif reports errors as `heif_error` values and never jumps. Debian's libheif1 decodes HEVC
/// with libde265 and AV1 with dav1d or libaom; AVIF asks for libaom, because dav1d prints its
/// complaints about corrupt data to stderr and libheif 1.15 offers no way to install its logger.
/// Only the primary image is read. libheif applies the
/// file's own transformations (clean aperture, `irot` rotation, `imir` mirroring) while decoding,
/// and the HEIF specification makes those authoritative: the EXIF orientation a HEIF file carries
/// merely records the camera's, so `ImageProcessor` never applies it a second time, and the header
/// size is the transformed one.
package enum HEIFCodec {
    /// The largest metadata block or ICC profile read; real ones are a few kilobytes.
    static let maxMetadataBytes = 4 << 20

    /// Reads the primary image's size, profile and metadata, decoding no pixels.
    /// - Throws: `ImagingError` when the file is not a readable HEIF or AVIF.
    package static func header(_ data: Data) throws -> ImageHeader {
        try withPrimaryImage(data) { handle in
            let size = PixelSize(
                width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle)))
            guard size.width > 0, size.height > 0 else {
                throw ImagingError.format(.heif, "the primary image has no size")
            }
            var header = ImageHeader(size: size, iccProfile: profile(handle), metadata: metadata(handle))
            header.auxiliaryTypes = auxiliaryTypes(handle)
            return header
        }
    }

    /// The types of the primary image's auxiliary images other than alpha and depth; at most 16.
    private static func auxiliaryTypes(_ handle: OpaquePointer) -> [String] {
        let filter = Int32(LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH)
        let count = min(16, Int(heif_image_handle_get_number_of_auxiliary_images(handle, filter)))
        guard count > 0 else { return [] }
        var ids = [heif_item_id](repeating: 0, count: count)
        let listed = Int(heif_image_handle_get_list_of_auxiliary_image_IDs(handle, filter, &ids, Int32(count)))
        var types: [String] = []
        for id in ids.prefix(listed) {
            var auxiliary: OpaquePointer?
            guard heif_image_handle_get_auxiliary_image_handle(handle, id, &auxiliary).code == heif_error_Ok,
                let auxiliary
            else { continue }
            defer { heif_image_handle_release(auxiliary) }
            var type: UnsafePointer<CChar>?
            guard heif_image_handle_get_auxiliary_type(auxiliary, &type).code == heif_error_Ok, let text = type else {
                continue
            }
            types.append(String(cString: text))
            heif_image_handle_free_auxiliary_types(auxiliary, &type)
        }
        return types
    }

    /// Decodes the primary image to 8-bit RGB (high bit depths are reduced), transformed as the
    /// file says, compositing any alpha over `background`.
    /// - Parameter decoder: A libheif decoder id ("aom" for AVIF), or nil for libheif's choice.
    /// - Throws: `ImagingError` for corrupt data or a codec libheif lacks.
    package static func decode(_ data: Data, background: RGB, decoder: String? = nil) throws -> Bitmap {
        try withPrimaryImage(data) { handle in
            let alpha = heif_image_handle_has_alpha_channel(handle) != 0
            guard let options = heif_decoding_options_alloc() else {
                throw ImagingError.format(.heif, "cannot start the decoder", kind: .toolFailed)
            }
            defer { heif_decoding_options_free(options) }
            options.pointee.convert_hdr_to_8bit = 1
            var decoded: OpaquePointer?
            let chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
            let error = (decoder ?? "").withCString { id in
                options.pointee.decoder_id = decoder == nil ? nil : id
                defer { options.pointee.decoder_id = nil }
                return heif_decode_image(handle, &decoded, heif_colorspace_RGB, chroma, options)
            }
            try check(error)
            guard let image = decoded else { throw ImagingError.format(.heif, "the decoder returned no image") }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            let channels = alpha ? 4 : 3
            var stride: Int32 = 0
            guard width > 0, height > 0, heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
                let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
                Int(stride) >= width * channels
            else {
                throw ImagingError.format(.heif, "the decoder returned an unusable image")
            }
            let rows = UnsafeRawBufferPointer(start: plane, count: Int(stride) * (height - 1) + width * channels)
            if alpha {
                let premultiplied = heif_image_handle_is_premultiplied_alpha(handle) != 0
                return Bitmap.compositing(
                    rgba: rows, width: width, height: height, rowBytes: Int(stride),
                    premultiplied: premultiplied, over: background)
            }
            var pixels = [UInt8](repeating: 0, count: width * height * 3)
            pixels.withUnsafeMutableBytes { out in
                for y in 0..<height {
                    let row = UnsafeRawBufferPointer(rebasing: rows[(y * Int(stride))..<(y * Int(stride) + width * 3)])
                    UnsafeMutableRawBufferPointer(rebasing: out[(y * width * 3)..<((y + 1) * width * 3)]).copyMemory(
                        from: row)
                }
            }
            return Bitmap(width: width, height: height, pixels: pixels)
        }
    }

    /// Encodes packed 8-bit sRGB as a lossy AVIF (AV1 through libheif's libaom encoder): 4:2:0,
    /// an `nclx` box saying sRGB (BT.709 primaries, the sRGB transfer, BT.601 matrix, full range),
    /// which says what the JPEG and WebP derivatives imply by carrying no profile, and no metadata.
    ///
    /// The bytes depend only on the pixels and `quality`: one encoder thread (the pipeline already
    /// encodes photos in parallel, and libaom's row and tile threads could change the bitstream)
    /// and a fixed `avifSpeed`, so a rebuild writes the same file and caches stay valid.
    /// - Parameter quality: libheif's 0–100 AV1 quality (`avifQuality(forJPEG:)` maps the site's).
    /// - Throws: `ImagingError` when libheif has no AV1 encoder or refuses the picture.
    package static func encodeAVIF(_ bitmap: Bitmap, quality: Int) throws -> Data {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= 65_536, bitmap.height <= 65_536 else {
            throw ImagingError.format(
                .heif, "\(bitmap.width)×\(bitmap.height) cannot be encoded as AVIF", kind: .unsupported)
        }
        var created: OpaquePointer?
        try check(
            heif_image_create(
                Int32(bitmap.width), Int32(bitmap.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &created))
        guard let image = created else {
            throw ImagingError.format(.heif, "cannot make an image to encode", kind: .toolFailed)
        }
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(bitmap.width), Int32(bitmap.height), 8))
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride),
            Int(stride) >= bitmap.width * 3
        else {
            throw ImagingError.format(.heif, "cannot make an image to encode", kind: .toolFailed)
        }
        let rowBytes = bitmap.width * 3
        bitmap.pixels.withUnsafeBytes { pixels in
            for y in 0..<bitmap.height {
                (plane + y * Int(stride)).update(
                    from: pixels.baseAddress!.assumingMemoryBound(to: UInt8.self) + y * rowBytes, count: rowBytes)
            }
        }
        guard let nclx = heif_nclx_color_profile_alloc() else {
            throw ImagingError.format(.heif, "cannot describe the colours", kind: .toolFailed)
        }
        defer { heif_nclx_color_profile_free(nclx) }
        nclx.pointee.color_primaries = heif_color_primaries_ITU_R_BT_709_5
        nclx.pointee.transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1
        nclx.pointee.matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6
        nclx.pointee.full_range_flag = 1
        try check(heif_image_set_nclx_color_profile(image, nclx))

        guard let context = heif_context_alloc() else {
            throw ImagingError.format(.heif, "cannot start the encoder", kind: .toolFailed)
        }
        defer { heif_context_free(context) }
        var found: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &found))
        guard let encoder = found else {
            throw ImagingError.format(
                .heif, "libheif has no AV1 encoder (install libheif's libaom plugin)", kind: .toolMissing)
        }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(min(max(quality, 0), 100))))
        try check(heif_encoder_set_parameter_integer(encoder, "speed", Int32(avifSpeed)))
        try check(heif_encoder_set_parameter_integer(encoder, "threads", 1))
        try check(heif_encoder_set_parameter_string(encoder, "chroma", "420"))
        guard let options = heif_encoding_options_alloc() else {
            throw ImagingError.format(.heif, "cannot start the encoder", kind: .toolFailed)
        }
        defer { heif_encoding_options_free(options) }
        options.pointee.save_alpha_channel = 0
        try check(heif_context_encode_image(context, image, encoder, options, nil))

        final class Sink { var data = Data() }
        let sink = Sink()
        var writer = heif_writer(writer_api_version: 1) { _, bytes, size, userdata in
            let sink = Unmanaged<Sink>.fromOpaque(userdata!).takeUnretainedValue()
            if let bytes, size > 0 { sink.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: size) }
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: nil)
        }
        try withExtendedLifetime(sink) {
            try check(heif_context_write(context, &writer, Unmanaged.passUnretained(sink).toOpaque()))
        }
        guard !sink.data.isEmpty else {
            throw ImagingError.format(.heif, "the AV1 encoder wrote nothing", kind: .toolFailed)
        }
        return sink.data
    }

    /// Opens the file from memory without copying it and hands the primary image's handle to `body`.
    private static func withPrimaryImage<T>(_ data: Data, _ body: (OpaquePointer) throws -> T) throws -> T {
        guard let context = heif_context_alloc() else {
            throw ImagingError.format(.heif, "cannot start the decoder", kind: .toolFailed)
        }
        defer { heif_context_free(context) }
        // The pipeline already decodes photos in parallel; tiles of one photo need no threads of their own.
        heif_context_set_max_decoding_threads(context, 0)
        return try data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else {
                throw ImagingError.format(.heif, "the file is empty")
            }
            try check(heif_context_read_from_memory_without_copy(context, base, raw.count, nil))
            var primary: OpaquePointer?
            try check(heif_context_get_primary_image_handle(context, &primary))
            guard let handle = primary else { throw ImagingError.format(.heif, "the file has no primary image") }
            defer { heif_image_handle_release(handle) }
            return try body(handle)
        }
    }

    private static func check(_ error: heif_error) throws {
        guard error.code != heif_error_Ok else { return }
        let message = error.message.map { String(cString: $0) } ?? "unknown error"
        throw ImagingError.format(.heif, "\(message) (the file is damaged, truncated or uses a codec libheif lacks)")
    }

    /// An embedded ICC profile (`colr` of type `prof` or `rICC`); an `nclx` description is not one.
    private static func profile(_ handle: OpaquePointer) -> ICCProfile? {
        let type = heif_image_handle_get_color_profile_type(handle)
        guard type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC else { return nil }
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        guard size >= 128, size <= maxMetadataBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else { return nil }
        return ICCProfile(data: Data(bytes))
    }

    /// The EXIF block (its TIFF structure, after the 4-byte offset HEIF puts first) and the XMP packet.
    private static func metadata(_ handle: OpaquePointer) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        let count = heif_image_handle_get_number_of_metadata_blocks(handle, nil)
        guard count > 0, count < 1000 else { return blocks }
        var ids = [heif_item_id](repeating: 0, count: Int(count))
        let listed = Int(heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, count))
        for id in ids.prefix(max(0, min(listed, ids.count))) {
            let type = heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
            let contentType = heif_image_handle_get_metadata_content_type(handle, id).map { String(cString: $0) } ?? ""
            let size = heif_image_handle_get_metadata_size(handle, id)
            guard size > 0, size <= maxMetadataBytes else { continue }
            var bytes = [UInt8](repeating: 0, count: size)
            guard heif_image_handle_get_metadata(handle, id, &bytes).code == heif_error_Ok else { continue }
            if type == "Exif", blocks.exif == nil, bytes.count > 4 {
                let offset = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
                if offset < bytes.count - 4 { blocks.exif = Data(bytes[(4 + offset)...]) }
            } else if type == "mime", contentType == "application/rdf+xml", blocks.xmp == nil {
                blocks.xmp = Data(bytes)
            }
        }
        return blocks
    }
}
