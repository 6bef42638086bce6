import CJPEGRows
import Foundation
import GalleryModel

/// A JPEG decoded a few rows at a time through libjpeg's classic API (`CJPEGRows`, a little C that
/// keeps libjpeg's longjmp out of Swift; this is the only file that imports it). Every JPEG decode
/// goes through here: whole (`JPEGCodec.decode`), or a band at a time, so that a large photo is
/// resampled as it decodes and its full decode is never held (`ImageProcessor.streamLargest`): at
/// 16 jobs, sixteen decoded 24 MP photos were most of a build's memory.
///
/// What is fatal is decided here once, by how far the picture got: an error before the last row
/// throws (a partly decoded picture is never published), one after it (junk before the end of the
/// file) is reported like a warning, as browsers show such a file whole. TurboJPEG, which decoded
/// before, reported a fatal error as a warning once any warning had come before it, and so
/// published photos black from the error down.
package final class JPEGRows {
    package let size: PixelSize
    /// Bytes a pixel: 3 (RGB), or 4 for a CMYK file, as stored.
    package let channels: Int
    /// Seconds spent decoding so far, for the build report's `decode`.
    package private(set) var seconds = 0.0
    private let handle: OpaquePointer
    private var band: UnsafeMutableBufferPointer<UInt8>?
    private var next = 0  // the first row not yet decoded
    private let convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)?

    private init(
        handle: OpaquePointer, size: PixelSize, channels: Int, convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)?
    ) {
        self.handle = handle
        self.size = size
        self.channels = channels
        self.convert = convert
    }

    deinit {
        gssg_jpeg_rows_close(handle)
        band?.deallocate()
    }

    /// Runs `body` with `data` open for decoding at `size` (from `JPEGCodec.scaling`), then decodes
    /// any rows it left and reads to the end of the file. `convert` (a colour conversion in place)
    /// gets each band `rows` hands out. Returns `body`'s result, the decode's warning if any, and the
    /// seconds spent decoding.
    /// - Throws: `ImagingError` for a fatal libjpeg error before the last row or a file that ends
    ///   early, as `JPEGCodec.decode` says.
    package static func decode<T>(
        _ data: Data, size: PixelSize, cmyk: Bool = false,
        convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)? = nil,
        _ body: (JPEGRows) throws -> T
    ) throws -> (result: T, warnings: [String], seconds: Double) {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard
                let handle = gssg_jpeg_rows_open(
                    bytes.baseAddress, UInt(bytes.count), Int32(size.width), Int32(size.height),
                    cmyk ? 1 : 0)
            else { throw ImagingError.format(.jpeg, "out of memory", kind: .toolFailed) }
            let rows = JPEGRows(handle: handle, size: size, channels: cmyk ? 4 : 3, convert: convert)
            try rows.check()
            let result = try body(rows)
            let clock = ContinuousClock.now
            let end = gssg_jpeg_rows_finish(handle)
            rows.seconds += clock.secondsElapsed
            if end != 1 { try rows.check() }
            let warned = end == 1 || gssg_jpeg_rows_warned(handle) != 0
            return (result, warned ? [try JPEGCodec.warning(rows.message)] : [], rows.seconds)
        }
    }

    /// Rows `first ..< first + count` (`count` at most `bandRows`), decoded now into a band buffer
    /// that the next call reuses. Rows come in order: asking again for rows already passed is a
    /// fault of the caller.
    package func rows(_ first: Int, _ count: Int, bandRows: Int) throws -> UnsafePointer<UInt8> {
        precondition(count <= bandRows && first >= next, "JPEGRows: rows \(first) asked after \(next)")
        let band = band ?? .allocate(capacity: size.width * channels * bandRows)
        self.band = band
        while next < first {  // rows no output needs (none today): decoded and dropped
            next += try read(into: band.baseAddress!, count: min(bandRows, first - next))
        }
        guard try read(into: band.baseAddress!, count: count) == count else {
            throw ImagingError.format(.jpeg, "rows \(first)…\(first + count - 1) are missing (the file is damaged)")
        }
        convert?(band.baseAddress!, count * size.width)
        return UnsafePointer(band.baseAddress!)
    }

    /// Decodes up to `count` rows into `out` and returns how many (fewer only at the picture's end).
    @discardableResult
    package func read(into out: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        let clock = ContinuousClock.now
        defer { seconds += clock.secondsElapsed }
        let read = Int(gssg_jpeg_rows_read(handle, out, Int32(count)))
        try check()
        next += read
        return read
    }

    private var message: String { String(cString: gssg_jpeg_rows_message(handle)) }

    private func check() throws {
        if gssg_jpeg_rows_failed(handle) != 0 { throw JPEGCodec.failure(message) }
    }
}
