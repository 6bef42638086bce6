import Foundation
import GalleryModel

import struct Crypto.SHA256

/// Builds a cache key: the SHA-256 of a sequence of labelled inputs, as a `Digest`.
///
/// Every input is written with its length, so `("ab", "c")` and `("a", "bc")` never collide, and
/// each key starts with a purpose string (`"derivative"`, `"page"`…), so keys of different kinds
/// never collide either. This follows Hugo's file cache: a key covers every input that changes the
/// output, plus a format version number that is bumped when the code that makes the output changes.
package struct CacheKey {
    private var hasher = SHA256()
    /// Inputs not yet given to the hasher. Each `SHA256.update` costs a few hundred instructions
    /// besides the hashing, and most inputs are a few bytes (a length, a number, a name), so they
    /// are gathered here, inline, and given 256 bytes at a time: the key is the same.
    private var gathered = Gathered()
    private var gatheredCount = 0

    /// 256 bytes, held inline.
    private typealias Gathered = SIMD32<UInt64>
    private static let capacity = MemoryLayout<Gathered>.size

    /// Starts a key for one purpose, such as `"derivative"`.
    package init(_ purpose: String) {
        add(purpose)
    }

    /// Adds a text input.
    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a whole number.
    package mutating func add(_ number: Int) {
        add(String(number))
    }

    /// Adds a number with its exact bit pattern, so 0.3 and 0.30000000000000004 differ.
    package mutating func add(_ number: Double) {
        add(String(number.bitPattern, radix: 16))
    }

    /// Adds another key as its 64 hex digits, so keys made from keys are the same as when keys were
    /// hex strings (and the caches of earlier versions stay valid).
    package mutating func add(_ digest: Digest) {
        digest.withHexBytes { add(bytes: $0) }
    }

    /// Adds raw bytes, preceded by their length.
    package mutating func add(_ data: Data) {
        data.withUnsafeBytes { add(bytes: $0) }
    }

    /// Adds raw bytes, preceded by their length (the same key as the `Data` they would make).
    package mutating func add(bytes: UnsafeRawBufferPointer) {
        var length = UInt64(bytes.count).littleEndian
        withUnsafeBytes(of: &length) { gather($0) }
        gather(bytes)
    }

    /// Adds a digest as its 32 bytes rather than its hex text: for keys that are only ever compared
    /// with the same kind of key this process or a later one makes (`PagePublisher.siteKey`), never
    /// for a key that names a cached file.
    package mutating func add(bytesOf digest: Digest) {
        digest.withBytes { add(bytes: $0) }
    }

    private mutating func gather(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if gatheredCount + bytes.count > Self.capacity {
            giveGathered()
            guard bytes.count <= Self.capacity else { return hasher.update(bufferPointer: bytes) }
        }
        let at = gatheredCount
        withUnsafeMutableBytes(of: &gathered) {
            $0.baseAddress!.advanced(by: at).copyMemory(from: source, byteCount: bytes.count)
        }
        gatheredCount += bytes.count
    }

    private mutating func giveGathered() {
        let count = gatheredCount
        guard count > 0 else { return }
        withUnsafeBytes(of: &gathered) {
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0.prefix(count)))
        }
        gatheredCount = 0
    }

    /// The key.
    package func finish() -> Digest {
        var rest = self
        rest.giveGathered()
        return Digest(rest.hasher.finalize())
    }

    /// The SHA-256 of some bytes: the content hash of originals and blobs.
    package static func sha256(_ data: Data) -> Digest {
        Digest.sha256(data)
    }
}
