import Foundation
import GalleryVault
import Testing

/// The encrypted-file format (docs/protected-albums.md): round trips at the chunk edges,
/// determinism, and refusal of every changed, cut, reordered or moved file.
@Suite struct VaultFileTests {
    /// 4 KiB chunks, so that a few kilobytes make several.
    let small: VaultFormat
    let key: ContentKey

    init() throws {
        small = try VaultFormat(chunkShift: 12)
        key = try ContentKey(raw: (0..<32).map { UInt8($0) })
    }

    static func bytes(_ count: Int, seed: UInt8 = 1) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 * 31 + Int(seed)) }
    }

    /// The kind of `VaultError` that `body` throws; nil when it throws none.
    static func refusal(_ body: () throws -> Any) -> VaultError.Kind? {
        do {
            _ = try body()
            return nil
        } catch let error as VaultError { return error.kind } catch { return nil }
    }

    @Test("Round trip at the chunk edges", arguments: [0, 1, 4095, 4096, 4097, 3 * 4096, 10_000])
    func roundTrip(size: Int) throws {
        let plaintext = Self.bytes(size)
        let sealed = try key.encrypt(plaintext, path: "a/b.jpg", format: small)
        #expect(sealed.count == small.encryptedSize(plaintextBytes: size))
        #expect(try key.decrypt(sealed, path: "a/b.jpg") == plaintext)
    }

    @Test("The same key, path and bytes give the same file; any other path or bytes another IV")
    func deterministic() throws {
        let plaintext = Self.bytes(9000)
        let one = try key.encrypt(plaintext, path: "p/1", format: small)
        #expect(try key.encrypt(plaintext, path: "p/1", format: small) == one)
        var changed = plaintext
        changed[8999] ^= 1
        let others = [
            try key.encrypt(plaintext, path: "p/2", format: small),
            try key.encrypt(changed, path: "p/1", format: small),
            try key.encrypt(plaintext, path: "p/1"),  // another chunk size
            try ContentKey.random().encrypt(plaintext, path: "p/1", format: small)
        ]
        let ivs = Set(([one] + others).map { Array($0[8..<24]) })
        #expect(ivs.count == 5, "the synthetic IVs (nonce prefixes) must all differ")
        // The first chunk of `changed` is equal to `one`'s, yet its ciphertext differs: the IV covers the whole file.
        #expect(others[1][24..<(24 + 4096)] != one[24..<(24 + 4096)])
    }

    @Test("One bit flipped anywhere is refused")
    func bitFlips() throws {
        let path = "album/photo.jpg"
        let sealed = try key.encrypt(Self.bytes(5000), path: path, format: small)
        #expect(sealed.count == 24 + 5000 + 2 * 16)
        for position in sealed.indices {
            // Every bit of the header; one bit (rotating) of each other byte, to keep the test quick.
            for bit in position < 24 ? Array(0..<8) : [position % 8] {
                var changed = sealed
                changed[position] ^= 1 << bit
                let kind = Self.refusal { try key.decrypt(changed, path: path) }
                #expect(kind != nil, "byte \(position) bit \(bit) was not refused")
                if position >= 24 { #expect(kind == .tampered, "byte \(position): \(String(describing: kind))") }
            }
        }
    }

    @Test("Cut, reordered, moved or foreign files are refused")
    func structure() throws {
        let path = "album/big.bin"
        let plaintext = Self.bytes(3 * 4096 + 100)
        let sealed = try key.encrypt(plaintext, path: path, format: small)
        let block = 4096 + 16
        let chunks = (0..<4).map { Array(sealed[(24 + $0 * block)..<min(24 + ($0 + 1) * block, sealed.count)]) }
        let header = Array(sealed[0..<24])
        // Cut after a whole chunk: the last one left was not sealed as the last.
        #expect(Self.refusal { try key.decrypt(header + chunks[0] + chunks[1], path: path) } == .truncated)
        #expect(Self.refusal { try key.decrypt(header, path: path) } == .truncated)
        #expect(Self.refusal { try key.decrypt(Array(header.prefix(10)), path: path) } == .truncated)
        #expect(Self.refusal { try key.decrypt(Array(sealed.dropLast(1)), path: path) } != nil)
        #expect(
            Self.refusal { try key.decrypt(header + chunks[1] + chunks[0] + chunks[2] + chunks[3], path: path) }
                == .tampered)
        #expect(Self.refusal { try key.decrypt(sealed + [0], path: path) } == .tampered)
        #expect(Self.refusal { try key.decrypt(sealed, path: "album/other.bin") } == .tampered)
        #expect(Self.refusal { try ContentKey.random().decrypt(sealed, path: path) } == .tampered)
        var version = sealed
        version[4] = 2
        #expect(Self.refusal { try key.decrypt(version, path: path) } == .unknownVersion)
    }

    @Test("Chunk sizes outside 4 KiB to 16 MiB are refused")
    func chunkSizes() {
        #expect(Self.refusal { try VaultFormat(chunkShift: 11) } == .weakParameters)
        #expect(Self.refusal { try VaultFormat(chunkShift: 25) } == .weakParameters)
        #expect(VaultFormat.standard.chunkBytes == 65_536)
    }

    @Test("Opaque names: 26 base32 characters, stable, distinct per name and key")
    func opaqueNames() throws {
        let name = key.opaqueName(for: "photo-17/large.webp")
        #expect(name.count == 26 && name.allSatisfy { "abcdefghijklmnopqrstuvwxyz234567".contains($0) }, "\(name)")
        #expect(key.opaqueName(for: "photo-17/large.webp") == name)
        #expect(key.opaqueName(for: "photo-17/small.webp") != name)
        #expect(ContentKey.random().opaqueName(for: "photo-17/large.webp") != name)
        // The name reveals nothing of the logical name (no prefix of it, no shared start).
        #expect(!name.contains("photo"))
    }
}
