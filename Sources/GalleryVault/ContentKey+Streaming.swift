import Foundation

/// Encrypting and decrypting files on disk a chunk at a time, so that a video or a zip of many
/// gigabytes takes as little memory as a photo: two chunks at once.
extension ContentKey {
    /// Encrypts the file at `source` into `target` as the file at `path` (see `encrypt(_:path:format:)`).
    ///
    /// Reads the source twice: once for the digest the synthetic IV needs, once to encrypt. The
    /// second read's digest must match the first: a file that changed in between would otherwise be
    /// encrypted under the IV of other bytes, reusing nonces (`VaultError.sourceChanged`; `target` is removed).
    /// - Throws: `VaultError`, or the file system's error.
    package func encryptFile(at source: URL, to target: URL, path: String, format: VaultFormat = .standard) throws {
        var first = VaultCrypto.Digest()
        try Self.chunks(of: source, size: format.chunkBytes) { chunk, _ in first.update(chunk) }
        let pathBytes = Array(path.utf8)
        let expected = first.finish()
        let cipher = ChunkCipher(
            key: self, format: format, iv: format.syntheticIV(key: self, path: pathBytes, digest: expected),
            path: pathBytes)
        try Self.writing(target) { output in
            try output.write(contentsOf: cipher.header)
            var second = VaultCrypto.Digest()
            var index = 0
            try Self.chunks(of: source, size: format.chunkBytes) { chunk, final in
                second.update(chunk)
                try output.write(contentsOf: try cipher.seal(chunk, index: index, final: final))
                index += 1
            }
            guard second.finish() == expected else { throw VaultError(.sourceChanged, source.path) }
        }
    }

    /// Decrypts the file at `source` (made for `path`) into `target`, a chunk at a time.
    ///
    /// A chunk is written only once its tag has been checked, but a later chunk can still fail:
    /// on any error `target` is removed, so no partial or unauthenticated plaintext stays behind.
    /// - Throws: `VaultError` (`.tampered`, `.truncated`, `.unknownVersion`), or the file system's error.
    package func decryptFile(at source: URL, to target: URL, path: String) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let (format, iv) = try VaultFormat.parse(header: try input.read(upToCount: VaultFormat.headerBytes) ?? Data())
        let cipher = ChunkCipher(key: self, format: format, iv: iv, path: Array(path.utf8))
        let block = format.chunkBytes + VaultCrypto.tagBytes
        try Self.writing(target) { output in
            var current = try input.read(upToCount: block) ?? Data()
            var index = 0
            while true {
                let next = current.count == block ? try input.read(upToCount: block) ?? Data() : Data()
                try output.write(contentsOf: try cipher.open(Array(current), index: index, final: next.isEmpty))
                if next.isEmpty { return }
                current = next
                index += 1
            }
        }
    }

    /// Calls `body` with each `size`-byte chunk of the file (the last may be shorter; an empty file
    /// is one empty chunk) and whether it is the last, reading one chunk ahead to know.
    static func chunks(of url: URL, size: Int, _ body: (Data, Bool) throws -> Void) throws {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var current = try input.read(upToCount: size) ?? Data()
        while true {
            let next = current.count == size ? try input.read(upToCount: size) ?? Data() : Data()
            try body(current, next.isEmpty)
            if next.isEmpty { return }
            current = next
        }
    }

    /// Creates `url` and hands it to `body`; removes it when `body` throws.
    static func writing(_ url: URL, _ body: (FileHandle) throws -> Void) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let output = try FileHandle(forWritingTo: url)
        do {
            try body(output)
            try output.close()
        } catch {
            try? output.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}
