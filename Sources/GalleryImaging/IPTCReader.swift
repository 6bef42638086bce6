import CIPTC
import Foundation
import GalleryModel

/// Reads the descriptive IPTC-IIM datasets with libiptcdata, the only file that imports it.
///
/// IIM is what Photoshop, Lightroom and news agencies wrote before XMP: record 2 holds the object
/// name (2:05), keywords (2:25), date and time created (2:55, 2:60), by-line (2:80), copyright
/// notice (2:116) and caption (2:120). libiptcdata reports errors by return value, never longjmp.
package enum IPTCReader {
    /// The largest block read; real IPTC blocks are a few kilobytes.
    package static let maxBlockBytes = 1 << 20

    private static let photoshopHeader = Array("Photoshop 3.0".utf8) + [0]

    /// The fields in `block`: Photoshop image resources (with or without the `Photoshop 3.0\0`
    /// header of a JPEG's `APP13`) or bare IIM datasets. Raw values, not yet cleaned; empty when
    /// the block holds no IPTC or is malformed.
    package static func read(_ block: Data) -> EmbeddedMetadata {
        guard block.count <= maxBlockBytes, let first = block.first else { return EmbeddedMetadata() }
        if first == 0x1c { return records(block) }
        if block.starts(with: Array("8BIM".utf8)) { return read(Data(photoshopHeader) + block) }
        guard block.starts(with: photoshopHeader) else { return EmbeddedMetadata() }
        let found = block.withUnsafeBytes { raw -> (offset: Int, length: Int)? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var length: UInt32 = 0
            let offset = iptc_jpeg_ps3_find_iptc(base, UInt32(raw.count), &length)
            return offset > 0 ? (Int(offset), Int(length)) : nil
        }
        guard let found, found.offset + found.length <= block.count else { return EmbeddedMetadata() }
        let start = block.startIndex + found.offset
        return records(block[start..<(start + found.length)])
    }

    /// Reads IIM datasets once `isWellFormed` has vouched for their lengths.
    private static func records(_ iim: Data) -> EmbeddedMetadata {
        guard isWellFormed(iim) else { return EmbeddedMetadata() }
        var fields: [(record: UInt32, tag: UInt32, bytes: [UInt8])] = []
        var utf8Declared = false
        iim.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, let data = iptc_data_new() else { return }
            defer { iptc_data_unref(data) }
            _ = iptc_data_load(data, base, UInt32(raw.count))   // on failure, the datasets before the error stay
            utf8Declared = iptc_data_get_encoding(data) == IPTC_ENCODING_UTF8
            guard let datasets = data.pointee.datasets else { return }
            for index in 0..<Int(data.pointee.count) {
                guard let dataset = datasets[index] else { continue }
                let bytes = dataset.pointee.data.map { [UInt8](UnsafeBufferPointer(start: $0, count: Int(dataset.pointee.size))) } ?? []
                fields.append((dataset.pointee.record.rawValue, dataset.pointee.tag.rawValue, bytes))
            }
        }
        func texts(_ tag: UInt32) -> [String] {
            fields.filter { $0.record == 2 && $0.tag == tag }.prefix(EmbeddedMetadata.maxKeywords)
                .map { decode($0.bytes, utf8Declared: utf8Declared) }
        }
        var result = EmbeddedMetadata()
        result.title = texts(5).first
        result.caption = texts(120).first
        result.keywords = texts(25)
        let bylines = texts(80)
        result.creator = bylines.isEmpty ? nil : bylines.joined(separator: ", ")
        result.rights = texts(116).first
        result.takenAt = date(texts(55).first, time: texts(60).first)
        return result
    }

    /// Whether every dataset's length fits the block. libiptcdata trusts an extended (over 32 KB)
    /// length of up to 4 bytes and adds it to an offset, so a length near 4 GB would wrap its bounds
    /// check; this length walk turns such blocks away first.
    package static func isWellFormed(_ iim: Data) -> Bool {
        let bytes = [UInt8](iim)
        var offset = 0
        while offset < bytes.count {
            guard bytes[offset] == 0x1c else { return true }   // libiptcdata stops here too
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
        guard let time, time.utf8.count >= 6, time.utf8.prefix(6).allSatisfy({ (0x30...0x39).contains($0) }) else { return day }
        let clock = Array(time.utf8)
        var result = day + "T" + String(decoding: clock[0..<2], as: UTF8.self) + ":" + String(decoding: clock[2..<4], as: UTF8.self)
            + ":" + String(decoding: clock[4..<6], as: UTF8.self)
        if clock.count == 11, clock[6] == UInt8(ascii: "+") || clock[6] == UInt8(ascii: "-"),
           clock[7...].allSatisfy({ (0x30...0x39).contains($0) }) {
            result += String(decoding: clock[6..<9], as: UTF8.self) + ":" + String(decoding: clock[9..<11], as: UTF8.self)
        }
        return result
    }
}
