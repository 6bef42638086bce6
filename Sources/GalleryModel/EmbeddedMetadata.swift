import Foundation

/// The raw metadata blocks an original carries, as each decoder finds them: EXIF (a TIFF
/// structure, with or without the `Exif\0\0` prefix), an XMP packet (RDF/XML text), an IPTC-IIM
/// block (Photoshop `8BIM` resources or bare IIM records) and, where a format keeps them apart
/// from the IPTC (TIFF tag 34377), Photoshop's image resources. Every field is optional.
package struct MetadataBlocks: Sendable, Equatable {
    package var exif: Data?
    package var xmp: Data?
    package var iptc: Data?
    /// Photoshop's image resources when stored apart from `iptc`: the IPTC digest, and the IPTC
    /// itself for a TIFF without tag 33723.
    package var photoshop: Data?

    package init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil, photoshop: Data? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
        self.photoshop = photoshop
    }
}

/// What a photographer wrote into the file: the descriptive fields of EXIF, IPTC-IIM and XMP,
/// already chosen between by the Metadata Working Group's rules (`EmbeddedMetadata+MWG.swift` in
/// GalleryMetadata). Stored with the original's header facts, so unchanged photos never read their
/// files again.
package struct EmbeddedMetadata: Sendable, Equatable, Codable {
    package var title: String?
    /// A caption or description, plain text.
    package var caption: String?
    package var keywords: [String] = []
    package var creator: String?
    /// The copyright or rights statement.
    package var rights: String?
    /// A link to the licence or usage terms (XMP `xmpRights:WebStatement`, `cc:license`).
    package var licenseURL: URL?
    /// The star rating, 0–5 (XMP `xmp:Rating`); -1 marks a rejected photo.
    package var rating: Int?
    /// When the photo was taken, ISO 8601.
    package var takenAt: String?

    package init(
        title: String? = nil, caption: String? = nil, keywords: [String] = [], creator: String? = nil,
        rights: String? = nil, licenseURL: URL? = nil, rating: Int? = nil, takenAt: String? = nil
    ) {
        self.title = title
        self.caption = caption
        self.keywords = keywords
        self.creator = creator
        self.rights = rights
        self.licenseURL = licenseURL
        self.rating = rating
        self.takenAt = takenAt
    }

    /// Whether nothing at all was found.
    package var isEmpty: Bool { self == EmbeddedMetadata() }
}
