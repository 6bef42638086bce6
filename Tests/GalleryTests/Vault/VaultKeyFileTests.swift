import Foundation
import GalleryVault
import Testing

/// Key files: the password's PBKDF2 floor, wrapping and re-wrapping, and refusal of a wrong
/// password or a changed file. Most use 1,000 iterations (the test-only path) to stay quick.
@Suite struct VaultKeyFileTests {
    static let quick = KDFParameters.forTesting(iterations: 1000)
    static let refusal = VaultFileTests.refusal

    @Test("Fewer than 600,000 iterations are refused; more are taken")
    func iterationFloor() throws {
        #expect(KDFParameters.standard.iterations == 600_000)
        #expect(try KDFParameters().iterations == 600_000)
        #expect(try KDFParameters(iterations: 1_000_000).iterations == 1_000_000)
        #expect(Self.refusal { try KDFParameters(iterations: 599_999) } == .weakParameters)
        #expect(Self.refusal { try KDFParameters(iterations: 0) } == .weakParameters)
    }

    @Test("The standard key file: 600,000 iterations, 16-byte salt, opens with its password only")
    func standard() throws {
        let key = ContentKey.random()
        let file = try KeyFile.wrap(key, password: "correct horse")
        #expect(file.iterations == 600_000 && file.salt.count == 16 && file.wrappedKey.count == 60)
        let read = try KeyFile(json: file.json())
        #expect(read == file)
        #expect(try read.unwrap(password: "correct horse") == key)
        #expect(Self.refusal { try read.unwrap(password: "correct horsf") } == .wrongPassword)
        // Salts and wrap nonces are fresh each time.
        #expect(try KeyFile.wrap(key, password: "correct horse", parameters: Self.quick).salt != file.salt)
    }

    @Test("A new password re-wraps the same content key: the encrypted files stay byte-identical")
    func rewrap() throws {
        let key = ContentKey.random()
        let before = try key.encrypt(Array("a page".utf8), path: "index.html")
        let old = try KeyFile.wrap(key, password: "old", parameters: Self.quick)
        let new = try KeyFile.wrap(try old.unwrap(password: "old"), password: "new", parameters: Self.quick)
        #expect(new.wrappedKey != old.wrappedKey)
        #expect(Self.refusal { try new.unwrap(password: "old") } == .wrongPassword)
        let reopened = try new.unwrap(password: "new")
        #expect(try reopened.encrypt(Array("a page".utf8), path: "index.html") == before)
        #expect(try reopened.decrypt(before, path: "index.html") == Array("a page".utf8))
        // Rekeying is a new content key: every file changes.
        #expect(try ContentKey.random().encrypt(Array("a page".utf8), path: "index.html") != before)
    }

    @Test("A password typed composed or decomposed opens the same key (NFC, as vault.js)")
    func unicode() throws {
        let key = ContentKey.random()
        let file = try KeyFile.wrap(key, password: "caf\u{e9}", parameters: Self.quick)
        #expect(try file.unwrap(password: "cafe\u{301}") == key)
    }

    @Test("One bit flipped anywhere in a key file is refused")
    func bitFlips() throws {
        let file = try KeyFile.wrap(ContentKey.random(), password: "pw", parameters: Self.quick)
        let json = Array(file.json())
        #expect(String(decoding: json, as: UTF8.self).contains("\"iterations\":1000,"))
        for position in json.indices {
            for bit in 0..<8 {
                var changed = json
                changed[position] ^= 1 << bit
                let kind = Self.refusal { try KeyFile(json: Data(changed)).unwrap(password: "pw") }
                #expect(
                    kind != nil,
                    "byte \(position) bit \(bit) (\(String(decoding: changed, as: UTF8.self))) was not refused")
            }
        }
    }

    @Test("Another version or kind of file is named as such")
    func versions() throws {
        let json = String(
            decoding: try KeyFile.wrap(ContentKey.random(), password: "pw", parameters: Self.quick).json(),
            as: UTF8.self)
        #expect(
            Self.refusal {
                try KeyFile(json: Data(json.replacingOccurrences(of: "\"version\":1", with: "\"version\":2").utf8))
            } == .unknownVersion)
        #expect(Self.refusal { try KeyFile(json: Data("{}".utf8)) } == .malformedKeyFile)
        #expect(Self.refusal { try KeyFile(json: Data("not json".utf8)) } == .malformedKeyFile)
        #expect(VaultError(.wrongPassword).description.contains("wrong password"))
    }
}
