import Foundation
import GalleryImaging

extension FuzzHarness {
    /// Every format's header reader as the images step calls it: sniffing, then the JPEG, PNG,
    /// TIFF, GIF, WebP or HEIF header with its EXIF, XMP, IPTC and ICC blocks, decoding no pixels.
    static let imageHeaders = FuzzHarness(
        name: "image-headers",
        summary: "ImageProcessor.readHeaders (sniff; JPEG/PNG/TIFF/GIF/WebP/HEIF headers; EXIF, XMP, IPTC, ICC)"
    ) { data in
        _ = try? ImageProcessor.readHeaders(data)
        return nil
    }
}
