import Foundation

/// The raw metadata blocks an original carries, as each decoder finds them: EXIF (a TIFF
/// structure, with or without the `Exif\0\0` prefix), an XMP packet (RDF/XML text), an IPTC-IIM
/// block (Photoshop `8BIM` resources or bare IIM records) and, where a format keeps them apart
/// from the IPTC (TIFF tag 34377), Photoshop's image resources. Every field is optional.
public struct MetadataBlocks: Sendable, Equatable {
    public var exif: Data?
    public var xmp: Data?
    public var iptc: Data?
    /// Photoshop's image resources when stored apart from `iptc`: the IPTC digest, and the IPTC
    /// itself for a TIFF without tag 33723.
    public var photoshop: Data?

    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil, photoshop: Data? = nil) {
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
public struct EmbeddedMetadata: Sendable, Equatable, Codable {
    public var title: String?
    /// A caption or description, plain text.
    public var caption: String?
    public var keywords: [String] = []
    public var creator: String?
    /// The copyright or rights statement.
    public var rights: String?
    /// A link to the licence or usage terms (XMP `xmpRights:WebStatement`, `cc:license`).
    public var licenseURL: URL?
    /// The star rating, 0–5 (XMP `xmp:Rating`); -1 marks a rejected photo.
    public var rating: Int?
    /// When the photo was taken, ISO 8601.
    public var takenAt: String?

    public init(
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
    public var isEmpty: Bool { self == EmbeddedMetadata() }
}
