import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel

extension FuzzHarness {
    /// The JPEG marker walk and what is read through it: metadata blocks, the ICC profile, a motion
    /// photo's clip, and the Apple maker note's content identifier (also read from the input as a
    /// maker note itself, so the fuzzer reaches its entries without building an EXIF block).
    static let jpegSegments = FuzzHarness(
        name: "jpeg-segments",
        summary:
            "JPEGSegments.find, MetadataBlocks.fromJPEG, ICCProfile.fromJPEG, MotionPhoto.clip, LivePhotoIdentifier"
    ) { data in
        let segments = JPEGSegments.find(in: data, markers: Set(0...255))
        if segments.contains(where: { $0.body.count > 65533 }) {
            return "a segment body longer than a length field allows"
        }
        _ = MetadataBlocks.fromJPEG(data)
        _ = ICCProfile.fromJPEG(data)
        if let clip = MotionPhoto.clip(in: data), clip.lowerBound < 0 || clip.upperBound > data.count {
            return "a motion photo clip outside the file"
        }
        _ = LivePhotoIdentifier.ofStill(data)
        _ = LivePhotoIdentifier.appleContentIdentifier(data)
        return nil
    }
}
