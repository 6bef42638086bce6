import Foundation

/// The byte layout of an encrypted file, version 1 (docs/protected-albums.md, "An encrypted file"):
/// a 24-byte header, then the plaintext's chunks, each sealed with AES-256-GCM.
///
/// ```
/// header  0  4  magic "GSVF"
///         4  1  version (1)
///         5  1  chunk shift s: a chunk holds 2^s plaintext bytes (12...24; 16 = 64 KiB by default)
///         6  2  zero
///         8 16  synthetic IV: HMAC-SHA256(siv key, header[0..<8] || u32(path) || path || SHA-256(plaintext))[0..<16]
/// chunk i      AES-256-GCM(file key, nonce i, plaintext[i*2^s ..< (i+1)*2^s], aad i): ciphertext || 16-byte tag
///   file key = HMAC-SHA256(content file-key, synthetic IV)
///   nonce i  = synthetic IV[0..<8] || u32(i)
///   aad i    = header || u32(path) || path || final (1 for the last chunk, else 0)
/// ```
/// u32 is big-endian; `u32(path)` is the UTF-8 path's length. Every chunk but the last is full;
/// an empty file is one empty final chunk.
package struct VaultFormat: Sendable {
    package static let version: UInt8 = 1
    static let magic: [UInt8] = Array("GSVF".utf8)
    package static let headerBytes = 24
    static let defaultChunkShift = 16
    static let chunkShifts = 12...24

    package let chunkShift: Int
    package var chunkBytes: Int { 1 << chunkShift }

    /// 64 KiB chunks: 0.02 % of tags, and a chunk the browser decrypts in well under a millisecond.
    package static let standard = VaultFormat(unchecked: defaultChunkShift)

    private init(unchecked shift: Int) { chunkShift = shift }

    /// - Throws: `VaultError.weakParameters` for a chunk shift outside 12...24.
    package init(chunkShift: Int = VaultFormat.defaultChunkShift) throws {
        guard Self.chunkShifts.contains(chunkShift) else {
            throw VaultError(.weakParameters, "chunk shift \(chunkShift)")
        }
        self.chunkShift = chunkShift
    }

    /// The size of the encrypted file for `plaintextBytes` bytes (for layout and progress).
    package func encryptedSize(plaintextBytes: Int) -> Int {
        let chunks = max(1, (plaintextBytes + chunkBytes - 1) / chunkBytes)
        return Self.headerBytes + plaintextBytes + chunks * VaultCrypto.tagBytes
    }

    /// The first 8 header bytes, which the synthetic IV also covers.
    var prefix: [UInt8] { Self.magic + [Self.version, UInt8(chunkShift), 0, 0] }

    static func u32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    /// The synthetic IV of `path` and a plaintext whose SHA-256 is `digest`: equal inputs give equal
    /// IVs (so equal ciphertext), different ones different IVs but with chance 2^-128.
    func syntheticIV(key: ContentKey, path: [UInt8], digest: [UInt8]) -> [UInt8] {
        Array(VaultCrypto.hmacSHA256(key: key.sivKey, prefix + Self.u32(path.count) + path + digest).prefix(16))
    }

    /// Reads a header: the format and synthetic IV.
    /// - Throws: `.truncated` when shorter than a header, `.unknownVersion`, `.tampered` for a bad magic or field.
    static func parse(header bytes: some Collection<UInt8>) throws -> (VaultFormat, iv: [UInt8]) {
        let header = Array(bytes.prefix(headerBytes))
        guard header.count == headerBytes else { throw VaultError(.truncated, "no header") }
        guard Array(header[0..<4]) == magic else { throw VaultError(.tampered, "not a galleryssg vault file") }
        guard header[4] == version else { throw VaultError(.unknownVersion, "version \(header[4])") }
        guard chunkShifts.contains(Int(header[5])), header[6] == 0, header[7] == 0 else {
            throw VaultError(.tampered, "header")
        }
        return (try VaultFormat(chunkShift: Int(header[5])), Array(header[8..<24]))
    }
}

/// Seals or opens one file's chunks in order: the keys, nonces and associated data of `VaultFormat`.
struct ChunkCipher {
    let header: [UInt8]
    let iv: [UInt8]
    let fileKey: [UInt8]
    let aadBase: [UInt8]

    init(key: ContentKey, format: VaultFormat, iv: [UInt8], path: [UInt8]) {
        header = format.prefix + iv
        self.iv = iv
        fileKey = VaultCrypto.hmacSHA256(key: key.fileKey, iv)
        aadBase = header + VaultFormat.u32(path.count) + path
    }

    func nonce(_ index: Int) throws -> [UInt8] {
        guard index >= 0, index <= Int(UInt32.max) else { throw VaultError(.weakParameters, "more than 2^32 chunks") }
        return Array(iv.prefix(8)) + VaultFormat.u32(index)
    }

    func seal(_ chunk: some DataProtocol, index: Int, final: Bool) throws -> [UInt8] {
        try VaultCrypto.seal(key: fileKey, nonce: nonce(index), chunk, authenticating: aadBase + [final ? 1 : 0])
    }

    /// Opens chunk `index`. A last chunk that opens only as a middle one means the file was cut
    /// at a chunk boundary: `.truncated`, not `.tampered`.
    func open(_ sealed: [UInt8], index: Int, final: Bool) throws -> [UInt8] {
        do {
            return try VaultCrypto.open(
                key: fileKey, nonce: nonce(index), sealed, authenticating: aadBase + [final ? 1 : 0])
        } catch let error as VaultError where error.kind == .tampered && final {
            if (try? VaultCrypto.open(key: fileKey, nonce: nonce(index), sealed, authenticating: aadBase + [0])) != nil
            {
                throw VaultError(.truncated, "the final chunk is missing")
            }
            throw error
        }
    }
}
