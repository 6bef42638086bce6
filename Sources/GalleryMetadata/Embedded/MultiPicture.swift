import Foundation

/// The index of a Multi-Picture Format file (CIPA DC-007): a JPEG whose `APP2 MPF` segment lists
/// further JPEG images stored after its own end, as Ultra HDR and ISO 21496-1 files store their
/// gain map, and as stereo MPO files store the second view.
///
/// No library on Debian reads or writes this index (libexif and exempi leave `APP2` alone), and it
/// is one small TIFF directory, so it is read here, every offset and count bounded by the segment
/// and the file.
package enum MultiPicture {
    package static let signature: [UInt8] = Array("MPF".utf8) + [0]

    /// The byte ranges (from the file's first byte) of the images the index lists after the first,
    /// in its order; empty when there is no index, or it is unreadable, or its entries point outside
    /// the file.
    package static func followingImages(in jpeg: Data) -> [Range<Int>] {
        guard let index = index(in: jpeg) else { return [] }
        var ranges: [Range<Int>] = []
        for number in 1..<index.count {
            let entry = index.entries + 16 * number
            guard let size = index.reader.u32(entry + 4), let offset = index.reader.u32(entry + 8), size > 0,
                offset > 0
            else { return [] }
            let start = index.base + offset
            guard start >= 0, start + size <= jpeg.count else { return [] }
            ranges.append(start..<(start + size))
        }
        return ranges
    }

    /// How many images the index says the file holds, itself included; 0 without a readable index.
    /// More than one where `followingImages` finds none means they are missing or cut short.
    package static func imageCount(in jpeg: Data) -> Int {
        index(in: jpeg)?.count ?? 0
    }

    /// The index's MP entries: where they start in `reader`'s bytes, how many there are, and where
    /// its offsets count from in the file.
    private static func index(in jpeg: Data) -> (reader: Reader, entries: Int, count: Int, base: Int)? {
        guard let segment = JPEGSegments.find(in: jpeg, markers: [0xe2], prefixes: [signature]).first else {
            return nil
        }
        let tiff = [UInt8](segment.body.dropFirst(signature.count))
        guard tiff.starts(with: [0x49, 0x49, 0x2a, 0]) || tiff.starts(with: [0x4d, 0x4d, 0, 0x2a]) else { return nil }
        let reader = Reader(bytes: tiff)
        guard let ifd = reader.u32(4), let count = reader.u16(ifd), count <= 64 else { return nil }
        var entries: (offset: Int, length: Int)?
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard reader.u16(entry) == 0xb002, let length = reader.u32(entry + 4) else { continue }
            guard let offset = length <= 4 ? entry + 8 : reader.u32(entry + 8) else { return nil }
            entries = (offset, length)
        }
        guard let entries, entries.length % 16 == 0, (2...16).contains(entries.length / 16) else { return nil }
        // Offsets in the index count from its TIFF header, the byte after the signature.
        return (reader, entries.offset, entries.length / 16, segment.bodyOffset + signature.count)
    }

    /// The body of an `APP2 MPF` segment (after the length bytes) for a primary image of
    /// `primarySize` bytes followed, `secondaryOffset` bytes after this body's TIFF header, by one
    /// secondary image of `secondarySize` bytes; written big-endian, as libultrahdr writes it.
    package static func segmentBody(primarySize: Int, secondarySize: Int, secondaryOffset: Int) -> [UInt8] {
        var out = signature + [0x4d, 0x4d, 0x00, 0x2a]
        func u16(_ value: Int) { out += [UInt8(value >> 8 & 0xff), UInt8(value & 0xff)] }
        func u32(_ value: Int) { out += (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xff) } }
        u32(8)  // the index directory follows the header
        u16(3)
        u16(0xb000)  // MPFVersion "0100"
        u16(7)
        u32(4)
        out += Array("0100".utf8)
        u16(0xb001)  // NumberOfImages
        u16(4)
        u32(1)
        u32(2)
        u16(0xb002)  // MPEntry, two 16-byte entries after the directory
        u16(7)
        u32(32)
        u32(8 + 2 + 3 * 12 + 4)
        u32(0)  // no further directory
        u32(0x0003_0000)  // baseline primary image
        u32(primarySize)
        u32(0)
        u32(0)
        u32(0)  // a JPEG of no particular kind: the gain map
        u32(secondarySize)
        u32(secondaryOffset)
        u32(0)
        return out
    }

    /// The length of `segmentBody`'s result, whatever its numbers.
    package static let segmentBodyCount = 4 + 8 + 2 + 3 * 12 + 4 + 32

    private struct Reader {
        var bytes: [UInt8]
        var little: Bool { bytes.count >= 2 && bytes[0] == 0x49 && bytes[1] == 0x49 }

        func u16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= bytes.count, bytes.count >= 8 else { return nil }
            let (a, b) = (Int(bytes[offset]), Int(bytes[offset + 1]))
            return little ? b << 8 | a : a << 8 | b
        }

        func u32(_ offset: Int) -> Int? {
            guard let high = u16(little ? offset + 2 : offset), let low = u16(little ? offset : offset + 2) else {
                return nil
            }
            return high << 16 | low
        }
    }
}
