import CIPTC
import Foundation
import GalleryModel

/// Reads the descriptive IPTC-IIM datasets with libiptcdata, the only file that imports it.
///
/// IIM is what Photoshop, Lightroom and news agencies wrote before XMP: record 2 holds the object
/// name (2:05), keywords (2:25), date and time created (2:55, 2:60), by-line (2:80), headline
/// (2:105), copyright notice (2:116) and caption (2:120). libiptcdata reports errors by return
/// value, never longjmp.
package enum IPTCReader {
    /// The largest block read; real IPTC blocks are a few kilobytes.
    static let maxBlockBytes = 1 << 20

    /// The fields in `block`: Photoshop image resources (with or without the `Photoshop 3.0\0`
    /// header of a JPEG's `APP13`) or bare IIM datasets. Raw values, not yet cleaned; empty when
    /// the block holds no IPTC or is malformed. The headline stands in for a missing title.
    package static func read(_ block: Data) -> EmbeddedMetadata {
        record(iptc: block, photoshop: nil)?.fields.alone ?? EmbeddedMetadata()
    }

    /// The IPTC of a file with its digests, or nil when it has none. `iptc` is a JPEG's `APP13`
    /// resources or a TIFF's tag 33723 (bare IIM); `photoshop` a TIFF's tag 34377 resources, which
    /// hold the stored digest and, when the file has no tag 33723, the IPTC itself (Photoshop writes
    /// both; some programs write only the resources).
    package static func record(iptc: Data?, photoshop: Data?) -> IPTCRecord? {
        let resources = [iptc, photoshop].compactMap { block in
            block.flatMap { $0.count <= maxBlockBytes && $0.first != 0x1c ? PhotoshopResources.read($0) : nil }
        }
        let bare = iptc.flatMap { $0.first == 0x1c && $0.count <= maxBlockBytes ? $0 : nil }
        guard let iim = bare ?? resources.lazy.compactMap({ $0[PhotoshopResources.iptcID] }).first, !iim.isEmpty else {
            return nil
        }
        let stored = resources.lazy.compactMap { $0[PhotoshopResources.iptcDigestID] }.first
        return IPTCRecord(fields: records(iim), digest: PhotoshopResources.digest(iim), storedDigest: stored)
    }

    /// Reads IIM datasets once `isWellFormed` has vouched for their lengths.
    private static func records(_ iim: Data) -> MetadataFields {
        guard isWellFormed(iim) else { return MetadataFields() }
        var fields: [(record: UInt32, tag: UInt32, bytes: [UInt8])] = []
        var utf8Declared = false
        iim.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let data = iptc_data_new() else { return }
            defer { iptc_data_unref(data) }
            _ = iptc_data_load(data, base, UInt32(raw.count))  // on failure, the datasets before the error stay
            utf8Declared = iptc_data_get_encoding(data) == IPTC_ENCODING_UTF8
            guard let datasets = data.pointee.datasets else { return }
            for index in 0..<Int(data.pointee.count) {
                guard let dataset = datasets[index] else { continue }
                let bytes =
                    dataset.pointee.data.map {
                        [UInt8](UnsafeBufferPointer(start: $0, count: Int(dataset.pointee.size)))
                    } ?? []
                fields.append((dataset.pointee.record.rawValue, dataset.pointee.tag.rawValue, bytes))
            }
        }
        func texts(_ tag: UInt32) -> [String] {
            fields.filter { $0.record == 2 && $0.tag == tag }.prefix(EmbeddedMetadata.maxKeywords)
                .map { decode($0.bytes, utf8Declared: utf8Declared) }
        }
        var result = MetadataFields()
        result.title = texts(5).first
        result.headline = texts(105).first
        result.description = texts(120).first
        result.keywords = texts(25)
        result.creators = texts(80)
        result.copyright = texts(116).first
        result.dateTaken = date(texts(55).first, time: texts(60).first)
        return result
    }

    /// Whether every dataset's length fits the block. libiptcdata trusts an extended (over 32 KB)
    /// length of up to 4 bytes and adds it to an offset, so a length near 4 GB would wrap its bounds
    /// check; this length walk turns such blocks away first.
    package static func isWellFormed(_ iim: Data) -> Bool {
        let bytes = [UInt8](iim)
        var offset = 0
        while offset < bytes.count {
            guard bytes[offset] == 0x1c else { return true }  // libiptcdata stops here too
            guard offset + 5 <= bytes.count else { return false }
            var length = Int(bytes[offset + 3]) << 8 | Int(bytes[offset + 4])
            var header = 5
            if length & 0x8000 != 0 {
                let count = length & 0x7fff
                guard count <= 4, offset + 5 + count <= bytes.count else { return false }
                length = bytes[(offset + 5)..<(offset + 5 + count)].reduce(0) { $0 << 8 | Int($1) }
                header += count
            }
            guard length <= bytes.count - offset - header else { return false }
            offset += header + length
        }
        return true
    }

    /// Text in the declared character set (1:90 `ESC % G` means UTF-8). Undeclared text is UTF-8
    /// when it is valid UTF-8 (as most current software writes it) and Latin-1 otherwise (as older
    /// software did).
    package static func decode(_ bytes: [UInt8], utf8Declared: Bool) -> String {
        if utf8Declared { return String(decoding: bytes, as: UTF8.self) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    /// 2:55 `CCYYMMDD` and 2:60 `HHMMSS±HHMM` as ISO 8601 (`2015-03-14T10:22:01+01:00`); nil unless the
    /// date is eight digits. (libiptcdata's `iptc_dataset_get_date` does not check for digits.)
    private static func date(_ date: String?, time: String?) -> String? {
        guard let date, date.utf8.count == 8, date.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let day = "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.dropFirst(6))"
        guard let time, time.utf8.count >= 6, time.utf8.prefix(6).allSatisfy({ (0x30...0x39).contains($0) }) else {
            return day
        }
        let clock = Array(time.utf8)
        var result =
            day + "T" + String(decoding: clock[0..<2], as: UTF8.self) + ":"
            + String(decoding: clock[2..<4], as: UTF8.self)
            + ":" + String(decoding: clock[4..<6], as: UTF8.self)
        if clock.count == 11, clock[6] == UInt8(ascii: "+") || clock[6] == UInt8(ascii: "-"),
            clock[7...].allSatisfy({ (0x30...0x39).contains($0) })
        {
            result +=
                String(decoding: clock[6..<9], as: UTF8.self) + ":" + String(decoding: clock[9..<11], as: UTF8.self)
        }
        return result
    }
}
