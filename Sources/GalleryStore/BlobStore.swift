#if canImport(Glibc)
import Foundation
import GalleryModel
import Glibc
#endif

/// A content-addressed folder of immutable files named by their cache key: `folder/ab/abcdef…`.
///
/// A blob is written to a temporary file and renamed into place, so a killed build never leaves a
/// half-written blob under a key, and a blob is never changed in place, so the published site can
/// hard-link it safely.
public struct BlobStore: Sendable {
    public let folder: URL
    /// `images` or `pages`, recorded with each blob.
    public let kind: String
    /// `folder`'s path, joined to keys as text: a build looks up tens of thousands of blobs, and
    /// `URL.appendingPathComponent` was a tenth of a no-op build's time.
    private let folderPath: String
    /// The two-letter subfolders known to exist, so each is created once per build, not per blob.
    private let subfolders = PathSet()

    public init(folder: URL, kind: String) {
        self.folder = folder
        self.kind = kind
        folderPath = folder.path
    }

    /// Where the blob for `key` lives.
    public func url(_ key: Digest) -> URL { URL(fileURLWithPath: path(key)) }

    public func path(_ key: Digest) -> String { path(hex: key.hex) }

    /// The path of the file named by a key's hex digits.
    public func path(hex: String) -> String { "\(folderPath)/\(hex.prefix(2))/\(hex)" }

    /// Stores bytes under a key and returns the record to keep in the state, and the file's stamp.
    /// - Parameter sha256: The bytes' SHA-256 when the caller has it (a page's key is its SHA-256).
    /// - Throws: `StoreError` naming the file (a full disk says so).
    package func put(_ data: Data, key: Digest, sha256: Digest? = nil) throws -> (BlobStamp, FileStamp) {
        let target = path(key)
        do {
            let subfolder = "\(folderPath)/\(key.prefix(2))"
            if !subfolders.contains(subfolder) {
                try FileManager.default.createDirectory(atPath: subfolder, withIntermediateDirectories: true)
                subfolders.insert(subfolder)
            }
            try AtomicFile.write(data, to: target)
        } catch {
            throw StoreError.writing(target, error)
        }
        guard let stamp = FileStamp.of(target) else { throw StoreError("\(target): vanished right after it was written") }
        return (BlobStamp(size: stamp.size, modified: stamp.modified, sha256: sha256 ?? CacheKey.sha256(data)),
                stamp)
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
        guard let data = FileManager.default.contents(atPath: path), CacheKey.sha256(data) == record.sha256 else { return .bad }
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
}

/// One build's view of a blob store: which blobs are known to be intact, and which this build stored.
///
/// Thread-safe; photos and pages are published in parallel. A blob is checked when a build first
/// needs its file (two photos may check the same blob at once), not when the staging folder
/// already holds it (`stamp`).
package final class BlobCache: @unchecked Sendable {
    package let store: BlobStore
    private let reuse: Bool
    private let lock = NSLock()
    private let records: DigestTable<BlobStamp>
    /// Records of blobs that images-only builds stored (`SharedCache`), for keys the state does not
    /// know; one found intact is adopted: recorded in the state as if this build had stored it.
    private let shared: [Digest: BlobStamp]
    /// Blobs of `records` checked this build, by the record's place: the intact file's identity,
    /// or nil for a miss. (Paths are made when asked for.)
    private var checked: [FileIdentity??]
    /// New records, and what was checked of keys the state does not know.
    private var fresh = FreshBlobs()

    /// - Parameters:
    ///   - records: The blobs the state knows of this kind.
    ///   - shared: Blobs other builds recorded in the cache's learnt files.
    ///   - reuse: False (`build --force`) treats every blob not stored by this build as a miss.
    package init(store: BlobStore, records: DigestTable<BlobStamp>, shared: [Digest: BlobStamp] = [:], reuse: Bool) {
        self.store = store
        self.records = records
        checked = Array(repeating: nil, count: records.count)
        self.shared = shared
        self.reuse = reuse
    }

    /// Whether the blob for `key` can be linked as it is. A missing or corrupt blob is a miss.
    package func isIntact(_ key: Digest) -> Bool { file(key) != nil }

    /// The state's record of a blob, without looking at its file, for `StagedWriter.holds`: nil with
    /// `--force`, for a key the state does not know, or one this build found missing or corrupt.
    package func stamp(_ key: Digest) -> BlobStamp? {
        guard reuse else { return nil }
        let index = records.index(of: key)
        return lock.withLock {
            if case .some(.none) = state(key, at: index) { return nil }
            return fresh[key]?.stamp ?? index.map { records.values[$0] }
        }
    }

    /// The blob for `key` when it can be linked as it is; nil for a missing or corrupt blob.
    package func file(_ key: Digest) -> BlobFile? {
        let index = records.index(of: key)
        lock.lock()
        if let known = state(key, at: index) {
            lock.unlock()
            return known.map { BlobFile(path: store.path(key), identity: $0) }
        }
        lock.unlock()
        let known = index.map { records.values[$0] }
        var file: BlobFile?
        if reuse, let record = known ?? shared[key] {
            switch store.check(key, record) {
            case .intact(let identity):
                file = BlobFile(path: store.path(key), identity: identity)
                if known == nil { lock.withLock { fresh.update(key) { $0.stamp = record } } }
            case .rehashed(let updated, let identity):
                file = BlobFile(path: store.path(key), identity: identity)
                lock.withLock { fresh.update(key) { $0.stamp = updated } }
            case .bad: break
            }
        }
        lock.withLock { mark(key, at: index, file?.identity) }
        return file
    }

    /// Stores a new blob (replacing a corrupt one) and returns it.
    @discardableResult
    package func put(_ data: Data, key: Digest, sha256: Digest? = nil) throws -> BlobFile {
        let (record, stamp) = try store.put(data, key: key, sha256: sha256)
        lock.withLock {
            fresh.update(key) { $0.stamp = record }   // `checked` answers for it from now on
            mark(key, at: records.index(of: key), stamp.identity)
        }
        return BlobFile(path: store.path(key), identity: stamp.identity)
    }

    /// The record of a blob this build found intact or stored.
    package func record(_ key: Digest) -> BlobRecord? {
        lock.withLock {
            let index = records.index(of: key)
            guard case .some(.some) = state(key, at: index),
                  let stamp = fresh[key]?.stamp ?? index.map({ records.values[$0] }) else { return nil }
            return BlobRecord(key: key, kind: store.kind, size: stamp.size, modified: stamp.modified, sha256: stamp.sha256)
        }
    }

    /// Blobs stored or re-checked during this build, for the state.
    package var changedRecords: [BlobRecord] {
        lock.withLock {
            fresh.entries.compactMap { entry in
                entry.stamp.map {
                    BlobRecord(key: entry.key, kind: store.kind, size: $0.size, modified: $0.modified, sha256: $0.sha256)
                }
            }.sorted { $0.key < $1.key }
        }
    }

    /// Deletes blobs nothing refers to any more (their photos were removed).
    package func remove(_ keys: [Digest]) {
        for key in keys {
            try? FileManager.default.removeItem(at: store.url(key))
        }
        lock.withLock {
            for key in keys {
                if fresh.index(of: key) != nil { fresh.update(key) { $0.stamp = nil } }
                mark(key, at: records.index(of: key), nil)
            }
        }
    }

    /// What this build found of a blob: nil when it was not checked yet, else the intact file's
    /// identity or nil for a miss. Called under the lock.
    private func state(_ key: Digest, at index: Int?) -> FileIdentity?? {
        if let index { return checked[index] }
        return fresh[key]?.checked   // nil: no entry, or not checked yet
    }

    /// Records what this build found of a blob. Called under the lock.
    private func mark(_ key: Digest, at index: Int?, _ identity: FileIdentity?) {
        if let index { checked[index] = .some(identity) } else { fresh.update(key) { $0.checked = .some(identity) } }
    }
}

/// Which file a path names: its device and inode.
package struct FileIdentity: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
}

