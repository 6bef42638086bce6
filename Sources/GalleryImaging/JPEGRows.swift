import CJPEGRows
import Foundation
import GalleryModel

/// A JPEG decoded a band of rows at a time through libjpeg's classic API (`CJPEGRows`, a little C
/// that keeps libjpeg's longjmp out of Swift; this is the only file that imports it), so that a large
/// photo is resampled as it decodes and its full decode is never held: at 16 jobs, sixteen decoded
/// 24 MP photos were most of a build's memory.
///
/// The pixels are `JPEGCodec.decode`'s (the same libjpeg-turbo, DCT scaling, accurate IDCT and
/// smooth chroma upsampling), and so are the warnings and what counts as fatal.
package final class JPEGRows {
    package let size: PixelSize
    /// Seconds spent decoding so far, for the build report's `decode`.
    package private(set) var seconds = 0.0
    private let handle: OpaquePointer
    private let band: UnsafeMutableBufferPointer<UInt8>
    private let bandRows: Int
    private var next = 0   // the first row not yet decoded
    private let convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)?

    private init(handle: OpaquePointer, size: PixelSize, bandRows: Int, convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)?) {
        self.handle = handle
        self.size = size
        self.bandRows = bandRows
        self.convert = convert
        band = .allocate(capacity: size.width * 3 * bandRows)
    }

    deinit {
        gssg_jpeg_rows_close(handle)
        band.deallocate()
    }

    /// Runs `body` with `data` open for decoding at `size` (from `JPEGCodec.scaling`), in bands of up
    /// to `bandRows` rows, each passed through `convert` (a colour conversion in place) once decoded;
    /// then reads to the end of the file. Returns `body`'s result, the decode's warning if any, and
    /// the seconds spent decoding.
    /// - Throws: `ImagingError` for a fatal libjpeg error or a file that ends early, as `JPEGCodec.decode` does.
    package static func decode<T>(_ data: Data, size: PixelSize, bandRows: Int,
                                  convert: ((UnsafeMutablePointer<UInt8>, Int) -> Void)? = nil,
                                  _ body: (JPEGRows) throws -> T) throws -> (result: T, warnings: [String], seconds: Double) {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let handle = gssg_jpeg_rows_open(bytes.baseAddress, UInt(bytes.count), Int32(size.width), Int32(size.height))
            else { throw ImagingError.jpeg("out of memory") }
            let rows = JPEGRows(handle: handle, size: size, bandRows: bandRows, convert: convert)
            try rows.check()
            let result = try body(rows)
            let clock = ContinuousClock.now
            gssg_jpeg_rows_finish(handle)
            rows.seconds += clock.secondsElapsed
            try rows.check()
            return (result, gssg_jpeg_rows_warned(handle) != 0 ? [try JPEGCodec.warning(rows.message)] : [], rows.seconds)
        }
    }

    /// Rows `first ..< first + count` (`count` at most `bandRows`), decoded now. Rows come in order:
    /// asking again for rows already passed is a fault of the caller.
    package func rows(_ first: Int, _ count: Int) throws -> UnsafePointer<UInt8> {
        precondition(count <= bandRows && first >= next, "JPEGRows: rows \(first) asked after \(next)")
        let clock = ContinuousClock.now
        defer { seconds += clock.secondsElapsed }
        while next < first {   // rows no output needs (none today): decoded and dropped
            let skipped = Int(gssg_jpeg_rows_read(handle, band.baseAddress, Int32(min(bandRows, first - next))))
            guard skipped > 0 else { break }
            next += skipped
        }
        let read = Int(gssg_jpeg_rows_read(handle, band.baseAddress, Int32(count)))
        try check()
        guard read == count else { throw ImagingError.jpeg("rows \(first)…\(first + count - 1) are missing (the file is damaged)") }
        next = first + count
        convert?(band.baseAddress!, count * size.width)
        return UnsafePointer(band.baseAddress!)
    }

    private var message: String { String(cString: gssg_jpeg_rows_message(handle)) }

    private func check() throws {
        if gssg_jpeg_rows_failed(handle) != 0 { throw JPEGCodec.failure(message) }
    }
}
