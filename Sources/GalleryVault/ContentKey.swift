/// An album's content key: 256 random bits, from which HKDF derives one key for each use
/// (docs/protected-albums.md, "Keys"), so that no key serves two purposes.
///
/// It is kept in the build's state and published only wrapped in a `KeyFile`.
package struct ContentKey: Sendable, Equatable {
    package static let bytes = 32
    /// HKDF's `info` for each use; vault.js derives the file key with the same label.
    static let sivLabel = "galleryssg-vault/1 synthetic-iv", fileLabel = "galleryssg-vault/1 file-key"
    static let nameLabel = "galleryssg-vault/1 name"

    package let raw: [UInt8]
    /// Keys the HMAC that makes a file's synthetic IV from its path and plaintext digest.
    let sivKey: [UInt8]
    /// Keys the HMAC that turns a synthetic IV into that file's AES-256-GCM key.
    let fileKey: [UInt8]
    /// Keys the HMAC of opaque file names.
    let nameKey: [UInt8]

    /// - Throws: `VaultError.malformedKeyFile` unless `raw` is 32 bytes.
    package init(raw: [UInt8]) throws {
        guard raw.count == Self.bytes else {
            throw VaultError(.malformedKeyFile, "a content key is \(Self.bytes) bytes, not \(raw.count)")
        }
        self.raw = raw
        sivKey = VaultCrypto.hkdfSHA256(key: raw, info: Self.sivLabel)
        fileKey = VaultCrypto.hkdfSHA256(key: raw, info: Self.fileLabel)
        nameKey = VaultCrypto.hkdfSHA256(key: raw, info: Self.nameLabel)
    }

    /// A new key from the system's secure random generator: a new album, or `rekey`.
    package static func random() -> ContentKey {
        // 32 bytes always make a key.
        try! ContentKey(raw: VaultCrypto.randomBytes(bytes))
    }

    package static func == (a: ContentKey, b: ContentKey) -> Bool { a.raw == b.raw }

    /// A file name for a protected file that says nothing about it: the first 128 bits of
    /// HMAC-SHA256(name key, `logicalName`) in lowercase base32 (RFC 4648 alphabet, no padding),
    /// 26 characters, safe in URLs and on case-insensitive file systems.
    ///
    /// The same logical name (a photo id and a derivative's role, say) under the same key always
    /// gives the same name, so an unchanged album keeps its file names; without the key the names
    /// cannot be tied to ids or guessed.
    package func opaqueName(for logicalName: String) -> String {
        Self.base32(VaultCrypto.hmacSHA256(key: nameKey, Array(logicalName.utf8)).prefix(16))
    }

    package static func base32(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[(buffer >> bits) & 31])
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }
}
