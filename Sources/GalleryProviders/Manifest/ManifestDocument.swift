import Foundation
import GalleryConfig

/// A manifest document read entry by entry, so that memory follows the photos, not the document:
/// decoding a 200 MB manifest of 1,000,000 photos whole peaked at 1.3 GB (the text and
/// JSONDecoder's map of all of it, besides the photos), read so it peaks at 0.7 GB.
///
/// A byte scanner frames the document: it follows strings (and their escapes) and the nesting of
/// `[ ] { }`, finds the top-level `{"photos": [ … ], "albums": { … }}` (keys in any order, others
/// allowed) or bare array, and checks the punctuation between values as JSON has it (whitespace,
/// no trailing commas, at most 512 levels of nesting, as `JSONDecoder` allows). It parses nothing
/// itself: each value it passes over is checked by `JSONSyntax` and goes to `JSONDecoder` alone,
/// entries and `albums` to be decoded and the rest to be checked, so a document is accepted or
/// refused exactly as a strict check and one decode of it all would: values nobody reads are checked
/// as `JSONDecoder` checks them (numbers that are not decoded are not parsed), and of two equal keys
/// the first counts. A refusal says only where the reader gave up; `locate(_:in:)` says why.
package struct ManifestDocument {
    /// Why a document is not a manifest.
    package enum Failure: Error, Equatable {
        /// Not JSON: the byte or value at `offset` (of the UTF-8 text) is where the reader gave up;
        /// `locate(_:in:)` finds the first place that is not JSON, and says why.
        case invalidJSON(offset: Int)
        /// Valid JSON that is not shaped like a manifest.
        case shape(String)
    }

    private var bytes: ManifestBytes
    private var collector: ManifestEntryMapper.Collector
    private let decoder = JSONDecoder()
    /// The bytes of the value being decoded, after a space: no value can then look like UTF-16
    /// to `JSONDecoder` (which guesses from the first four bytes).
    private var value = Data()
    /// Why the document is not a manifest, once known; said only if the rest of it is JSON.
    private var shapeError: String?
    /// The top-level `albums`, unless absent or null.
    private var albums: JSONValue?
    /// Where the value last kept begins.
    private var valueStart = 0

    /// The manifest in `bytes`, its entries mapped by `mapper` one at a time.
    /// - Throws: `Failure`, or what reading `bytes` throws.
    package static func read(_ bytes: ManifestBytes, mapper: ManifestEntryMapper) throws -> Manifest {
        var document = ManifestDocument(bytes: bytes, collector: ManifestEntryMapper.Collector(mapper: mapper))
        return try document.read()
    }

    private init(bytes: ManifestBytes, collector: ManifestEntryMapper.Collector) {
        self.bytes = bytes
        self.collector = collector
    }

    /// Entries read before the number in the document is estimated from their length.
    private static let sample = 4096

    private static let photosMissing = "expected a \"photos\" array at the top level"

    private mutating func read() throws -> Manifest {
        try bytes.convertToUTF8()
        switch try bytes.nextByte() {
        case UInt8(ascii: "[")?:
            try readEntries(depth: 1)
        case UInt8(ascii: "{")?:
            try readObject()
        case nil:
            throw invalid()
        default:
            try keepValue(depth: 0)
            guard let document = try? decoder.decode(JSONValue.self, from: value) else { throw invalidValue() }
            shapeError = "expected {\"photos\": [ … ]}, got \(document.kind)"
        }
        guard try bytes.nextByte() == nil else { throw invalid() }
        if let shapeError { throw Failure.shape(shapeError) }
        var manifest = collector.manifest
        if let albums {
            let settings = ManifestEntryMapper.albums(albums)
            manifest.albums = settings.albums
            manifest.issues += settings.issues
        }
        return manifest
    }

    /// The top-level object, at its `{`: `photos` read entry by entry, `albums` decoded, other
    /// values checked. Bad syntax fails the document at once; `albums` that is JSON but does not
    /// decode (a number too large for a `Double`) fails it once `photos` is known to be an array,
    /// since a wrong shape is said first.
    private mutating func readObject() throws {
        bytes.advance()
        var sawPhotos = false
        var sawAlbums = false
        var albumsFailed: Int?  // where albums that are JSON but do not decode begin
        if try bytes.nextByte() == UInt8(ascii: "}") {
            bytes.advance()
        } else {
            members: while true {
                guard try bytes.nextByte() == UInt8(ascii: "\"") else { throw invalid() }
                try keepValue(depth: 1)
                guard let key = try? decoder.decode(String.self, from: value) else { throw invalidValue() }
                guard try bytes.nextByte() == UInt8(ascii: ":") else { throw invalid() }
                bytes.advance()
                let first = try bytes.nextByte()
                if key == "photos" && !sawPhotos {
                    sawPhotos = true
                    if first == UInt8(ascii: "[") {
                        if let albumsFailed { throw Failure.invalidJSON(offset: albumsFailed) }
                        try readEntries(depth: 2)
                    } else {
                        shapeError = Self.photosMissing
                        try checkValue(depth: 1)
                    }
                } else if key == "albums" && !sawAlbums {
                    sawAlbums = true
                    try keepValue(depth: 1)
                    if let albums = try? decoder.decode(JSONValue.self, from: value) {
                        self.albums = albums == .null ? nil : albums
                    } else if (sawPhotos && shapeError == nil) || (try? decoder.decode(Unread.self, from: value)) == nil
                    {
                        throw invalidValue()
                    } else {
                        // Valid JSON that does not decode (a number too large, say): the shape comes first.
                        albumsFailed = valueStart
                    }
                } else {
                    try checkValue(depth: 1)
                }
                switch try bytes.nextByte() {
                case UInt8(ascii: ",")?:
                    bytes.advance()
                    if try bytes.nextByte() == UInt8(ascii: "}") { throw invalid() }
                case UInt8(ascii: "}")?:
                    bytes.advance()
                    break members
                default:
                    throw invalid()
                }
            }
        }
        if !sawPhotos { shapeError = Self.photosMissing }
    }

    /// The `photos` array, at its `[`, each entry decoded alone and handed to the collector.
    /// `depth` is how many arrays and objects hold an entry.
    private mutating func readEntries(depth: Int) throws {
        bytes.advance()
        if try bytes.nextByte() == UInt8(ascii: "]") {
            bytes.advance()
            return
        }
        let start = bytes.offset
        while true {
            if collector.count == Self.sample, let size = bytes.size, bytes.offset > start {
                // Room for the photos the rest of the document holds at the sample's rate, made once:
                // an array that doubles holds its old and new storage at once (1,000,000 photos
                // grew from 524,288 to 1,048,576 places of 0.4 KB each, 630 MB at that moment).
                collector.expect(Int(Double(Self.sample) * 1.05 * Double(size - start) / Double(bytes.offset - start)))
            }
            let first = try bytes.nextByte()
            try keepValue(depth: depth)
            // Entries are objects; decoding them as such first spares the guesses of `JSONValue`,
            // and by the kinds their keys usually hold first spares most of the rest.
            if first == UInt8(ascii: "{"),
                let object = (try? decoder.decode(TypedManifestEntry.self, from: value))?.fields
                    ?? (try? decoder.decode([String: JSONValue].self, from: value))
            {
                collector.add(.object(object))
            } else if let entry = try? decoder.decode(JSONValue.self, from: value) {
                collector.add(entry)
            } else {
                throw invalidValue()
            }
            switch try bytes.nextByte() {
            case UInt8(ascii: ",")?:
                bytes.advance()
                if try bytes.nextByte() == UInt8(ascii: "]") { throw invalid() }
            case UInt8(ascii: "]")?:
                bytes.advance()
                return
            default:
                throw invalid()
            }
        }
    }

    /// Checks the value at the read position as `JSONDecoder` checks a value it is not asked to decode.
    private mutating func checkValue(depth: Int) throws {
        try keepValue(depth: depth)
        guard (try? decoder.decode(Unread.self, from: value)) != nil else { throw invalidValue() }
    }

    /// A value `JSONDecoder` checks the syntax of and reads nothing of.
    private struct Unread: Decodable {
        init(from decoder: any Decoder) {}
    }

    /// Moves the value at the read position into `value`, after a space, and checks that it is JSON
    /// (`JSONDecoder` takes trailing commas, leading zeros and raw control characters; JSON does not).
    /// - Throws: `Failure.invalidJSON` at the value.
    private mutating func keepValue(depth: Int) throws {
        valueStart = bytes.offset
        try bytes.keepValue(depth: depth)
        value.removeAll(keepingCapacity: true)
        value.append(0x20)
        bytes.takeKept(into: &value)
        do {
            try JSONSyntax.check(value, maxDepth: .max)
        } catch {
            throw invalidValue()
        }
    }

    /// The failure at the read position.
    private func invalid() -> Failure { .invalidJSON(offset: bytes.offset) }

    /// The failure at the value last kept.
    private func invalidValue() -> Failure { .invalidJSON(offset: valueStart) }
}
