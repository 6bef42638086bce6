#if canImport(Glibc)
    import Foundation
    import GalleryKeys
    import GalleryModel
    import Glibc
#endif

/// A content-addressed folder of immutable files named by their cache key: `folder/ab/abcdef…`.
///
/// A blob is written to a temporary file and renamed into place, so a killed build never leaves a
/// half-written blob under a key, and a blob is never changed in place, so the published site can
/// hard-link it safely.
package struct BlobStore: Sendable {
    package let folder: URL
    /// `images` or `pages`, recorded with each blob.
    package let kind: String
    /// `folder`'s path, joined to keys as text: a build looks up tens of thousands of blobs, and
    /// `URL.appendingPathComponent` was a tenth of a no-op build's time.
    private let folderPath: String
    /// The two-letter subfolders known to exist, so each is created once per build, not per blob.
    private let subfolders = PathSet()

    package init(folder: URL, kind: String) {
        self.folder = folder
        self.kind = kind
        folderPath = folder.path
    }

    /// Where the blob for `key` lives.
    package func url(_ key: Digest) -> URL { URL(fileURLWithPath: path(key)) }

    package func path(_ key: Digest) -> String { path(hex: key.hex) }

    /// The path of the file named by a key's hex digits.
    package func path(hex: String) -> String { "\(folderPath)/\(hex.prefix(2))/\(hex)" }

    /// Stores bytes under a key and returns the record to keep in the state, and the file's stamp.
    /// - Parameter sha256: The bytes' SHA-256 when the caller has it (a page's key is its SHA-256).
    /// - Throws: `StoreError` naming the file (a full disk says so).
    package func put(_ data: Data, key: Digest, sha256: Digest? = nil) throws -> (BlobStamp, FileStamp) {
        let target = path(key)
        do {
            try makeSubfolder(of: key)
            try AtomicFile.write(data, to: target)
        } catch {
            throw StoreError.writing(target, error)
        }
        guard let stamp = FileStamp.of(target) else {
            throw StoreError(.missingFile, "\(target): vanished right after it was written")
        }
        return (
            BlobStamp(size: stamp.size, modified: stamp.modified, sha256: sha256 ?? CacheKey.sha256(data)),
            stamp
        )
    }

    /// Moves a finished file (made beside the store, on the same file system) into place under a
    /// key: a video's web file, which is never held in memory. The file is renamed, never copied.
    /// - Throws: `StoreError` naming the file.
    package func adopt(_ file: String, key: Digest) throws -> (BlobStamp, FileStamp) {
        let target = path(key)
        guard let sha256 = Digest.sha256(file: file) else {
            throw StoreError(.missingFile, "\(file): could not be read to store it")
        }
        do {
            try makeSubfolder(of: key)
            guard rename(file, target) == 0 else {
                throw StoreError("rename failed: \(String(cString: strerror(errno)))")
            }
        } catch {
            throw StoreError.writing(target, error)
        }
        guard let stamp = FileStamp.of(target) else {
            throw StoreError(.missingFile, "\(target): vanished right after it was written")
        }
        return (BlobStamp(size: stamp.size, modified: stamp.modified, sha256: sha256), stamp)
    }

    /// Where work whose result `adopt` moves in under `key` writes it: beside the blob, on its file
    /// system, named as `AtomicFile` names its temporary files (`key.tmp-PID-N`), so the cache's
    /// clean-up knows what a killed build left.
    package func scratchPath(for key: Digest) throws -> String {
        try makeSubfolder(of: key)
        return "\(path(key)).tmp-\(getpid())-\(UInt32.random(in: 1...UInt32.max))"
    }

    /// Creates the two-letter folder a key's blob goes in, once per build.
    private func makeSubfolder(of key: Digest) throws {
        let subfolder = "\(folderPath)/\(key.prefix(2))"
        guard !subfolders.contains(subfolder) else { return }
        try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
        subfolders.insert(subfolder)
    }

    package enum Check: Equatable {
        /// Size and modification time match the record.
        case intact(FileIdentity)
        /// The modification time changed but the bytes still hash to the record's SHA-256.
        case rehashed(BlobStamp, FileIdentity)
        /// Missing, a different size, or different bytes: a miss.
        case bad
    }

    /// Whether the blob on disk is still the one recorded.
    package func check(_ key: Digest, _ record: BlobStamp) -> Check {
        let path = path(key)
        guard let stamp = FileStamp.of(path), stamp.size == record.size else { return .bad }
        if stamp.modified == record.modified { return .intact(stamp.identity) }
        guard let data = FileManager.default.contents(atPath: path), CacheKey.sha256(data) == record.sha256 else {
            return .bad
        }
        var updated = record
        updated.modified = stamp.modified
        return .rehashed(updated, stamp.identity)
    }
}

/// A cached blob that was found intact: where it is, and which file it is, so staging it can
/// tell with one `lstat` whether the site already links it.
package struct BlobFile: Sendable {
    package var path: String
    package var identity: FileIdentity
    /// The blob's new record when this build stored, re-hashed or adopted it, which the state must
    /// learn; nil when the state's record stands. The work that used the blob carries it back in its
    /// outcome (`Learnt.blobs`), and the state step writes it.
    package var record: BlobRecord?

    package init(path: String, identity: FileIdentity, record: BlobRecord? = nil) {
        self.path = path
        self.identity = identity
        self.record = record
    }
}
