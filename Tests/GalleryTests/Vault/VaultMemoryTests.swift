import Foundation
import GalleryVault
import Testing

/// Streaming keeps memory flat: a 256 MiB file is encrypted and decrypted with the process's peak
/// resident memory (VmHWM, reset first through /proc/self/clear_refs) growing by a few MiB, where
/// reading the file whole would add at least its size. In LoadSensitive so that no image build
/// runs beside it and moves the peak (measured alone: 1.2 MiB of growth, debug build).
extension LoadSensitive {
    @Suite struct VaultMemoryTests {
        static let fileBytes: UInt64 = 256 << 20
        static let limitKiB = 96 << 10

        /// The peak resident size in KiB, or nil where /proc does not say (not Linux).
        static func peakKiB() -> Int? {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }

        @Test(
            "A 256 MiB file streams through encryption and decryption in flat memory",
            .enabled(
                if: FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs"),
                "needs Linux's /proc/self/clear_refs"))
        func flat() throws {
            let folder = try Fixtures.temporaryFolder()
            let plain = folder.appendingPathComponent("plain")
            let sealed = folder.appendingPathComponent("sealed")
            let back = folder.appendingPathComponent("back")
            // A sparse file: no disk, and read back as zeros.
            _ = FileManager.default.createFile(atPath: plain.path, contents: nil)
            let handle = try FileHandle(forWritingTo: plain)
            try handle.truncate(atOffset: Self.fileBytes)
            try handle.close()
            let key = ContentKey.random()
            try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            let before = try #require(Self.peakKiB())
            try key.encryptFile(at: plain, to: sealed, path: "album.zip")
            let encrypted = try #require(Self.peakKiB())
            try key.decryptFile(at: sealed, to: back, path: "album.zip")
            let decrypted = try #require(Self.peakKiB())
            #expect(encrypted - before < Self.limitKiB, "encrypting grew the peak by \(encrypted - before) KiB")
            #expect(decrypted - before < Self.limitKiB, "decrypting grew the peak by \(decrypted - before) KiB")
            let size = { (url: URL) in
                (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64) ?? 0
            }
            #expect(size(sealed) == UInt64(VaultFormat.standard.encryptedSize(plaintextBytes: Int(Self.fileBytes))))
            #expect(size(back) == Self.fileBytes)
        }
    }
}
