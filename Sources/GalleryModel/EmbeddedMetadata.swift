import Foundation

/// The raw metadata blocks an original carries, as each decoder finds them: EXIF (a TIFF
/// structure, with or without the `Exif\0\0` prefix), an XMP packet (RDF/XML text) and an IPTC-IIM
/// block (Photoshop `8BIM` resources or bare IIM records). Every field is optional.
public struct MetadataBlocks: Sendable, Equatable {
    public var exif: Data?
    public var xmp: Data?
    public var iptc: Data?

    public init(exif: Data? = nil, xmp: Data? = nil, iptc: Data? = nil) {
        self.exif = exif
        self.xmp = xmp
        self.iptc = iptc
    }
}

/// What a photographer wrote into the file: the descriptive fields of XMP, IPTC-IIM and EXIF,
/// already merged in that order of precedence (XMP first, then IPTC, then EXIF). Stored with the
/// original's header facts, so unchanged photos never read their files again.
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

    public init(title: String? = nil, caption: String? = nil, keywords: [String] = [], creator: String? = nil,
                rights: String? = nil, licenseURL: URL? = nil, rating: Int? = nil, takenAt: String? = nil) {
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

    /// This value with every field it lacks taken from `other`; keywords only when it has none.
    package func filling(from other: EmbeddedMetadata) -> EmbeddedMetadata {
        EmbeddedMetadata(title: title ?? other.title, caption: caption ?? other.caption,
                         keywords: keywords.isEmpty ? other.keywords : keywords, creator: creator ?? other.creator,
                         rights: rights ?? other.rights, licenseURL: licenseURL ?? other.licenseURL,
                         rating: rating ?? other.rating, takenAt: takenAt ?? other.takenAt)
    }
}
