#if canImport(Glibc)
    import Foundation
    import GalleryKeys
    import GalleryModel
    import GalleryStore
    import Glibc
#endif

/// Putting cached blobs into the staging folder: a hard link each, or nothing at all for a file the
/// staging folder (started from the last site) already holds.
extension StagedWriter {
    /// Whether the staging folder already holds, at a site-relative path, the blob `key` of `cache`:
    /// a regular file of the size and modification time to the nanosecond that the state recorded
    /// for the blob (`BlobCache.stamp`), which is the blob's own inode, linked there by an earlier
    /// build. The cache's copy is not looked at, so a no-op build makes one `lstat` per file where
    /// checking the cache and then the link made two. What the file holds is trusted by size and
    /// time, as the cache's own check trusts them. Writes nothing: a file held is still `keep`t.
    /// While the build keeps the published site, the published site's file is the one looked at.
    package func holds(_ key: Digest, of cache: BlobCache, at relativePath: String) -> Bool {
        guard let stamp = cache.stamp(key), let target = try? resolve(relativePath) else { return false }
        func matches(_ path: String) -> Bool {
            guard let found = FileStamp.of(path, followingLinks: false) else { return false }
            return found.size == stamp.size && found.modified == stamp.modified
        }
        if let live, !live.isStaged {
            guard matches(live.root + "/" + relativePath) else { return false }
            if live.hold(relativePath) { return true }
        }
        guard reused, (try? stage()) != nil else { return false }
        return matches(target)
    }

    /// Keeps a file the staging folder holds (`holds`) as this build's, as if it had been linked:
    /// one the published site held is put into the staging folder if the build has begun staging
    /// since.
    /// - Throws: `OutputError` when that file cannot be staged.
    package func keep(_ relativePath: String) throws {
        if let live, let heldLive = live.keep(relativePath) {
            guard !heldLive else { return }
            try stagePublished(relativePath)
            return
        }
        written?.insert(relativePath)
    }

    /// Puts an existing file (a cached blob) at a site-relative path inside the staging folder.
    ///
    /// A hard link costs no copy and no disk space; where the cache and the output are on different
    /// file systems, or links are not allowed, the file is copied instead. Cached blobs are never
    /// changed in place, so a link is as safe as a copy.
    /// - Throws: `OutputError` for unsafe paths or failed writes.
    package func link(_ source: BlobFile, to relativePath: String) throws {
        let target = try resolve(relativePath)
        if let live, !live.isStaged, Self.isFile(source.identity, at: live.root + "/" + relativePath),
            live.record(relativePath)
        {
            return
        }
        try stage()
        try linkStaged(source, to: relativePath, at: target)
    }

    /// `link` once the build stages: the file goes into the staging folder.
    func linkStaged(_ source: BlobFile, to relativePath: String, at target: String) throws {
        written?.insert(relativePath)
        if reused {
            if Self.isFile(source.identity, at: target) { return }
        } else {
            makeFolders(above: relativePath)
        }
        if Self.hardLink(source.path, target) == 0 { return }
        if errno == ENOENT {
            makeFolders(above: relativePath)
            if Self.hardLink(source.path, target) == 0 { return }
        }
        if errno == EEXIST {
            unlink(target)
            if Self.hardLink(source.path, target) == 0 { return }
        }
        let targetURL = URL(fileURLWithPath: target)
        try Self.attempt(target) {
            try FileManager.default.createDirectory(
                at: targetURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: targetURL)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: source.path), to: targetURL)
        }
    }

    /// Whether `path` is already the file `identity` names: a spare's file still linked to the blob.
    static func isFile(_ identity: FileIdentity, at path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == identity.device && UInt64(info.st_ino) == identity.inode
    }

    private static func hardLink(_ source: String, _ target: String) -> Int32 {
        #if canImport(Glibc)
            return Glibc.link(source, target)
        #else
            return Darwin.link(source, target)
        #endif
    }

    /// Creates the folders above a site-relative path inside the staging folder, one `mkdir` each,
    /// skipping folders this build already made sure of.
    func makeFolders(above relativePath: String) {
        var folder = ""
        for part in relativePath.split(separator: "/").dropLast() {
            folder += folder.isEmpty ? String(part) : "/" + part
            if folders.contains(folder) { continue }
            _ = mkdir(stagingPath + "/" + folder, 0o755)
            folders.insert(folder)
        }
    }
}
