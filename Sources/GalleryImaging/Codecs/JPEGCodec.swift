import CTurboJPEG
import Foundation
import GalleryModel

/// JPEG headers, DCT scaling and encoding through the TurboJPEG API (the only file that imports it),
/// and decoding through `JPEGRows`.
///
/// TurboJPEG's `tj*` functions report errors by return code, which Swift can handle; libjpeg's
/// classic API longjmps, so `JPEGRows` reaches it through a little C.
package enum JPEGCodec {
    package struct Header: Sendable {
        package var size: PixelSize
        var isCMYK: Bool
        /// One channel only: a greyscale photo, or a single-channel gain map.
        var isGray = false
    }

    /// Reads the frame header without decoding pixels.
    /// - Throws: `ImagingError` when the data is not a readable JPEG.
    package static func header(_ data: Data) throws -> Header {
        try withDecompressor { handle in
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            let status = data.withUnsafeBytes { raw in
                tjDecompressHeader3(
                    handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                    &width, &height, &subsampling, &colorspace)
            }
            // A warning (such as junk bytes between header markers) still leaves a usable header;
            // `decode` meets it again and reports it.
            let usable = status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            guard usable, width > 0, height > 0 else {
                throw failure(errorText(handle))
            }
            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            return Header(
                size: PixelSize(width: Int(width), height: Int(height)), isCMYK: cmyk,
                isGray: colorspace == Int32(TJCS_GRAY.rawValue))
        }
    }

    /// A DCT-scaled decode: the bitmap's size, and the part of it the scaled picture covers.
    package struct Scaling: Sendable, Equatable {
        package var size: PixelSize
        /// The exact scaled picture, `original × n/8`; the bitmap rounds a partial last block up.
        package var content: SourceRegion
    }

    /// How much larger than the largest derivative a DCT-scaled decode must be.
    ///
    /// A truncated n-point IDCT is a crude, blocky low-pass filter; the Lanczos3 step after it must
    /// still reduce by this much to smooth its block edges away. Measured against a full decode on
    /// sharp photos (Tests/Fixtures/scaling): SSIM fell to 0.93–0.97 with 1.1–1.3× left, 0.984 with
    /// 1.6×, and stayed at or above 0.989 with 2× at every scale. libvips leaves 2× for the same
    /// reason. On the benchmark corpus 2× costs about 15 % more time than 1.5×.
    static let scalingHeadroom = 2.0

    /// The smallest DCT scaling that is at least `minimum` × `scalingHeadroom` in both directions,
    /// else a full-size decode.
    ///
    /// libjpeg-turbo can scale by n/8 inside the IDCT, which is much cheaper than decoding at full
    /// size and resizing; the result is then resized the rest of the way with a proper filter.
    package static func scaling(of size: PixelSize, atLeast minimum: PixelSize) -> Scaling {
        var best = Scaling(
            size: size, content: SourceRegion(x: 0, y: 0, width: Double(size.width), height: Double(size.height)))
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return best }
        for index in 0..<Int(count) {
            let factor = factors[index]
            guard factor.num <= factor.denom else { continue }
            let scaled = PixelSize(
                width: scaleDimension(size.width, factor), height: scaleDimension(size.height, factor))
            let enough =
                Double(scaled.width) >= Double(minimum.width) * scalingHeadroom
                && Double(scaled.height) >= Double(minimum.height) * scalingHeadroom
            if enough, scaled.pixelCount < best.size.pixelCount {
                let ratio = Double(factor.num) / Double(factor.denom)
                best = Scaling(
                    size: scaled,
                    content: SourceRegion(
                        x: 0, y: 0, width: Double(size.width) * ratio,
                        height: Double(size.height) * ratio))
            }
        }
        return best
    }

    private static func scaleDimension(_ dimension: Int, _ factor: tjscalingfactor) -> Int {
        (dimension * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
    }

    /// Decodes to RGB at `size`, which must come from `scaling(of:atLeast:)`, as browsers do: a
    /// libjpeg warning (junk bytes before a marker, a corrupt Huffman code, a bad restart marker)
    /// leaves a displayable image and is returned with it; a fatal error throws, unless it came after
    /// the last row (see `JPEGRows`).
    ///
    /// A file that ends early is the exception: libjpeg warns "Premature end of JPEG file" and
    /// fills the missing rows with grey, but that is a broken copy or download, not a photo, so it
    /// throws and the photo is skipped with the reason.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    /// - Parameter cmykConverter: Turns four-byte CMYK pixels into RGB bytes (colour-managed), or
    ///   returns nil to fall back to the plain inverted-CMYK formula.
    package static func decodeReportingWarnings(
        _ data: Data, header: Header, size: PixelSize,
        cmykConverter: ([UInt8]) -> [UInt8]? = { _ in nil }
    ) throws
        -> (bitmap: Bitmap, warnings: [String])
    {
        let channels = header.isCMYK ? 4 : 3
        // Not zeroed: every row is written, or the decode throws.
        var buffer = PixelBuffers.take(size.width * size.height * channels)
        let decoded = try buffer.withUnsafeMutableBufferPointer { out in
            try JPEGRows.decode(data, size: size, cmyk: header.isCMYK) { rows in
                try rows.read(into: out.baseAddress!, count: size.height)
            }
        }
        guard decoded.result == size.height else { throw failure("\(size.height - decoded.result) rows are missing") }
        if header.isCMYK { buffer = cmykConverter(buffer) ?? cmykToRGB(buffer) }
        return (Bitmap(width: size.width, height: size.height, pixels: buffer), decoded.warnings)
    }

    /// A fatal libjpeg error as the photo's reason.
    package static func failure(_ message: String) -> ImagingError {
        ImagingError.format(.jpeg, "\(message) (the file is damaged or truncated)")
    }

    /// A libjpeg warning as reported with the photo; "Premature end of JPEG file" throws instead (see
    /// `decodeReportingWarnings`).
    package static func warning(_ message: String) throws -> String {
        guard !message.contains("Premature end of JPEG file") else { throw failure(message) }
        return "JPEG: \(message) (decoded as browsers show it)"
    }

    /// `decodeReportingWarnings` without the warnings, for callers that only want the pixels.
    package static func decode(_ data: Data, header: Header, size: PixelSize) throws -> Bitmap {
        try decodeReportingWarnings(data, header: header, size: size).bitmap
    }

    /// Adobe-style (inverted) CMYK to RGB; colour-managed conversion is left to the ICC stage.
    private static func cmykToRGB(_ cmyk: [UInt8]) -> [UInt8] {
        var rgb = [UInt8](repeating: 0, count: cmyk.count / 4 * 3)
        for pixel in 0..<(cmyk.count / 4) {
            let k = UInt16(cmyk[pixel * 4 + 3])
            for channel in 0..<3 {
                rgb[pixel * 3 + channel] = UInt8((UInt16(cmyk[pixel * 4 + channel]) * k + 127) / 255)
            }
        }
        return rgb
    }

    /// Encodes a progressive JPEG with 4:2:0 chroma subsampling; progressive mode also optimises Huffman tables.
    /// - Throws: `ImagingError` if the encoder fails.
    /// - Parameter gray: Encode the first channel alone, as a one-component (greyscale) JPEG.
    package static func encode(_ bitmap: Bitmap, quality: Int, gray: Bool = false) throws -> Data {
        let pixels = gray ? stride(from: 0, to: bitmap.pixels.count, by: 3).map { bitmap.pixels[$0] } : bitmap.pixels
        guard let handle = tjInitCompress() else {
            throw ImagingError.format(.jpeg, "cannot start the encoder", kind: .toolFailed)
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var length: UInt = 0
        defer { if let output { tjFree(output) } }
        let status = pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(
                handle, pixels.baseAddress, Int32(bitmap.width), 0, Int32(bitmap.height),
                Int32((gray ? TJPF_GRAY : TJPF_RGB).rawValue), &output, &length,
                Int32((gray ? TJSAMP_GRAY : TJSAMP_420).rawValue), Int32(quality),
                TJFLAG_PROGRESSIVE | TJFLAG_ACCURATEDCT)
        }
        guard status == 0, let output else {
            throw ImagingError.format(.jpeg, "encoding failed: \(errorText(handle))", kind: .toolFailed)
        }
        return Data(bytes: output, count: Int(length))
    }

    private static func withDecompressor<T>(_ body: (tjhandle) throws -> T) throws -> T {
        guard let handle = tjInitDecompress() else {
            throw ImagingError.format(.jpeg, "cannot start the decoder", kind: .toolFailed)
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
