import Foundation
import GalleryModel

/// The Metadata Working Group's rules for fields that EXIF, IPTC-IIM and XMP all hold, as ExifTool's
/// MWG module (`lib/Image/ExifTool/MWG.pm`, its `MWG:` composite tags) applies them.
///
/// - Description, creator and copyright: EXIF's value when it has a non-blank one (camera
///   placeholders such as `OLYMPUS DIGITAL CAMERA` count as none here), else IPTC or XMP as below.
/// - Date taken: EXIF DateTimeOriginal (with OffsetTimeOriginal), else IPTC or XMP
///   (`photoshop:DateCreated`) as below.
/// - Keywords: IPTC or XMP as below; EXIF has none.
/// - IPTC or XMP: without IPTC, XMP. With IPTC, XMP's value when it has one and the IPTC digest
///   Photoshop stored (resource 0x0425) is absent or matches the IPTC's MD5; otherwise IPTC's
///   value, even where IPTC has none, since a digest that does not match says the IPTC was edited
///   after the XMP. An IPTC value exactly at its IIM length limit that begins an XMP value is
///   taken as a cut copy of it, and the XMP value is used.
/// - Title (not an MWG field): XMP `dc:title` or IPTC ObjectName by the same rule, else the
///   headline (XMP `photoshop:Headline` or IPTC Headline, as Photo Mechanic writes) by that rule.
/// - Rating and licence link: XMP only. Where the choice leaves the date or keywords empty, XMP's
///   `exif:DateTimeOriginal`/`xmp:CreateDate` and Lightroom's hierarchical keywords fill them.
extension EmbeddedMetadata {
    /// The fields as the MWG chooses them between `exif`, `iptc` and `xmp` (raw, not yet cleaned).
    package static func choosing(exif: MetadataFields, iptc: IPTCRecord?, xmp: MetadataFields) -> EmbeddedMetadata {
        func pick(_ field: KeyPath<MetadataFields, String?>, limit: Int) -> String? {
            choose(
                xmp: xmp[keyPath: field],
                iptc: iptc.map { (value: $0.fields[keyPath: field], xmpIsInSync: $0.xmpIsInSync) },
                limit: limit)
        }
        func pickList(_ field: KeyPath<MetadataFields, [String]>, limit: Int) -> [String] {
            let chosen = choose(
                xmp: nonEmpty(xmp[keyPath: field]),
                iptc: iptc.map { (value: nonEmpty($0.fields[keyPath: field]), xmpIsInSync: $0.xmpIsInSync) },
                limit: limit)
            return chosen ?? []
        }
        var result = EmbeddedMetadata()
        result.title = pick(\.title, limit: 64) ?? pick(\.headline, limit: 256)
        result.caption = nonBlank(exif.description) ?? pick(\.description, limit: 2000)
        let creators = nonEmpty(exif.creators.filter { nonBlank($0) != nil }) ?? pickList(\.creators, limit: 32)
        result.creator = creators.isEmpty ? nil : creators.joined(separator: ", ")
        result.rights = nonBlank(exif.copyright) ?? pick(\.copyright, limit: 128)
        result.keywords = nonEmpty(pickList(\.keywords, limit: 64)) ?? xmp.otherKeywords
        // Dates are not cut, so they are never recovered (limit 0 matches nothing).
        result.takenAt = exif.dateTaken ?? pick(\.dateTaken, limit: 0) ?? xmp.otherDate
        result.licenseURL = xmp.licenseURL
        result.rating = xmp.rating
        return result
    }

    /// The MWG's choice between an XMP value and the IPTC one (`iptc` nil when the file has no IPTC).
    private static func choose<Value: Truncatable>(xmp: Value?, iptc: (value: Value?, xmpIsInSync: Bool)?, limit: Int)
        -> Value?
    {
        guard let iptc else { return xmp }
        if let xmp, iptc.xmpIsInSync { return xmp }
        guard let xmp, let value = iptc.value else { return iptc.value }
        return value.recovered(from: xmp, limit: limit)
    }

    private static func nonBlank(_ text: String?) -> String? {
        text.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
    }

    private static func nonEmpty(_ list: [String]) -> [String]? { list.isEmpty ? nil : list }

    /// EXIF Artist as the MWG stores a list in one string: values separated by `; `, a value that
    /// starts with a quote or holds `; ` quoted, with its quotes doubled (ExifTool's `StringToList`).
    package static func mwgList(_ text: String) -> [String] {
        var values: [String] = []
        var inQuotes = false
        for var part in text.components(separatedBy: "; ") {
            let continuing = inQuotes
            if !inQuotes, part.hasPrefix("\"") {
                inQuotes = true
                part.removeFirst()
            }
            if inQuotes {
                let trailing = part.reversed().prefix { $0 == "\"" }.count
                if trailing % 2 == 1 {
                    part.removeLast()
                    inQuotes = false
                }
                part = part.replacingOccurrences(of: "\"\"", with: "\"")
            }
            if continuing, let last = values.popLast() {
                values.append(last + "; " + part)
            } else {
                values.append(part)
            }
        }
        return values
    }
}

/// A value IIM may have cut at its length limit.
private protocol Truncatable {
    /// This IPTC value, or `xmp` when this is `xmp` cut at `limit` bytes.
    func recovered(from xmp: Self, limit: Int) -> Self
}

extension String: Truncatable {
    fileprivate func recovered(from xmp: String, limit: Int) -> String {
        limit > 0 && utf8.count == limit && xmp.utf8.count > limit && xmp.utf8.starts(with: utf8) ? xmp : self
    }
}

extension Array: Truncatable where Element == String {
    /// Item by item, as ExifTool pairs list items by position.
    fileprivate func recovered(from xmp: [String], limit: Int) -> [String] {
        enumerated().map { index, item in index < xmp.count ? item.recovered(from: xmp[index], limit: limit) : item }
    }
}
