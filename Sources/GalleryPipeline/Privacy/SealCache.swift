import Foundation
import GalleryKeys
import GalleryModel
import GalleryOutput
import GalleryStore
import GalleryVault

/// Encrypted files kept in the cache's `sealed` folder, so that a build that changed nothing
/// encrypts nothing: each is keyed by the key that sealed it (by a name derived from it, never the
/// key), its published path, and what it was made from (the staged file's size, time and inode: a
/// cached derivative or page is never changed in place, so the same stamp is the same bytes), and
/// hard-linked into the staging folder as derivatives are. Encryption is deterministic, so a file
/// taken from here is byte for byte the one a new encryption would make.
///
/// One per build, shared by `AlbumSealer` and `SiteSealer` on the build's one seal task; at the
/// end, `prune` removes the files this build did not use.
final class SealCache {
    let store: BlobStore
    let writer: StagedWriter
    /// False (`build --rebuild`) encrypts every file again.
    let reuse: Bool
    private var used = Set<String>()
    private(set) var made = 0
    private(set) var reused = 0

    /// Bump when what a sealed file holds changes for the same inputs (the format, the rewriting).
    static let formatVersion = 1

    init(writer: StagedWriter, cache: URL, reuse: Bool) {
        self.writer = writer
        store = BlobStore(folder: cache.appendingPathComponent("sealed"), kind: "sealed")
        self.reuse = reuse
    }

    /// The key of a file sealed under `key` at `target` from the staged file at `source` (nil when
    /// that file cannot be stamped: it is then always encrypted again), with any other input.
    func key(_ key: ContentKey, target: String, source: String?, _ extra: [String] = []) -> Digest? {
        var digest = CacheKey("sealed file")
        digest.add(Self.formatVersion)
        digest.add(key.opaqueName(for: "cache"))
        digest.add(target)
        if let source {
            guard let stamp = FileStamp.of(writer.stagingPath + "/" + source) else { return nil }
            digest.add("\(stamp.size) \(stamp.modified) \(stamp.identity.device) \(stamp.identity.inode)")
        }
        extra.forEach { digest.add($0) }
        return digest.finish()
    }

    /// Puts the cached file for `key` at `target`, making it first with `make` (which writes the
    /// file at the path it is given) when the cache does not hold it.
    /// - Returns: The bytes of the file.
    @discardableResult
    func place(_ key: Digest?, at target: String, make: (String) throws -> Void) throws -> Int {
        guard let key else {
            let scratch = try store.scratchPath(for: CacheKey("unkeyed sealed file").finish())
            try make(scratch)
            let size = FileStamp.of(scratch)?.size ?? 0
            try writer.move(URL(fileURLWithPath: scratch), to: target)
            made += 1
            return size
        }
        let cached = store.path(key)
        used.insert(key.hex)
        if reuse, FileStamp.of(cached) != nil {
            reused += 1
        } else {
            let scratch = try store.scratchPath(for: key)
            do { try make(scratch) } catch {
                unlink(scratch)
                throw error
            }
            guard rename(scratch, cached) == 0 else {
                unlink(scratch)
                throw StoreError(.writeFailed, "\(cached): an encrypted file could not be moved into the cache")
            }
            made += 1
        }
        guard let stamp = FileStamp.of(cached) else {
            throw StoreError(.missingFile, "\(cached): a cached encrypted file vanished during the build")
        }
        try writer.link(BlobFile(path: cached, identity: stamp.identity), to: target)
        return stamp.size
    }

    /// Removes the cached files this build did not use; the build holds the state lock, so no other
    /// build of this site is using them. Files being written are kept.
    func prune() {
        let root = store.folder.path
        for sub in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(sub)")) ?? []
            where !used.contains(name) && !name.contains(".tmp-") {
                unlink("\(root)/\(sub)/\(name)")
            }
        }
    }
}
