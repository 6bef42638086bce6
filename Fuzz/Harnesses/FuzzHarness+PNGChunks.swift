import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel

extension FuzzHarness {
    /// The PNG chunk walkers written in Swift: the `iCCP` profile and the `eXIf`/`iTXt` metadata.
    static let pngChunks = FuzzHarness(
        name: "png-chunks",
        summary: "ICCProfile.fromPNG, MetadataBlocks.fromPNG (iCCP, eXIf, iTXt with zlib)"
    ) { data in
        if let profile = ICCProfile.fromPNG(data), profile.data.count > ICCProfile.maxPNGProfileBytes {
            return "an ICC profile over the inflate limit"
        }
        _ = MetadataBlocks.fromPNG(data)
        return nil
    }
}
