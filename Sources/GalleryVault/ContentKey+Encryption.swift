import Foundation

/// Encrypting and decrypting a file held in memory (pages, JSON, photos): the same chunked format
/// as the streamed files of ContentKey+Streaming.swift, so the browser reads both alike.
extension ContentKey {
    /// Encrypts `plaintext` as the file at `path` (the path the reader will ask for: it is
    /// authenticated, so a file moved to another path is refused).
    ///
    /// Deterministic: the same key, path and plaintext always give the same bytes, so an unchanged
    /// album's files stay byte-identical from build to build.
    package func encrypt(_ plaintext: some DataProtocol, path: String, format: VaultFormat = .standard) throws -> [UInt8]
    {
        let bytes = Array(plaintext)
        let pathBytes = Array(path.utf8)
        var digest = VaultCrypto.Digest()
        digest.update(bytes)
        let iv = format.syntheticIV(key: self, path: pathBytes, digest: digest.finish())
        let cipher = ChunkCipher(key: self, format: format, iv: iv, path: pathBytes)
        var out = cipher.header
        out.reserveCapacity(format.encryptedSize(plaintextBytes: bytes.count))
        var start = 0
        var index = 0
        repeat {
            let end = min(start + format.chunkBytes, bytes.count)
            out += try cipher.seal(bytes[start..<end], index: index, final: end == bytes.count)
            start = end
            index += 1
        } while start < bytes.count
        return out
    }

    /// Decrypts what `encrypt` (or `encryptFile`) made for `path`.
    /// - Throws: `VaultError`: `.tampered` when any byte differs or the file belongs to another
    ///   path or key, `.truncated` when it is cut short, `.unknownVersion`.
    package func decrypt(_ encrypted: some DataProtocol, path: String) throws -> [UInt8] {
        let bytes = Array(encrypted)
        let (format, iv) = try VaultFormat.parse(header: bytes)
        let cipher = ChunkCipher(key: self, format: format, iv: iv, path: Array(path.utf8))
        let block = format.chunkBytes + VaultCrypto.tagBytes
        var out: [UInt8] = []
        var start = VaultFormat.headerBytes
        var index = 0
        repeat {
            let end = min(start + block, bytes.count)
            out += try cipher.open(Array(bytes[start..<end]), index: index, final: end == bytes.count)
            start = end
            index += 1
        } while start < bytes.count
        return out
    }
}
