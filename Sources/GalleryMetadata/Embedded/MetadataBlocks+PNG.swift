import Foundation
import GalleryModel

extension MetadataBlocks {
    /// The largest XMP packet or EXIF block kept from a PNG; real ones are a few kilobytes.
    static let maxPNGBlockBytes = 4 << 20

    /// Reads a PNG's `eXIf` chunk (PNG 1.5 extensions) and its XMP packet, an `iTXt` chunk with
    /// the keyword `XML:com.adobe.xmp` (XMP specification part 3, §1.1.5), inflating it if needed.
    ///
    /// libpng's simplified API hands out neither, and its full API longjmps on errors. Chunks are
    /// length-prefixed, so this reads only lengths and types (both chunks may follow `IDAT`). A
    /// malformed chunk is skipped, never an error: metadata is optional.
    package static func fromPNG(_ png: Data) -> MetadataBlocks {
        var blocks = MetadataBlocks()
        png.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard bytes.count > 8, bytes[1] == 0x50, bytes[2] == 0x4e, bytes[3] == 0x47 else { return }
            var offset = 8
            while offset + 8 <= bytes.count {
                let length = (offset..<(offset + 4)).reduce(0) { $0 << 8 | Int(bytes[$1]) }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let body = offset + 8
                guard length <= bytes.count - body, type != "IEND" else { return }
                if length <= maxPNGBlockBytes {
                    let chunk = Array(bytes[body..<(body + length)])
                    if type == "eXIf", blocks.exif == nil {
                        blocks.exif = Data(chunk)
                    } else if type == "iTXt", blocks.xmp == nil {
                        blocks.xmp = xmp(fromITXt: chunk)
                    }
                }
                offset = body + length + 4  // data, then CRC
            }
        }
        return blocks
    }

    /// The text of an `iTXt` chunk whose keyword is the XMP one: keyword, NUL, compression flag,
    /// compression method, language tag, NUL, translated keyword, NUL, then the (zlib) text.
    private static func xmp(fromITXt chunk: [UInt8]) -> Data? {
        let keyword = Array("XML:com.adobe.xmp".utf8)
        guard chunk.count > keyword.count + 4, Array(chunk.prefix(keyword.count)) == keyword,
            chunk[keyword.count] == 0
        else { return nil }
        let compressed = chunk[keyword.count + 1] == 1
        var position = keyword.count + 3
        for _ in 0..<2 {  // language tag, translated keyword
            guard let nul = chunk[position...].firstIndex(of: 0) else { return nil }
            position = nul + 1
        }
        let text = Array(chunk[position...])
        guard compressed else { return text.isEmpty ? nil : Data(text) }
        return Zlib.inflate(text, limit: maxPNGBlockBytes).flatMap { $0.isEmpty ? nil : Data($0) }
    }
}
