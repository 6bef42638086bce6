import Foundation

/// The result of processing one original: what it is, what EXIF said, and the encoded derivatives.
public struct ProcessedImage: Sendable {
    public enum Format: String, Sendable { case jpeg, png }

    public var format: Format
    /// The size the original is seen at, after EXIF orientation.
    public var displaySize: PixelSize
    public var exif: ExifInfo
    public var plan: DerivativePlan
    /// Encoded derivatives, in the order of `plan.all`.
    public var encoded: [(derivative: Derivative, data: Data)]
    /// The average colour of the photo as `#rrggbb`, shown while the image loads.
    public var averageColor: String
}

/// Decodes an original once and makes every planned derivative from it.
///
/// For JPEG, the decode uses libjpeg-turbo's DCT scaling down to the smallest scale that still
/// covers the largest derivative; each derivative is then resized from that bitmap with Lanczos3.
public struct ImageProcessor: Sendable {
    public let settings: ImageSettings

    public init(settings: ImageSettings) {
        self.settings = settings
    }

    /// Processes one original.
    /// - Parameters:
    ///   - data: The original's bytes.
    ///   - folder: Output folder for the derivatives, such as `photos/kite`.
    /// - Throws: `ImagingError` for unknown formats, corrupt data or too many pixels.
    public func process(_ data: Data, folder: String) throws -> ProcessedImage {
        let format = try Self.sniff(data)
        var exif = ExifInfo()
        let base: Bitmap
        let plan: DerivativePlan
        let display: PixelSize
        switch format {
        case .jpeg:
            let header = try JPEGCodec.header(data)
            try checkPixels(header.size)
            exif = ExifReader.read(jpeg: data)
            display = Orientation.displaySize(of: header.size, orientation: exif.orientation)
            plan = DerivativePlan(display: display, settings: settings, folder: folder)
            let needed = Orientation.displaySize(of: plan.largest, orientation: exif.orientation)
            let decodeSize = JPEGCodec.scaledSize(of: header.size, atLeast: needed)
            let decoded = try JPEGCodec.decode(data, header: header, size: decodeSize)
            base = Orientation.apply(exif.orientation, to: decoded)
        case .png:
            try checkPixels(try PNGCodec.size(data))
            base = try PNGCodec.decode(data, background: settings.background)
            display = PixelSize(width: base.width, height: base.height)
            plan = DerivativePlan(display: display, settings: settings, folder: folder)
        }
        var encoded: [(derivative: Derivative, data: Data)] = []
        var thumbnailBitmap: Bitmap?
        for derivative in plan.all {
            let bitmap = Resampler.resize(base, to: derivative.size)
            if derivative == plan.thumbnail { thumbnailBitmap = bitmap }
            encoded.append((derivative, try JPEGCodec.encode(bitmap, quality: settings.quality)))
        }
        return ProcessedImage(format: format, displaySize: display, exif: exif, plan: plan, encoded: encoded,
                              averageColor: Self.averageColor(thumbnailBitmap ?? base))
    }

    private func checkPixels(_ size: PixelSize) throws {
        guard size.pixelCount <= settings.maxPixels else {
            throw ImagingError.tooManyPixels(size, limit: settings.maxPixels)
        }
    }

    /// Tells JPEG from PNG by their signatures, not by file name.
    static func sniff(_ data: Data) throws -> ProcessedImage.Format {
        let head = [UInt8](data.prefix(8))
        if head.count >= 3, head[0] == 0xff, head[1] == 0xd8, head[2] == 0xff { return .jpeg }
        if head == [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] { return .png }
        throw ImagingError.notAnImage(head)
    }

    static func averageColor(_ bitmap: Bitmap) -> String {
        var sums = [Int](repeating: 0, count: 3)
        let count = bitmap.width * bitmap.height
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<count {
                sums[0] += Int(pixels[index * 3])
                sums[1] += Int(pixels[index * 3 + 1])
                sums[2] += Int(pixels[index * 3 + 2])
            }
        }
        return "#" + sums.map { String(format: "%02x", $0 / max(count, 1)) }.joined()
    }
}
