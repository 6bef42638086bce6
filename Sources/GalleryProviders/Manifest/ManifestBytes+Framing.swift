import Foundation

/// The framing of a JSON document, as `JSONDecoder`'s own scanner frames it: where a value ends,
/// following strings and their escapes and the nesting of `[ ] { }`. Nothing here parses a value;
/// `ManifestDocument` gives each framed value to `JSONDecoder`.
extension ManifestBytes {
    /// Nested arrays and objects `JSONDecoder` accepts, the document's own included.
    package static let maxDepth = 512

    /// Converts the document to UTF-8 as `JSONDecoder` does before it reads: a UTF-8 byte order mark
    /// is skipped, and UTF-16 and UTF-32 (told by a byte order mark, or by zero bytes among the
    /// first four) are converted, the document then being read whole.
    package mutating func convertToUTF8() throws {
        let head = try lookAhead(4)
        let byte = { (index: Int) -> UInt8? in index < head.count ? head[index] : nil }
        let encoding: String.Encoding
        let marker: Int
        switch (byte(0), byte(1), byte(2), byte(3)) {
        case (0, 0, 0xfe, 0xff): (encoding, marker) = (.utf32BigEndian, 4)
        case (0xfe, 0xff, 0, 0): (encoding, marker) = (.utf32LittleEndian, 4)
        case (0xfe, 0xff, _, _): (encoding, marker) = (.utf16BigEndian, 2)
        case (0xff, 0xfe, _, _): (encoding, marker) = (.utf16LittleEndian, 2)
        case (0xef, 0xbb, 0xbf, _): (encoding, marker) = (.utf8, 3)
        case (0, 0, 0, let last?) where last != 0: (encoding, marker) = (.utf32BigEndian, 0)
        case (0, let second?, 0, let last?) where second != 0 && last != 0: (encoding, marker) = (.utf16BigEndian, 0)
        case (let first?, 0, 0, 0) where first != 0: (encoding, marker) = (.utf32LittleEndian, 0)
        case (let first?, 0, let third?, 0) where first != 0 && third != 0: (encoding, marker) = (.utf16LittleEndian, 0)
        case (0, let second?, nil, nil) where second != 0: (encoding, marker) = (.utf16BigEndian, 0)
        case (let first?, 0, nil, nil) where first != 0: (encoding, marker) = (.utf16LittleEndian, 0)
        default: (encoding, marker) = (.utf8, 0)
        }
        if encoding == .utf8 {
            for _ in 0..<marker { advance() }
            return
        }
        let text = try rest().dropFirst(marker)
        guard let converted = String(data: Data(text), encoding: encoding) else {
            throw ManifestDocument.Failure.invalidJSON(offset: offset)
        }
        self = .data(Data(converted.utf8))
    }

    /// The next byte that is not JSON whitespace, not moved past; nil at the end.
    mutating func nextByte() throws -> UInt8? {
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): advance()
            default: return byte
            }
        }
        return nil
    }

    /// Keeps the bytes of the value at the read position, which is not whitespace: a string to its
    /// closing quote, an array or object to its closing bracket, anything else up to the next
    /// whitespace, comma or closing bracket. `depth` is how many arrays and objects hold the value.
    /// - Throws: `ManifestDocument.Failure.invalidJSON` (at the read position) where the document ends inside the value,
    ///   or the value nests too deep.
    mutating func keepValue(depth: Int) throws {
        keep()
        switch try peek() {
        case UInt8(ascii: "\"")?:
            try skipString()
        case UInt8(ascii: "[")?, UInt8(ascii: "{")?:
            try skipNested(depth: depth)
        case nil:
            throw ManifestDocument.Failure.invalidJSON(offset: offset)
        default:
            while let byte = try peek() {
                switch byte {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                    UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    return
                default:
                    advance()
                }
            }
        }
    }

    /// Moves past the string at the read position. As in `JSONDecoder`, a backslash takes the next
    /// byte with it, and `\u` four more, none of them a quote.
    private mutating func skipString() throws {
        advance()
        while let byte = try peek() {
            advance()
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard let escaped = try peek() else { throw ManifestDocument.Failure.invalidJSON(offset: offset) }
                advance()
                if escaped == UInt8(ascii: "u") {
                    for _ in 0..<4 {
                        guard let digit = try peek(), digit != UInt8(ascii: "\"") else {
                            throw ManifestDocument.Failure.invalidJSON(offset: offset)
                        }
                        advance()
                    }
                }
            default:
                continue
            }
        }
        throw ManifestDocument.Failure.invalidJSON(offset: offset)
    }

    /// Moves past the array or object at the read position, to the bracket that closes it.
    private mutating func skipNested(depth: Int) throws {
        var level = 0
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: "\""):
                try skipString()
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                level += 1
                guard depth + level <= Self.maxDepth else { throw ManifestDocument.Failure.invalidJSON(offset: offset) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                level -= 1
                if level == 0 {
                    advance()
                    return
                }
            default:
                break
            }
            advance()
        }
        throw ManifestDocument.Failure.invalidJSON(offset: offset)
    }
}
