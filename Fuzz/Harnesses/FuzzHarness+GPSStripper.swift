import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel

extension FuzzHarness {
    /// The lossless GPS stripper behind the published originals.
    ///
    /// Besides not crashing, what it returns must keep its promise: no GPS position in the EXIF it
    /// kept, and no XMP or Photoshop/IPTC segment, since either can carry one.
    static let gpsStripper = FuzzHarness(
        name: "gps-stripper",
        summary: "PublishedOriginal.strippedJPEG (and its promise: no position left)"
    ) { data in
        guard let stripped = try? PublishedOriginal.strippedJPEG(data) else { return nil }
        if ExifReader.read(jpeg: stripped).location != nil { return "the stripped JPEG still has a GPS position" }
        let kept = JPEGSegments.find(
            in: stripped, markers: [0xe1, 0xed],
            prefixes: [MetadataBlocks.xmpSignature, MetadataBlocks.photoshopSignature])
        if !kept.isEmpty { return "the stripped JPEG still has an XMP or Photoshop segment" }
        return nil
    }
}
