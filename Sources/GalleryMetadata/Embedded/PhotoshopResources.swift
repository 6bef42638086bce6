import Crypto
import Foundation
import GalleryModel

/// Photoshop's image resource blocks (IRB): where a JPEG's `APP13` and a TIFF's tag 34377 keep the
/// IPTC-IIM (resource 0x0404) and the digest of that IPTC when XMP was last written with it (0x0425).
///
/// libiptcdata finds resource 0x0404 only, and the MWG's IPTC check needs 0x0425 as well, so this
/// walks the resources by their lengths: `8BIM`, a 2-byte id, a Pascal-string name padded to an
/// even length, a 4-byte size and the data padded to an even length, all big-endian. The walk stops
/// at the first thing that is not a resource or does not fit, keeping what it found before.
package enum PhotoshopResources {
    static let iptcID: UInt16 = 0x0404
    static let iptcDigestID: UInt16 = 0x0425

    /// The data of each resource in `block` (the first of each id), with or without the
    /// `Photoshop 3.0\0` header of a JPEG's `APP13`.
    package static func read(_ block: Data) -> [UInt16: Data] {
        let bytes = [UInt8](
            block.starts(with: MetadataBlocks.photoshopSignature)
                ? block.dropFirst(MetadataBlocks.photoshopSignature.count) : block[...])
        // Other programs' signatures ExifTool also walks past (ImageReady, Adobe PhotoDeluxe, ...).
        let signatures = ["8BIM", "PHUT", "DCSR", "AgHg", "MeSa"].map { Array($0.utf8) }
        var found: [UInt16: Data] = [:]
        var offset = 0
        while offset + 12 <= bytes.count {
            let signature = Array(bytes[offset..<(offset + 4)])
            guard signatures.contains(signature) else { break }
            let id = UInt16(bytes[offset + 4]) << 8 | UInt16(bytes[offset + 5])
            let nameLength = Int(bytes[offset + 6])
            let sizeAt = offset + 6 + ((nameLength + 2) & ~1)  // length byte and name, padded to even
            guard sizeAt + 4 <= bytes.count else { break }
            let size = bytes[sizeAt..<(sizeAt + 4)].reduce(0) { $0 << 8 | Int($1) }
            let start = sizeAt + 4
            guard size <= bytes.count - start else { break }
            if signature == signatures[0], found[id] == nil { found[id] = Data(bytes[start..<(start + size)]) }
            offset = start + ((size + 1) & ~1)
        }
        return found
    }

    /// The MD5 of an IPTC block, as Photoshop stores it in resource 0x0425 and ExifTool reports it
    /// (`CurrentIPTCDigest`). MD5 is what the format uses; it is a fingerprint here, not a defence.
    package static func digest(_ iim: Data) -> Data {
        Data(Insecure.MD5.hash(data: iim))
    }
}
