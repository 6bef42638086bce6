import Foundation
import GalleryModel

/// What one metadata block (EXIF, IPTC-IIM or XMP) says, as read, before the Metadata Working
/// Group's rules choose between blocks (`EmbeddedMetadata+MWG.swift`).
///
/// The blocks are kept apart, not merged as they are read, because the MWG's choice depends on
/// which block has a field and, between IPTC and XMP, on the IPTC digest. A field is nil (a list
/// empty) when the block does not have it. Raw values: cleaning and caps come after the choice.
package struct MetadataFields: Sendable, Equatable {
    /// XMP `dc:title`, IPTC 2:05 ObjectName; EXIF has none.
    package var title: String?
    /// XMP `photoshop:Headline`, IPTC 2:105: Photo Mechanic's short title, a title only where no
    /// block has a real one.
    package var headline: String?
    /// EXIF ImageDescription, IPTC 2:120 Caption-Abstract, XMP `dc:description`.
    package var description: String?
    /// IPTC 2:25 Keywords, XMP `dc:subject`; EXIF has none.
    package var keywords: [String] = []
    /// EXIF Artist (the MWG's `; `-separated list), IPTC 2:80 By-line, XMP `dc:creator`.
    package var creators: [String] = []
    /// EXIF Copyright, IPTC 2:116 CopyrightNotice, XMP `dc:rights`.
    package var copyright: String?
    /// When the photo was taken, ISO 8601: EXIF DateTimeOriginal with OffsetTimeOriginal, IPTC 2:55
    /// DateCreated with 2:60 TimeCreated, XMP `photoshop:DateCreated`.
    var dateTaken: String?
    /// XMP only: `xmpRights:WebStatement` or `cc:license`.
    package var licenseURL: URL?
    /// XMP only: `xmp:Rating`.
    package var rating: Int?
    /// XMP only, outside the MWG's list, so used only where its choice leaves the field empty:
    /// `exif:DateTimeOriginal` or `xmp:CreateDate` as the date, Lightroom's
    /// `lr:hierarchicalSubject` leaves as the keywords.
    package var otherDate: String?
    package var otherKeywords: [String] = []

    package init() {}

    /// The block on its own, as a sidecar file is read: the headline stands in for a missing title
    /// and the other date and keywords for missing ones.
    package var alone: EmbeddedMetadata {
        EmbeddedMetadata(
            title: title ?? headline, caption: description,
            keywords: keywords.isEmpty ? otherKeywords : keywords,
            creator: creators.isEmpty ? nil : creators.joined(separator: ", "), rights: copyright,
            licenseURL: licenseURL, rating: rating, takenAt: dateTaken ?? otherDate)
    }
}

/// An IPTC-IIM block with what the MWG needs to judge it: its fields, the MD5 of its bytes and
/// the digest Photoshop stored (image resource 0x0425) when it last wrote XMP and IPTC together.
package struct IPTCRecord: Sendable, Equatable {
    package var fields: MetadataFields
    /// The MD5 of the IIM bytes as stored (ExifTool's `CurrentIPTCDigest`).
    package var digest: Data
    /// Resource 0x0425 (ExifTool's `IPTCDigest`); nil when the file has none.
    package var storedDigest: Data?

    package init(fields: MetadataFields, digest: Data, storedDigest: Data?) {
        self.fields = fields
        self.digest = digest
        self.storedDigest = storedDigest
    }

    /// Whether the XMP may be trusted over this IPTC: no digest was stored, or it matches. A digest
    /// that does not match means a program that knows no XMP edited the IPTC after the XMP was
    /// written, so the IPTC is the newer of the two.
    var xmpIsInSync: Bool { storedDigest == nil || storedDigest == digest }
}
