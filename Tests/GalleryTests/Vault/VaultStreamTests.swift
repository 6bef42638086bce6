import Foundation
import GalleryVault
import Testing

/// Files on disk, encrypted and decrypted a chunk at a time: the same bytes as in memory, and a
/// refused file leaves nothing behind.
@Suite struct VaultStreamTests {
    /// `VaultFileTests`' key and 4 KiB chunks.
    let vault: VaultFileTests

    init() throws {
        vault = try VaultFileTests()
    }

    @Test("A streamed file equals the in-memory one and decrypts back", arguments: [0, 4096, 3 * 4096 + 5])
    func roundTrip(size: Int) throws {
        let folder = try Fixtures.temporaryFolder()
        let plain = folder.appendingPathComponent("plain")
        let sealed = folder.appendingPathComponent("sealed")
        let back = folder.appendingPathComponent("back")
        let bytes = VaultFileTests.bytes(size, seed: 7)
        try Data(bytes).write(to: plain)
        try vault.key.encryptFile(at: plain, to: sealed, path: "x/y.zip", format: vault.small)
        #expect(
            Array(try Data(contentsOf: sealed))
                == (try vault.key.encrypt(bytes, path: "x/y.zip", format: vault.small)))
        try vault.key.decryptFile(at: sealed, to: back, path: "x/y.zip")
        #expect(Array(try Data(contentsOf: back)) == bytes)
    }

    @Test("A changed, cut or moved file is refused and no plaintext is left")
    func refusals() throws {
        let folder = try Fixtures.temporaryFolder()
        let plain = folder.appendingPathComponent("plain")
        let sealed = folder.appendingPathComponent("sealed")
        let back = folder.appendingPathComponent("back")
        try Data(VaultFileTests.bytes(5 * 4096)).write(to: plain)
        try vault.key.encryptFile(at: plain, to: sealed, path: "v.mp4", format: vault.small)
        let good = try Data(contentsOf: sealed)
        var flipped = good
        flipped[good.count - 20] ^= 0x10  // in the last chunk: four good chunks were written before it fails
        let cases: [(Data, String, VaultError.Kind)] = [
            (flipped, "v.mp4", .tampered), (good.prefix(24 + 3 * 4112), "v.mp4", .truncated),
            (good, "w.mp4", .tampered)
        ]
        for (bytes, path, kind) in cases {
            try bytes.write(to: sealed)
            #expect(VaultFileTests.refusal { try vault.key.decryptFile(at: sealed, to: back, path: path) } == kind)
            #expect(!FileManager.default.fileExists(atPath: back.path))
        }
    }
}
