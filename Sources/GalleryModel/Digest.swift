import Crypto
import Foundation

/// A SHA-256 digest held as its 32 bytes: the key of every cached file, original, placeholder and
/// page, and the content hash of every original.
///
/// A key as 64 hex characters is a `String` with a heap buffer of its own (about 100 bytes with the
/// allocator's overhead) for every copy that is not shared, and a 100,000-photo state holds over a
/// million of them; a `Digest` is four words stored inline, in the row or the dictionary that holds
/// it. The hex text is made only where a key leaves the process: file names, the state database's
/// columns and the learnt files' JSON, which are unchanged. The words are kept in big-endian order,
/// so digests compare as their hex texts do.
package struct Digest: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// The digest of a finished SHA-256.
    package init(_ digest: SHA256.Digest) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        digest.withUnsafeBytes { bytes in
            withUnsafeMutableBytes(of: &words) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes.prefix(32)))
            }
        }
        w0 = UInt64(bigEndian: words.0)
        w1 = UInt64(bigEndian: words.1)
        w2 = UInt64(bigEndian: words.2)
        w3 = UInt64(bigEndian: words.3)
    }

    /// The SHA-256 of some bytes.
    package static func sha256(_ data: Data) -> Digest { Digest(SHA256.hash(data: data)) }

    /// The SHA-256 of a file read a megabyte at a time, so a video of gigabytes is hashed in
    /// constant memory; nil when it cannot be opened or read.
    package static func sha256(file path: String) -> Digest? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            // nil or empty at the end of the file; a throw is a read error.
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch { return nil }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return Digest(hasher.finalize())
    }

    /// Parses 64 hex digits (either case); nil for anything else.
    package init?(hex text: some StringProtocol) {
        self.init(hexBytes: text.utf8)
    }

    /// Parses 64 hex digits given as UTF-8 bytes (either case); nil for anything else.
    package init?(hexBytes: some Collection<UInt8>) {
        let parsed =
            hexBytes.withContiguousStorageIfAvailable { Self.words(hex: UnsafeRawBufferPointer($0)) }
            ?? Array(hexBytes).withUnsafeBytes { Self.words(hex: $0) }
        guard let parsed else { return nil }
        (w0, w1, w2, w3) = parsed
    }

    /// Parses 64 hex digits in a buffer of bytes (a column's bytes, say) without copying them.
    package init?(hexBuffer: UnsafeRawBufferPointer) {
        guard let parsed = Self.words(hex: hexBuffer) else { return nil }
        (w0, w1, w2, w3) = parsed
    }

    /// Every key the state reads goes through here (a no-op build of 10,000 photos parses about
    /// 60,000), so it reads the bytes in place: iterating a `Data` byte by byte cost 5 % of that build.
    private static func words(hex bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard bytes.count == 64 else { return nil }
        func word(_ start: Int) -> UInt64? {
            var word: UInt64 = 0
            for index in start..<start + 16 {
                guard let value = value(of: bytes[index]) else { return nil }
                word = word << 4 | UInt64(value)
            }
            return word
        }
        guard let w0 = word(0), let w1 = word(16), let w2 = word(32), let w3 = word(48) else { return nil }
        return (w0, w1, w2, w3)
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Calls `body` with the 64 lower-case hex digits, without making a `String`.
    package func withHexBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            func write(_ word: UInt64, at start: Int) {
                for nibble in 0..<16 {
                    buffer[start + nibble] = Self.digits[Int((word >> UInt64(60 - 4 * nibble)) & 0xf)]
                }
            }
            write(w0, at: 0)
            write(w1, at: 16)
            write(w2, at: 32)
            write(w3, at: 48)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// The 64 lower-case hex digits, as in file names and the state database.
    package var hex: String {
        withHexBytes { String(decoding: $0, as: UTF8.self) }
    }

    package var description: String { hex }

    /// The first `count` hex digits (at most 16), for folder names and slices.
    package func prefix(_ count: Int) -> String { String(hex.prefix(count)) }

    /// The first eight bytes as a number, for dividing keys evenly into slices.
    package var leadingWord: UInt64 { w0 }

    package static func < (lhs: Digest, rhs: Digest) -> Bool {
        (lhs.w0, lhs.w1, lhs.w2, lhs.w3) < (rhs.w0, rhs.w1, rhs.w2, rhs.w3)
    }
}

/// As hex text, so the learnt files and download records keep their JSON form, and a dictionary
/// keyed by digests is a JSON object.
extension Digest: Codable, CodingKeyRepresentable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let digest = Digest(hex: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "not a SHA-256 in hex: \(text.prefix(80))")
        }
        self = digest
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    package var codingKey: any CodingKey { HexKey(stringValue: hex) }

    package init?<T: CodingKey>(codingKey: T) {
        self.init(hex: codingKey.stringValue)
    }

    private struct HexKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
