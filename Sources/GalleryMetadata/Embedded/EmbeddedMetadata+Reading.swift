import Foundation
import GalleryModel

extension EmbeddedMetadata {
    /// Reads the descriptive fields of every block and chooses between them by the Metadata Working
    /// Group's rules (`choosing(exif:iptc:xmp:)`), then cleans them. Never fails: a block that
    /// cannot be read adds nothing.
    package static func read(_ blocks: MetadataBlocks) -> EmbeddedMetadata {
        let exif = blocks.exif.map { ExifReader.descriptive(exif: $0) } ?? MetadataFields()
        let xmp = blocks.xmp.flatMap { try? XMPReader.fields($0) } ?? MetadataFields()
        let iptc = IPTCReader.record(iptc: blocks.iptc, photoshop: blocks.photoshop)
        return choosing(exif: exif, iptc: iptc, xmp: xmp).cleaned()
    }

    // MARK: Limits

    /// The same caps as a manifest entry's (`ManifestEntryMapper`): files are as untrusted as manifests.
    package static let maxTitle = 300
    package static let maxCaption = 20_000
    static let maxName = 200
    static let maxKeyword = 100
    package static let maxKeywords = 100

    /// Every string trimmed, without control characters and capped; keywords unique and at most
    /// `maxKeywords`; a rating outside -1…5, a date that is not ISO 8601 and a link that is not
    /// http(s) dropped.
    package func cleaned() -> EmbeddedMetadata {
        var unique: [String] = []
        for keyword in keywords.compactMap({ UntrustedText.clean($0, max: Self.maxKeyword) })
        where !unique.contains(keyword) && unique.count < Self.maxKeywords {
            unique.append(keyword)
        }
        return EmbeddedMetadata(
            title: title.flatMap { UntrustedText.clean($0, max: Self.maxTitle) },
            caption: caption.flatMap { UntrustedText.clean($0, max: Self.maxCaption) },
            keywords: unique, creator: creator.flatMap { UntrustedText.clean($0, max: Self.maxName) },
            rights: rights.flatMap { UntrustedText.clean($0, max: Self.maxName) },
            licenseURL: licenseURL.flatMap { Self.webURL($0.absoluteString) },
            rating: rating.flatMap { (-1...5).contains($0) ? $0 : nil }, takenAt: takenAt.flatMap(Self.isoDate))
    }

    /// An http(s) URL with a host, or nil.
    static func webURL(_ text: String) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 2_000, let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else { return nil }
        return url
    }

    /// `2015-03-14T10:22:01.25+01:00` as the site shows dates (`2015-03-14T10:22:01+01:00`); a bare
    /// year or year and month as written; an EXIF-style `2015:03:14 10:22:01` converted; else nil.
    package static func isoDate(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= 40 else { return nil }
        if let exifStyle = ExifReader.isoDate(trimmed, offset: nil), trimmed.dropFirst(4).first == ":" {
            return exifStyle
        }
        if let machine = PhotoDate(trimmed)?.machine { return machine }
        let digits = trimmed.utf8.enumerated().allSatisfy {
            $0.offset == 4 ? $0.element == 0x2d : (0x30...0x39).contains($0.element)
        }
        return digits && (trimmed.utf8.count == 4 || trimmed.utf8.count == 7) && !trimmed.hasPrefix("0000")
            ? trimmed : nil
    }
}
