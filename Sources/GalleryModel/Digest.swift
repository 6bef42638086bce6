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
    /// 60,000), so it reads the bytes in place, eight at a time: iterating a `Data` byte by byte cost
    /// 5 % of that build, and a digit at a time 2 %.
    private static func words(hex bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard bytes.count == 64 else { return nil }
        func word(_ start: Int) -> UInt64? {
            guard let high = nibbles(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self))),
                let low = nibbles(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)))
            else { return nil }
            return high << 32 | low
        }
        guard let w0 = word(0), let w1 = word(16), let w2 = word(32), let w3 = word(48) else { return nil }
        return (w0, w1, w2, w3)
    }

    /// The value of eight hex digits, the first in the lowest byte of `text` (as they lie in
    /// memory), or nil when one of them is not `0`–`9`, `a`–`f` or `A`–`F`.
    @inline(__always)
    private static func nibbles(_ text: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        guard text & high == 0 else { return nil }
        // The top bit of each byte that is at least `limit`: with every top bit set first, no
        // byte's subtraction borrows from the next.
        func atLeast(_ value: UInt64, _ limit: UInt64) -> UInt64 { ((value | high) &- ones &* limit) & high }
        let lower = text | ones &* 0x20  // letters in lower case; digits keep their code
        let isDigit = atLeast(text, 0x30) & ~atLeast(text, 0x3a)
        let isLetter = atLeast(lower, 0x61) & ~atLeast(lower, 0x67)
        guard (isDigit | isLetter) == high else { return nil }
        // Digits are their code - 0x30; letters their lower-case code - 0x57.
        let values = (text & 0x0f0f_0f0f_0f0f_0f0f) &+ (isLetter >> 7) &* 9
        // Eight nibbles, first digit highest: gather them into 32 bits.
        var v = values.byteSwapped  // first digit in the top byte
        v = (v | v >> 4) & 0x00ff_00ff_00ff_00ff
        v = (v | v >> 8) & 0x0000_ffff_0000_ffff
        v = (v | v >> 16) & 0x0000_0000_ffff_ffff
        return v
    }

    /// Calls `body` with the 32 bytes of the digest.
    package func withBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var bytes = (w0.bigEndian, w1.bigEndian, w2.bigEndian, w3.bigEndian)
        return try withUnsafeBytes(of: &bytes) { try body($0) }
    }

    /// Calls `body` with the 64 lower-case hex digits, without making a `String`.
    package func withHexBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        var text: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            Self.digits(w0 >> 32), Self.digits(w0 & 0xffff_ffff), Self.digits(w1 >> 32), Self.digits(w1 & 0xffff_ffff),
            Self.digits(w2 >> 32), Self.digits(w2 & 0xffff_ffff), Self.digits(w3 >> 32), Self.digits(w3 & 0xffff_ffff)
        )
        return try withUnsafeBytes(of: &text) { try body($0) }
    }

    /// The eight lower-case hex digits of a 32-bit value, the first in the lowest byte (as they lie in memory).
    @inline(__always)
    private static func digits(_ value: UInt64) -> UInt64 {
        // One nibble a byte, the highest nibble in the top byte, then swapped into memory order.
        var v = value
        v = (v | v << 16) & 0x0000_ffff_0000_ffff
        v = (v | v << 8) & 0x00ff_00ff_00ff_00ff
        v = (v | v << 4) & 0x0f0f_0f0f_0f0f_0f0f
        v = v.byteSwapped
        // Bytes of 10 and more become letters: add "0", and 0x27 more to reach "a".
        let letters = ((v &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        return (v &+ 0x3030_3030_3030_3030 &+ letters &* 0x27).littleEndian
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
