import CLibZ
import Foundation

/// Deflate and inflate through zlib, the only file that imports it.
///
/// PNG `iCCP` profiles are zlib streams, and the preview server gzips text responses.
package enum Zlib {
    /// Inflates a zlib stream whose result is at most `limit` bytes; nil when it is corrupt or larger.
    package static func inflate(_ compressed: [UInt8], limit: Int) -> [UInt8]? {
        var output = [UInt8](repeating: 0, count: limit)
        var length = uLongf(output.count)
        let status = compressed.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                uncompress(out.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK else { return nil }
        return Array(output.prefix(Int(length)))
    }

    /// Compresses `data` as a gzip member (RFC 1952), for `Content-Encoding: gzip`.
    package static func gzip(_ data: Data, level: Int32 = 6) -> Data? {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer instead of a zlib one.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        let status = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Data(output.prefix(Int(stream.total_out)))
    }
}
