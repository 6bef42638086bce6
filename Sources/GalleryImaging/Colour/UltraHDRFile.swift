import Foundation
import GalleryMetadata
import GalleryModel

/// Writes a primary JPEG and its gain map JPEG as one gain-map file, the layout libultrahdr
/// writes and Chrome, Android and Safari read:
///
///     primary:  SOI, [APP0 JFIF, APP1 EXIF], APP1 XMP (hdrgm:Version, Container directory),
///               APP2 ISO 21496-1 (version), APP2 MPF (where the gain map is), the rest
///     gain map: SOI, APP1 XMP (the hdrgm values), APP2 ISO 21496-1 (the values), the rest
///
/// Only the forms the source had are written: an ISO block alone gets no `hdrgm` XMP, an Ultra HDR
/// file without an ISO block gets none, and Apple's gain map keeps Apple's XMP.
package enum UltraHDRFile {
    /// - Throws: `ImagingError` when either image does not start as a JPEG or a segment would be
    ///   too long (neither happens with the encoder's output).
    package static func assemble(primary: Data, gainMap: Data, metadata: GainMapMetadata) throws -> Data {
        var gainMapSegments: [[UInt8]] = []
        if let xmp = GainMapXMP.gainMap(metadata) {
            gainMapSegments.append(try segment(0xe1, MetadataBlocks.xmpSignature + [UInt8](xmp)))
        }
        if let iso = metadata.iso { gainMapSegments.append(try segment(0xe2, [UInt8](iso.gainMap))) }
        let gainMapFile = try inserting(gainMapSegments, into: [UInt8](gainMap))

        var primarySegments: [[UInt8]] = []
        if metadata.adobe != nil {
            let xmp = GainMapXMP.primary(gainMapLength: gainMapFile.count)
            primarySegments.append(try segment(0xe1, MetadataBlocks.xmpSignature + [UInt8](xmp)))
        }
        if let block = metadata.iso?.primary { primarySegments.append(try segment(0xe2, [UInt8](block))) }
        let bytes = [UInt8](primary)
        let at = insertionPoint(bytes)
        // The MPF segment's TIFF header sits after the segments before it, its own marker, length and
        // signature; the gain map starts where the primary (with everything inserted) ends.
        let header = at + primarySegments.reduce(0) { $0 + $1.count } + 4 + MultiPicture.signature.count
        let primaryLength =
            bytes.count + primarySegments.reduce(0) { $0 + $1.count } + 4
            + MultiPicture.segmentBodyCount
        let mpf = MultiPicture.segmentBody(
            primarySize: primaryLength, secondarySize: gainMapFile.count, secondaryOffset: primaryLength - header)
        primarySegments.append(try segment(0xe2, mpf))
        var out = try inserting(primarySegments, into: bytes)
        out += gainMapFile
        return Data(out)
    }

    /// One marker segment: marker, big-endian length (counting itself), body.
    private static func segment(_ marker: UInt8, _ body: [UInt8]) throws -> [UInt8] {
        guard body.count + 2 <= 0xffff else {
            throw ImagingError.format(.jpeg, "a gain-map segment is too long", kind: .toolFailed)
        }
        return [0xff, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xff)] + body
    }

    private static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) throws -> [UInt8] {
        guard jpeg.count > 4, jpeg[0] == 0xff, jpeg[1] == 0xd8 else {
            throw ImagingError.format(.jpeg, "a gain-map image is not a JPEG stream", kind: .toolFailed)
        }
        let at = insertionPoint(jpeg)
        return Array(jpeg[..<at]) + segments.joined() + jpeg[at...]
    }

    /// After the start of image and the `APP0` and `APP1` segments that follow it at once (JFIF and
    /// EXIF, which readers expect first).
    private static func insertionPoint(_ jpeg: [UInt8]) -> Int {
        var offset = 2
        while offset + 4 <= jpeg.count, jpeg[offset] == 0xff, jpeg[offset + 1] == 0xe0 || jpeg[offset + 1] == 0xe1 {
            let length = Int(jpeg[offset + 2]) << 8 | Int(jpeg[offset + 3])
            guard offset + 2 + length <= jpeg.count else { break }
            offset += 2 + length
        }
        return offset
    }
}