/// A file's size, modification time and identity, read with one `stat` call.
package struct FileStamp: Equatable {
    package var size: Int
    /// Nanoseconds since 1970.
    package var modified: Int
    package var identity: FileIdentity

    /// The stamp of a regular file, or nil when there is none at `path`; with `followingLinks`
    /// false, nil for a symbolic link too (`lstat`).
    package static func of(_ path: String, followingLinks: Bool = true) -> FileStamp? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0,
              (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { return nil }
        #if os(Linux)
        let time = info.st_mtim
        #else
        let time = info.st_mtimespec
        #endif
        return FileStamp(size: Int(info.st_size), modified: Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec),
                         identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }
}

extension StoreError {
    /// A failed write in the state folder, with what to do about it.
    package static func writing(_ path: String, _ error: Error) -> StoreError {
        let nsError = error as NSError
        let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? (nsError.domain == NSPOSIXErrorDomain ? nsError.code : 0)
        if posix == Int(ENOSPC) || nsError.code == NSFileWriteOutOfSpaceError {
            return StoreError("\(path): the disk is full; free some space and build again (the previous site is kept)")
        }
        if posix == Int(EACCES) || posix == Int(EROFS) || nsError.code == NSFileWriteNoPermissionError {
            return StoreError("\(path): not writable; check the state folder's permissions (the previous site is kept)")
        }
        return StoreError("\(path): \(error.localizedDescription)")
    }
}
