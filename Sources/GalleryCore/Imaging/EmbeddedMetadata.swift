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

    /// Reads and merges the descriptive fields of every block: each field comes from XMP if it has
    /// it, else IPTC, else EXIF (keywords: the first block with any). Never fails: a block that
    /// cannot be read adds nothing.
    static func read(_ blocks: MetadataBlocks) -> EmbeddedMetadata {
        let layers = [blocks.xmp.flatMap { try? XMPReader.read($0) }, blocks.iptc.map(IPTCReader.read),
                      blocks.exif.map { ExifReader.descriptive(exif: $0) }]
        return layers.compactMap { $0?.cleaned() }.reduce(EmbeddedMetadata()) { $0.filling(from: $1) }
    }

    /// This value with every field it lacks taken from `other`; keywords only when it has none.
    func filling(from other: EmbeddedMetadata) -> EmbeddedMetadata {
        EmbeddedMetadata(title: title ?? other.title, caption: caption ?? other.caption,
                         keywords: keywords.isEmpty ? other.keywords : keywords, creator: creator ?? other.creator,
                         rights: rights ?? other.rights, licenseURL: licenseURL ?? other.licenseURL,
                         rating: rating ?? other.rating, takenAt: takenAt ?? other.takenAt)
    }

    // MARK: Limits

    /// The same caps as a manifest entry's (`ManifestEntryMapper`): files are as untrusted as manifests.
    static let maxTitle = 300
    static let maxCaption = 20_000
    static let maxName = 200
    static let maxKeyword = 100
    static let maxKeywords = 100

    /// Every string trimmed, without control characters and capped; keywords unique and at most
    /// `maxKeywords`; a rating outside -1…5, a date that is not ISO 8601 and a link that is not
    /// http(s) dropped.
    func cleaned() -> EmbeddedMetadata {
        var unique: [String] = []
        for keyword in keywords.compactMap({ ManifestEntryMapper.clean($0, max: Self.maxKeyword) })
            where !unique.contains(keyword) && unique.count < Self.maxKeywords {
            unique.append(keyword)
        }
        return EmbeddedMetadata(
            title: title.flatMap { ManifestEntryMapper.clean($0, max: Self.maxTitle) },
            caption: caption.flatMap { ManifestEntryMapper.clean($0, max: Self.maxCaption) },
            keywords: unique, creator: creator.flatMap { ManifestEntryMapper.clean($0, max: Self.maxName) },
            rights: rights.flatMap { ManifestEntryMapper.clean($0, max: Self.maxName) },
            licenseURL: licenseURL.flatMap { Self.webURL($0.absoluteString) },
            rating: rating.flatMap { (-1...5).contains($0) ? $0 : nil }, takenAt: takenAt.flatMap(Self.isoDate))
    }

    /// An http(s) URL with a host, or nil.
    static func webURL(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 2_000, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
              ["http", "https"].contains(scheme), url.host?.isEmpty == false else { return nil }
        return url
    }

    /// `2015-03-14T10:22:01.25+01:00` as the site shows dates (`2015-03-14T10:22:01+01:00`); a bare
    /// year or year and month as written; an EXIF-style `2015:03:14 10:22:01` converted; else nil.
    static func isoDate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 40 else { return nil }
        if let exifStyle = ExifReader.isoDate(trimmed, offset: nil), trimmed.dropFirst(4).first == ":" { return exifStyle }
        if let machine = Formatting.date(trimmed)?.machine { return machine }
        let digits = trimmed.utf8.enumerated().allSatisfy { $0.offset == 4 ? $0.element == 0x2d : (0x30...0x39).contains($0.element) }
        return digits && (trimmed.utf8.count == 4 || trimmed.utf8.count == 7) && !trimmed.hasPrefix("0000") ? trimmed : nil
    }
}
