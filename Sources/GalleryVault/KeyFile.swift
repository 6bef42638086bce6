import Foundation

/// How a password becomes a key: PBKDF2-HMAC-SHA256 with a count of at least 600,000 (OWASP's
/// figure for it in 2023, https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html).
package struct KDFParameters: Sendable, Equatable {
    static let minimumIterations = 600_000
    static let saltBytes = 16
    package let iterations: Int

    /// - Throws: `VaultError.weakParameters` below `minimumIterations`: the count may only go up.
    package init(iterations: Int = KDFParameters.minimumIterations) throws {
        guard iterations >= Self.minimumIterations, iterations <= Int(UInt32.max) else {
            throw VaultError(.weakParameters, "\(iterations) iterations")
        }
        self.iterations = iterations
    }

    /// 600,000 iterations.
    package static let standard = KDFParameters(unchecked: minimumIterations)

    private init(unchecked iterations: Int) { self.iterations = iterations }

    /// Any count, for tests that wrap many keys: not for published albums.
    package static func forTesting(iterations: Int) -> KDFParameters { KDFParameters(unchecked: iterations) }
}

/// What the browser fetches to open an album: the PBKDF2 parameters and the album's content key,
/// wrapped (AES-256-GCM) with the key derived from the password. A small JSON file
/// (docs/protected-albums.md, "The key file").
///
/// A key file wraps one content key for one password. A build never wraps a kept key for a new
/// password: it makes a new content key (`ContentKey.random()`), which encrypts everything again, so
/// that the old password and the old key open nothing new (GalleryPipeline's `ProtectedAlbums.keys`).
package struct KeyFile: Sendable, Equatable {
    package static let currentVersion = 1
    static let kdfName = "PBKDF2-HMAC-SHA256"
    static let formatName = "galleryssg-vault-key"
    /// Authenticated with the wrapped key, so that a key file's key cannot be taken for anything else.
    static let wrapLabel = Array("galleryssg-vault/1 key-wrap".utf8)

    package let iterations: Int
    package let salt: [UInt8]
    /// The wrap's nonce (12 bytes), the encrypted content key (32) and the tag (16).
    package let wrappedKey: [UInt8]

    /// Wraps `key` for `password` with a new random salt and nonce.
    package static func wrap(_ key: ContentKey, password: String, parameters: KDFParameters = .standard) throws
        -> KeyFile
    {
        let salt = VaultCrypto.randomBytes(KDFParameters.saltBytes)
        let nonce = VaultCrypto.randomBytes(VaultCrypto.nonceBytes)
        let kek = try derive(password, salt: salt, iterations: parameters.iterations)
        let sealed = try VaultCrypto.seal(key: kek, nonce: nonce, key.raw, authenticating: wrapLabel)
        return KeyFile(iterations: parameters.iterations, salt: salt, wrappedKey: nonce + sealed)
    }

    /// The content key, when `password` is the album's.
    /// - Throws: `VaultError.wrongPassword` when the wrapped key does not open (a changed key file
    ///   reads the same: the tag cannot tell the two apart).
    package func unwrap(password: String) throws -> ContentKey {
        let kek = try Self.derive(password, salt: salt, iterations: iterations)
        do {
            let raw = try VaultCrypto.open(
                key: kek, nonce: Array(wrappedKey.prefix(VaultCrypto.nonceBytes)),
                wrappedKey.dropFirst(VaultCrypto.nonceBytes), authenticating: Self.wrapLabel)
            return try ContentKey(raw: raw)
        } catch {
            throw VaultError(.wrongPassword)
        }
    }

    /// The password as PBKDF2 takes it: UTF-8 of its NFC form, so that a password typed where the
    /// system decomposes accents (macOS file names, some keyboards) opens the same key; vault.js does the same.
    static func derive(_ password: String, salt: [UInt8], iterations: Int) throws -> [UInt8] {
        try VaultCrypto.pbkdf2SHA256(
            password: Array(password.precomposedStringWithCanonicalMapping.utf8), salt: salt,
            iterations: iterations, byteCount: 32)
    }
}

extension KeyFile {
    /// The file's bytes: JSON with sorted keys, base64 for bytes.
    package func json() -> Data {
        let object: [String: Any] = [
            "format": Self.formatName, "version": Self.currentVersion, "kdf": Self.kdfName,
            "iterations": iterations, "salt": Data(salt).base64EncodedString(),
            "wrappedKey": Data(wrappedKey).base64EncodedString()
        ]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
    }

    /// Reads what `json()` wrote.
    /// - Throws: `VaultError.unknownVersion` for another version, `.malformedKeyFile` for anything else amiss.
    package init(json data: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["format"] as? String == Self.formatName
        else { throw VaultError(.malformedKeyFile) }
        guard let version = object["version"] as? Int, version == Self.currentVersion else {
            throw VaultError(.unknownVersion, "key file version \(object["version"] ?? "none")")
        }
        guard object["kdf"] as? String == Self.kdfName, let iterations = object["iterations"] as? Int, iterations > 0,
            let salt = Self.bytes(object["salt"]), salt.count >= KDFParameters.saltBytes,
            let wrapped = Self.bytes(object["wrappedKey"]),
            wrapped.count == VaultCrypto.nonceBytes + ContentKey.bytes + VaultCrypto.tagBytes
        else { throw VaultError(.malformedKeyFile) }
        self.init(iterations: iterations, salt: Array(salt), wrappedKey: Array(wrapped))
    }

    /// Base64 in its one canonical spelling: a decoder ignores the spare low bits of the last
    /// character, and a changed key file must not read as the same one.
    private static func bytes(_ value: Any?) -> Data? {
        guard let text = value as? String, let data = Data(base64Encoded: text), data.base64EncodedString() == text
        else { return nil }
        return data
    }
}
