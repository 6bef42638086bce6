import Crypto
import Foundation
import _CryptoExtras

/// The primitives the vault is made of, and the only file that imports swift-crypto: PBKDF2-HMAC-SHA256,
/// HKDF-SHA256, HMAC-SHA256, SHA-256 and AES-256-GCM with an explicit nonce, on plain bytes.
///
/// Kept public so that the known-answer tests check exactly the calls the format makes against
/// published vectors (RFC 7914 §11, NIST's GCM test vectors); `SymmetricKey` never leaves this file.
package enum VaultCrypto {
    /// AES-GCM's nonce and tag lengths in bytes.
    package static let nonceBytes = 12, tagBytes = 16

    /// PBKDF2-HMAC-SHA256 (RFC 8018 §5.2) of `password` and `salt`, `byteCount` bytes long.
    ///
    /// Any count is taken here: the 600,000 floor is `KDFParameters`' to enforce, and the published
    /// vectors use 1 and 80,000 iterations.
    /// - Throws: `VaultError.malformedKeyFile` for a count of 0 or one over `UInt32`.
    package static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, byteCount: Int) throws
        -> [UInt8]
    {
        guard iterations > 0, iterations <= Int(UInt32.max) else {
            throw VaultError(.malformedKeyFile, "iterations \(iterations)")
        }
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: password, salt: salt, using: .sha256,
            outputByteCount: byteCount, unsafeUncheckedRounds: iterations)
        return bytes(key)
    }

    /// HKDF-SHA256 (RFC 5869) with an empty salt: `info` names the use, so that each use has its own key.
    package static func hkdfSHA256(key: [UInt8], info: String, byteCount: Int = 32) -> [UInt8] {
        let derived = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: key), salt: [UInt8](),
            info: Array(info.utf8), outputByteCount: byteCount)
        return bytes(derived)
    }

    /// HMAC-SHA256 of `message` under `key`.
    package static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
    }

    /// SHA-256 that is fed piece by piece, for files read in chunks.
    package struct Digest {
        private var hasher = SHA256()
        package init() {}
        package mutating func update(_ data: some DataProtocol) { hasher.update(data: data) }
        package func finish() -> [UInt8] { Array(hasher.finalize()) }
    }

    /// `count` bytes from the system's secure random generator.
    static func randomBytes(_ count: Int) -> [UInt8] {
        bytes(SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)))
    }

    /// AES-GCM encryption of `plaintext` (a 256-bit key for the vault; 128 and 192 are taken for the vectors):
    /// ciphertext followed by the 16-byte tag.
    package static func seal(key: [UInt8], nonce: [UInt8], _ plaintext: some DataProtocol, authenticating aad: [UInt8])
        throws -> [UInt8]
    {
        let box = try AES.GCM.seal(
            plaintext, using: SymmetricKey(data: key), nonce: AES.GCM.Nonce(data: nonce), authenticating: aad)
        return Array(box.ciphertext) + Array(box.tag)
    }

    /// Decrypts what `seal` made (ciphertext then tag).
    /// - Throws: `VaultError.tampered` when the tag does not match: the key, nonce, data or `aad` differ.
    package static func open(key: [UInt8], nonce: [UInt8], _ sealed: some DataProtocol, authenticating aad: [UInt8])
        throws -> [UInt8]
    {
        guard sealed.count >= tagBytes else { throw VaultError(.truncated) }
        let body = Array(sealed)
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: body.dropLast(tagBytes),
                tag: body.suffix(tagBytes))
            return Array(try AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: aad))
        } catch {
            throw VaultError(.tampered)
        }
    }

    private static func bytes(_ key: SymmetricKey) -> [UInt8] { key.withUnsafeBytes { Array($0) } }
}
