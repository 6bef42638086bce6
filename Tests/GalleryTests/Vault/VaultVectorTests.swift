import Foundation
import GalleryVault
import Testing

/// The primitives of the vault against published known answers, through `VaultCrypto`, the one
/// file that calls swift-crypto: if a call were wired wrong (a key or nonce swapped, the tag cut,
/// the wrong hash), the format would still round-trip in Swift but not open in a browser.
@Suite struct VaultVectorTests {
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }

    /// RFC 7914 §11 (the PBKDF2-HMAC-SHA256 vectors of the scrypt RFC).
    @Test(
        "PBKDF2-HMAC-SHA256: RFC 7914 §11",
        arguments: [
            (
                "passwd", "salt", 1,
                """
                55 ac 04 6e 56 e3 08 9f ec 16 91 c2 25 44 b6 05 f9 41 85 21 6d de 04 65 e6 8b 9d 57 c2 0d ac bc
                49 ca 9c cc f1 79 b6 45 99 16 64 b3 9d 77 ef 31 7c 71 b8 45 b1 e3 0b d5 09 11 20 41 d3 a1 97 83
                """
            ),
            (
                "Password", "NaCl", 80000,
                """
                4d dc d8 f6 0b 98 be 21 83 0c ee 5e f2 27 01 f9 64 1a 44 18 d0 4c 04 14 ae ff 08 87 6b 34 ab 56
                a1 d4 25 a1 22 58 33 54 9a db 84 1b 51 c9 b3 17 6a 27 2b de bb a1 d0 78 47 8f 62 b3 97 f3 3c 8d
                """
            )
        ])
    func pbkdf2(password: String, salt: String, iterations: Int, expected: String) throws {
        let key = try VaultCrypto.pbkdf2SHA256(
            password: Array(password.utf8), salt: Array(salt.utf8), iterations: iterations, byteCount: 64)
        #expect(key == Self.hex(expected))
    }

    /// The GCM specification's test cases 13–16, the 256-bit-key ones (McGrew and Viega, "The
    /// Galois/Counter Mode of Operation", appendix B; the same values as NIST's gcmEncryptExtIV256).
    static let k15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"
    static let p15 =
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    static let c15 =
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
    @Test(
        "AES-256-GCM: the GCM spec's test cases 13-16",
        arguments: [
            (
                String(repeating: "00", count: 32), String(repeating: "00", count: 12), "", "", "",
                "530f8afbc74536b9a963b4f1c4cb738b"
            ),
            (
                String(repeating: "00", count: 32), String(repeating: "00", count: 12),
                String(repeating: "00", count: 16), "",
                "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"
            ),
            (k15, "cafebabefacedbaddecaf888", p15, "", c15, "b094dac5d93471bdec1a502270e3cc6c"),
            (
                k15, "cafebabefacedbaddecaf888", String(p15.prefix(120)), "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                String(c15.prefix(120)), "76fc6ece0f4e1768cddf8853bb2d551b"
            )
        ])
    func aesGCM(key: String, nonce: String, plaintext: String, aad: String, ciphertext: String, tag: String) throws {
        let (k, n, a) = (Self.hex(key), Self.hex(nonce), Self.hex(aad))
        let sealed = try VaultCrypto.seal(key: k, nonce: n, Self.hex(plaintext), authenticating: a)
        #expect(sealed == Self.hex(ciphertext) + Self.hex(tag))
        #expect(try VaultCrypto.open(key: k, nonce: n, sealed, authenticating: a) == Self.hex(plaintext))
        // The tag covers the associated data: other data, or none, is refused.
        #expect(throws: VaultError(.tampered)) {
            try VaultCrypto.open(key: k, nonce: n, sealed, authenticating: a + [0])
        }
    }

    /// RFC 5869 test case 3 (SHA-256, empty salt and info: the vault's salt is empty too) and
    /// RFC 4231 test case 2 for HMAC-SHA256.
    @Test func hkdfAndHMAC() {
        #expect(
            VaultCrypto.hkdfSHA256(key: [UInt8](repeating: 0x0b, count: 22), info: "", byteCount: 42)
                == Self.hex("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"))
        #expect(
            VaultCrypto.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
                == Self.hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
    }

    /// RFC 4648 §10's base32 vectors, lowercase and unpadded, as opaque names spell them.
    @Test func base32() {
        let vectors = [
            "": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "fooba": "mzxw6ytb",
            "foobar": "mzxw6ytboi"
        ]
        for (input, output) in vectors { #expect(ContentKey.base32(Array(input.utf8)) == output, "\(input)") }
    }

    /// The format's own vectors, made by an independent implementation of docs/protected-albums.md
    /// (Python's `cryptography` and `hashlib`, not swift-crypto): a published album must keep
    /// opening, so these bytes may change only with a new format version.
    @Test("Format version 1: vectors from an independent implementation of the documented format")
    func formatVectors() throws {
        let key = try ContentKey(raw: (0..<32).map { UInt8($0) })
        let plaintext = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 31 + 1) }
        let sealed = try key.encrypt(plaintext, path: "album/photo.jpg", format: try VaultFormat(chunkShift: 12))
        #expect(sealed.count == 5056)
        #expect(Array(sealed.prefix(24)) == Self.hex("47535646010c000084ec587bdf0a6ae4d491bba56cefc00e"))
        var digest = VaultCrypto.Digest()
        digest.update(sealed)
        #expect(digest.finish() == Self.hex("1429e94abb0239d9841e4a9d79579b76cf3ce59f4f647911d159c0b11765aef5"))
        #expect(
            try key.encrypt([UInt8](), path: "empty")
                == Self.hex("47535646011000001d215ac05efc186e7220f0c232057439ddfc3faef8f294b67a52500c5970a8fc"))
        #expect(key.opaqueName(for: "photo-17/large.webp") == "xizo5ff3uhvfxvb557sdecok54")
        let keyFile =
            #"{"format":"galleryssg-vault-key","iterations":1000,"kdf":"PBKDF2-HMAC-SHA256","salt":"AAECAwQFBgcICQoLDA0ODw==","version":1,"wrappedKey":"AAECAwQFBgcICQoLZ7LXtRsZkyI9GZqm/jT5KvGNvOZB5D8LXNTKY+910ySsEHDczCv5oLYe08u2yux1"}"#
        #expect(try KeyFile(json: Data(keyFile.utf8)).unwrap(password: "pw") == key)
        #expect(String(decoding: try KeyFile(json: Data(keyFile.utf8)).json(), as: UTF8.self) == keyFile)
    }
}
