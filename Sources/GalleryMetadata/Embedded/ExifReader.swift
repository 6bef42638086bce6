import CExif
import Foundation
import GalleryModel

/// Reads EXIF with libexif, the only file that imports it.
package enum ExifReader {
    /// Parses the EXIF APP1 segment of a JPEG, if it has one. Never fails: unreadable EXIF yields defaults.
    package static func read(jpeg data: Data) -> ExifInfo {
        guard let exif = load(data) else { return ExifInfo() }
        defer { exif_data_unref(exif) }
        let order = exif_data_get_byte_order(exif)
        let ifds = exif.pointee.ifd
        let contents = [ifds.0, ifds.2]
        let gps = ifds.3
        func entry(_ tag: ExifTag) -> UnsafeMutablePointer<ExifEntry>? {
            for content in contents {
                if let content, let found = exif_content_get_entry(content, tag) { return found }
            }
            return nil
        }
        func text(_ tag: ExifTag) -> String? {
            guard let item = entry(tag), item.pointee.format == EXIF_FORMAT_ASCII, let bytes = item.pointee.data else {
                return nil
            }
            let buffer = UnsafeBufferPointer(start: bytes, count: Int(item.pointee.size))
            let string = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines.union(.controlCharacters))
            return string.isEmpty ? nil : string
        }
        func number(_ tag: ExifTag) -> Double? {
            guard let item = entry(tag), let bytes = item.pointee.data, item.pointee.components >= 1 else { return nil }
            switch item.pointee.format {
            case EXIF_FORMAT_SHORT where item.pointee.size >= 2: return Double(exif_get_short(bytes, order))
            case EXIF_FORMAT_LONG where item.pointee.size >= 4: return Double(exif_get_long(bytes, order))
            case EXIF_FORMAT_RATIONAL where item.pointee.size >= 8:
                let value = exif_get_rational(bytes, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            case EXIF_FORMAT_SRATIONAL where item.pointee.size >= 8:
                let value = exif_get_srational(bytes, order)
                return value.denominator == 0 ? nil : Double(value.numerator) / Double(value.denominator)
            default: return nil
            }
        }

        var info = ExifInfo()
        if let orientation = number(EXIF_TAG_ORIENTATION), (1...8).contains(orientation) {
            info.orientation = Int(orientation)
        }
        info.camera = CameraInfo(
            make: text(EXIF_TAG_MAKE), model: text(EXIF_TAG_MODEL), lens: text(EXIF_TAG_LENS_MODEL),
            focalLength: number(EXIF_TAG_FOCAL_LENGTH).flatMap { $0 > 0 ? $0 : nil },
            aperture: number(EXIF_TAG_FNUMBER).flatMap { $0 > 0 ? $0 : nil },
            exposureTime: number(EXIF_TAG_EXPOSURE_TIME).flatMap { $0 > 0 ? $0 : nil },
            iso: number(EXIF_TAG_ISO_SPEED_RATINGS).flatMap { $0 > 0 ? Int($0) : nil })
        info.takenAt = isoDate(text(EXIF_TAG_DATE_TIME_ORIGINAL), offset: text(EXIF_TAG_OFFSET_TIME_ORIGINAL))
        if let gps {
            info.location = location(gps, order: order)
        }
        return info
    }

    /// The text fields of an EXIF block (`Exif\0\0` and a TIFF structure, or the TIFF structure
    /// alone): ImageDescription as the caption, Artist (the MWG's `; `-separated list), Copyright
    /// and DateTimeOriginal. Raw values, cleaned later by `EmbeddedMetadata`. Cameras that fill
    /// ImageDescription with their own name (`OLYMPUS DIGITAL CAMERA`) say nothing about the photo,
    /// so those captions are dropped.
    static func descriptive(exif block: Data) -> MetadataFields {
        guard block.count <= 4 << 20, let exif = load(loadable(block)) else { return MetadataFields() }
        defer { exif_data_unref(exif) }
        let ifds = exif.pointee.ifd
        func text(_ tag: ExifTag) -> String? {
            for content in [ifds.0, ifds.2] {
                guard let content, let item = exif_content_get_entry(content, tag),
                    item.pointee.format == EXIF_FORMAT_ASCII,
                    let bytes = item.pointee.data
                else { continue }
                let buffer = UnsafeBufferPointer(start: bytes, count: Int(item.pointee.size))
                let string = String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(
                    in: .whitespacesAndNewlines)
                if !string.isEmpty { return string }
            }
            return nil
        }
        var result = MetadataFields()
        result.description = text(EXIF_TAG_IMAGE_DESCRIPTION).flatMap {
            placeholderCaptions.contains($0.uppercased()) ? nil : $0
        }
        result.creators = text(EXIF_TAG_ARTIST).map(EmbeddedMetadata.mwgList) ?? []
        result.copyright = text(EXIF_TAG_COPYRIGHT)
        result.dateTaken = isoDate(text(EXIF_TAG_DATE_TIME_ORIGINAL), offset: text(EXIF_TAG_OFFSET_TIME_ORIGINAL))
        return result
    }

    /// ImageDescription values that cameras write by themselves.
    static let placeholderCaptions: Set<String> = [
        "OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA", "KONICA MINOLTA DIGITAL CAMERA",
        "MINOLTA DIGITAL CAMERA",
        "SAMSUNG DIGITAL CAMERA", "DCIM", "DEFAULT", "DESCRIPTION", "IMAGE"
    ]

    /// Degrees from the GPS IFD's latitude/longitude rationals and their N/S, E/W references.
    private static func location(_ gps: UnsafeMutablePointer<ExifContent>, order: ExifByteOrder) -> GeoPoint? {
        func degrees(_ valueTag: UInt32, _ refTag: UInt32, negative: UInt8) -> Double? {
            guard let value = exif_content_get_entry(gps, ExifTag(rawValue: valueTag)), let bytes = value.pointee.data,
                value.pointee.format == EXIF_FORMAT_RATIONAL, value.pointee.components >= 3, value.pointee.size >= 24
            else { return nil }
            var parts: [Double] = []
            for index in 0..<3 {
                let rational = exif_get_rational(bytes + index * 8, order)
                guard rational.denominator != 0 else { return nil }
                parts.append(Double(rational.numerator) / Double(rational.denominator))
            }
            var result = parts[0] + parts[1] / 60 + parts[2] / 3600
            if let ref = exif_content_get_entry(gps, ExifTag(rawValue: refTag)), let refBytes = ref.pointee.data,
                ref.pointee.size >= 1, refBytes[0] == negative
            {
                result = -result
            }
            return result
        }
        guard let latitude = degrees(0x0002, 0x0001, negative: UInt8(ascii: "S")),
            let longitude = degrees(0x0004, 0x0003, negative: UInt8(ascii: "W")),
            !(latitude == 0 && longitude == 0), abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// `2015:03:14 10:22:01` and `+01:00` become `2015-03-14T10:22:01+01:00`; placeholders like `0000:00:00` become nil.
    package static func isoDate(_ value: String?, offset: String?) -> String? {
        guard let value, value.count >= 19 else { return nil }
        let chars = Array(value.prefix(19))
        let digitPositions = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard digitPositions.allSatisfy({ chars[$0].isASCII && chars[$0].isNumber }) else { return nil }
        let date = String(chars[0..<4]) + "-" + String(chars[5..<7]) + "-" + String(chars[8..<10])
        guard !date.hasPrefix("0000"), String(chars[5..<7]) != "00" else { return nil }
        var result = date + "T" + String(chars[11..<19])
        if let offset, offset.count == 6, offset.first == "+" || offset.first == "-", offset.dropFirst(3).first == ":" {
            result += offset
        }
        return result
    }
}

extension ExifReader {
    /// `bytes` (a JPEG stream, or a block that starts with `Exif\0\0`) loaded by libexif, which is
    /// not let "fix" the data by inventing mandatory entries with default values; the caller unrefs it.
    private static func load(_ bytes: Data) -> UnsafeMutablePointer<ExifData>? {
        guard let exif = exif_data_new() else { return nil }
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        bytes.withUnsafeBytes { raw in
            exif_data_load_data(
                exif, raw.bindMemory(to: UInt8.self).baseAddress, UInt32(min(raw.count, Int(UInt32.max))))
        }
        return exif
    }

    /// Tags that identify a camera, a lens or their owner; never published (`0xa430`–`0xa435`,
    /// `ImageUniqueID`, and the maker note, where makers keep serial numbers in private formats).
    static let identifyingTags: [UInt32] = [0xa430, 0xa431, 0xa435, 0xa420, 0x927c]

    /// An `Exif\0\0…` APP1 body without the GPS directory and the identifying tags; every other
    /// entry (orientation, camera, exposure, date, copyright) stays. Nil when libexif cannot read
    /// the block or the result would not fit a JPEG segment, so the caller drops it instead.
    package static func strippedExifSegment(_ body: Data) -> Data? {
        guard let exif = load(body) else { return nil }
        defer { exif_data_unref(exif) }
        let ifds = exif.pointee.ifd
        guard ifds.0 != nil else { return nil }
        for content in [ifds.0, ifds.1, ifds.2, ifds.3, ifds.4].compactMap({ $0 }) {
            let isGPS = content == ifds.3
            var doomed: [UnsafeMutablePointer<ExifEntry>] = []
            for index in 0..<Int(content.pointee.count) {
                guard let entry = content.pointee.entries[index] else { continue }
                if isGPS || identifyingTags.contains(entry.pointee.tag.rawValue) || entry.pointee.tag.rawValue == 0x8825
                {
                    doomed.append(entry)
                }
            }
            for entry in doomed { exif_content_remove_entry(content, entry) }
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(exif, &output, &size)
        guard let output else { return nil }
        defer { free(output) }
        guard size >= 6, size <= 65533 else { return nil }
        return Data(bytes: output, count: Int(size))
    }
}

extension ExifReader {
    /// The maker note of an EXIF block (a TIFF structure, with or without the `Exif\0\0` prefix: a
    /// HEIF's has none) as stored: its bytes, for the readers of one maker's format
    /// (`LivePhotoIdentifier`); nil when it has none.
    package static func makerNote(exif block: Data) -> Data? {
        guard block.count <= 4 << 20, let exif = load(loadable(block)) else { return nil }
        defer { exif_data_unref(exif) }
        guard let content = exif.pointee.ifd.2, let entry = exif_content_get_entry(content, EXIF_TAG_MAKER_NOTE),
            let bytes = entry.pointee.data, entry.pointee.size > 0
        else { return nil }
        return Data(bytes: bytes, count: Int(entry.pointee.size))
    }
}
