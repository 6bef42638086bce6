import Foundation
import GalleryMetadata
import GalleryModel

/// The bytes of an original as the site publishes it for its "full size" link.
///
/// A JPEG keeps its pixels bit for bit: only its marker segments are rewritten. The EXIF block
/// loses the GPS position and the serial numbers (`ExifReader.strippedExifSegment`) and keeps
/// orientation, camera, exposure, date and copyright; the ICC profile, JFIF and Adobe segments
/// stay. XMP and Photoshop/IPTC blocks are dropped, because either can carry a position or a
/// serial number in forms no stripper can enumerate; the photo page shows their text. Anything
/// after the first image (the extra pictures of an MPO, phone makers' trailers) is dropped too,
/// except a gain map (`strippedJPEG(_:keepingGainMap:)`).
package enum PublishedOriginal {
    /// The JPEG without location and serial numbers and, when `keepingGainMap`, with its gain map
    /// stripped the same way and written after it again (`UltraHDRFile`), so the original stays HDR.
    /// - Throws: `ImagingError` when the marker structure is broken.
    package static func strippedJPEG(_ data: Data, keepingGainMap: Bool) throws -> Data {
        let primary = try strippedJPEG(data)
        guard keepingGainMap, let size = try? JPEGCodec.header(data).size,
            case .found(let gainMap) = GainMap.find(in: data, size: size)
        else { return primary }
        return try UltraHDRFile.assemble(
            primary: primary, gainMap: try strippedJPEG(gainMap.jpeg), metadata: gainMap.metadata)
    }

    /// Whether a segment is kept: JFIF (`APP0`), EXIF (`APP1`, rewritten), the ICC profile
    /// (`APP2 ICC_PROFILE`), Adobe (`APP14`, which says how CMYK is stored) and every non-APP
    /// segment a decoder needs. Comments and all other application segments go.
    private static func keeps(_ marker: UInt8, _ body: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xe0, 0xee: return true
        case 0xe2: return body.starts(with: Array("ICC_PROFILE\0".utf8))
        case 0xe1, 0xe3...0xed, 0xef, 0xfe: return false
        default: return true
        }
    }

    /// The JPEG without location and serial numbers, pixels untouched.
    /// - Throws: `ImagingError` when the marker structure is broken.
    package static func strippedJPEG(_ data: Data) throws -> Data {
        let bytes = [UInt8](data)
        guard bytes.count > 4, bytes[0] == 0xff, bytes[1] == 0xd8 else {
            throw ImagingError.format(.jpeg, "not a JPEG stream")
        }
        var out: [UInt8] = [0xff, 0xd8]
        out.reserveCapacity(bytes.count)
        var offset = 2
        while true {
            // Bytes before a marker that are not 0xff are junk (Photoshop leaves some): libjpeg skips
            // them with a warning, and so do browsers, so they are dropped here too. Markers may be
            // padded with any number of 0xff bytes.
            while offset < bytes.count, bytes[offset] != 0xff { offset += 1 }
            while offset < bytes.count, bytes[offset] == 0xff { offset += 1 }
            guard offset < bytes.count else { throw broken(offset) }
            let marker = bytes[offset]
            offset += 1
            if marker == 0xd9 { break }
            if (0xd0...0xd7).contains(marker) || marker == 0x01 {
                out += [0xff, marker]
                continue
            }
            guard offset + 2 <= bytes.count else { throw broken(offset) }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2, offset + length <= bytes.count else { throw broken(offset) }
            let body = bytes[(offset + 2)..<(offset + length)]
            offset += length
            if marker == 0xe1, body.starts(with: MetadataBlocks.exifSignature) {
                if let stripped = ExifReader.strippedExifSegment(Data(body)) {
                    out += [0xff, 0xe1, UInt8((stripped.count + 2) >> 8), UInt8((stripped.count + 2) & 0xff)]
                    out += stripped
                }
            } else if keeps(marker, body) {
                out += [0xff, marker] + bytes[(offset - length)..<offset]
            }
            if marker == 0xda {
                // Entropy-coded data runs to the next marker that is not a stuffed 0x00 or a restart.
                let start = offset
                while offset + 1 < bytes.count,
                    !(bytes[offset] == 0xff && bytes[offset + 1] != 0 && !(0xd0...0xd7).contains(bytes[offset + 1]))
                {
                    offset += 1
                }
                out += bytes[start..<offset]
                if offset + 1 >= bytes.count { break }  // truncated after the scan: end the image here
            }
        }
        out += [0xff, 0xd9]
        return Data(out)
    }

    private static func broken(_ offset: Int) -> ImagingError {
        ImagingError.format(.jpeg, "broken marker structure at byte \(offset); cannot remove its location safely")
    }
}
