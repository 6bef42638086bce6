import Foundation
import GalleryImaging
import GalleryModel

extension FuzzHarness {
    /// The JPEG marker walk and what is read through it: metadata blocks and the ICC profile.
    static let jpegSegments = FuzzHarness(
        name: "jpeg-segments",
        summary: "JPEGSegments.find, MetadataBlocks.fromJPEG, ICCProfile.fromJPEG"
    ) { data in
        let segments = JPEGSegments.find(in: data, markers: Set(0...255))
        if segments.contains(where: { $0.body.count > 65533 }) { return "a segment body longer than a length field allows" }
        _ = MetadataBlocks.fromJPEG(data)
        _ = ICCProfile.fromJPEG(data)
        return nil
    }
}
