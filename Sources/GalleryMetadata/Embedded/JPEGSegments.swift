import Foundation
import GalleryModel

/// The marker segments of a JPEG's header, found by their lengths alone.
///
/// Metadata (EXIF and XMP in `APP1`, ICC profiles in `APP2`, IPTC in `APP13`) sits in
/// length-prefixed segments before the first scan, so finding it needs no JPEG parser: this walks
/// marker, length, marker, length… and stops at the start of scan, at the end of the image or at
/// the first thing that is not a marker. A truncated or garbled header just ends the walk early.
package enum JPEGSegments {
    package struct Segment: Sendable, Equatable {
        /// The marker's second byte: `0xe1` for `APP1`, `0xed` for `APP13`.
        package var marker: UInt8
        /// The bytes after the two length bytes.
        package var body: Data
        /// Where `body` starts in the file, counting from its first byte.
        var bodyOffset = 0
    }

    /// The segments with one of `markers`, in file order, whose body starts with one of `prefixes`
    /// (any body when `prefixes` is empty). Only the wanted bodies are copied.
    package static func find(in jpeg: Data, markers: Set<UInt8>, prefixes: [[UInt8]] = []) -> [Segment] {
        jpeg.withUnsafeBytes { raw -> [Segment] in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count > 4, bytes[0] == 0xff, bytes[1] == 0xd8 else { return [] }
            var found: [Segment] = []
            var offset = 2
            while offset + 4 <= bytes.count, bytes[offset] == 0xff {
                let marker = bytes[offset + 1]
                if marker == 0xda || marker == 0xd9 { break }  // start of scan / end of image
                // fill bytes and the markers that have no length
                if marker == 0x01 || (0xd0...0xd7).contains(marker) || marker == 0xff {
                    offset += marker == 0xff ? 1 : 2
                    continue
                }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2, offset + 2 + length <= bytes.count else { break }
                let body = UnsafeBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
                if markers.contains(marker),
                    prefixes.isEmpty || prefixes.contains(where: { body.count >= $0.count && body.starts(with: $0) })
                {
                    found.append(Segment(marker: marker, body: Data(buffer: body), bodyOffset: offset + 4))
                }
                offset += 2 + length
            }
            return found
        }
    }
}

extension MetadataBlocks {
    package static let exifSignature = Array("Exif".utf8) + [0, 0]
    package static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    package static let photoshopSignature = Array("Photoshop 3.0".utf8) + [0]

    /// The EXIF, XMP and IPTC blocks of a JPEG: the first `APP1 Exif` segment (kept with its
    /// `Exif\0\0` prefix), the first `APP1` XMP packet (without its namespace prefix) and every
    /// `APP13 Photoshop 3.0` segment joined, since Photoshop splits long resource blocks over several.
    ///
    /// Extended XMP (`http://ns.adobe.com/xmp/extension/`, for packets over 64 KB) is not read:
    /// it holds previews and history, not the descriptive fields.
    package static func fromJPEG(_ data: Data) -> MetadataBlocks {
        let segments = JPEGSegments.find(
            in: data, markers: [0xe1, 0xed],
            prefixes: [exifSignature, xmpSignature, photoshopSignature])
        var blocks = MetadataBlocks()
        var photoshop: Data?
        for segment in segments {
            let body = segment.body
            if segment.marker == 0xe1, body.starts(with: exifSignature) {
                if blocks.exif == nil { blocks.exif = body }
            } else if segment.marker == 0xe1, body.starts(with: xmpSignature) {
                if blocks.xmp == nil { blocks.xmp = Data(body.dropFirst(xmpSignature.count)) }
            } else if segment.marker == 0xed, body.starts(with: photoshopSignature) {
                // The first segment keeps its `Photoshop 3.0\0` header; later ones continue it.
                photoshop = photoshop.map { $0 + body.dropFirst(photoshopSignature.count) } ?? body
            }
        }
        blocks.iptc = photoshop
        return blocks
    }
}
