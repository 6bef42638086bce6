import Foundation
import GalleryImaging
import GalleryMetadata

extension FuzzHarness {
    /// The IPTC length guard and libiptcdata behind it, with or without the Photoshop wrapping.
    static let iptc = FuzzHarness(
        name: "iptc",
        summary: "IPTCReader.read (Photoshop resources or bare IIM), IPTCReader.isWellFormed"
    ) { data in
        _ = IPTCReader.isWellFormed(data)
        _ = IPTCReader.read(data)
        return nil
    }
}
