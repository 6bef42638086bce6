import Foundation
import GalleryModel

extension PNGCodec {
    /// Refuses a PNG with a chunk, other than `IDAT`, that claims more bytes than the file has left.
    ///
    /// libpng allocates and zeroes a chunk's whole declared length (up to 2 GB) before it reads it:
    /// a 307-byte file whose `iTXt` claimed 1 GB took a gigabyte of memory and 16 s to be refused
    /// (found by the `image-headers` fuzz harness). A chunk longer than the rest of the file is
    /// truncated or forged. `IDAT` is exempt: libpng streams it through zlib, so a cut-off download
    /// costs nothing more and decodes as far as it goes.
    /// - Throws: `ImagingError` naming the chunk, the length it claims and the bytes left.
    static func checkChunkLengths(_ data: Data) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 8  // after the signature, which libpng checks
            while offset + 8 <= bytes.count {
                let length = (offset..<(offset + 4)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let left = bytes.count - offset - 8
                if type == "IDAT", length > left { return }
                guard length <= left else {
                    let name = type.allSatisfy { $0.isASCII && $0.isLetter } ? "its \(type) chunk" : "a chunk"
                    throw ImagingError.format(
                        .png,
                        "\(name) at byte \(offset) claims \(length) bytes, but only \(left) follow; the file is truncated or damaged"
                    )
                }
                if type == "IEND" { return }
                offset += 12 + length  // length, type, data, CRC
            }
        }
    }
}
