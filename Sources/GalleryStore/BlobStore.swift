#if canImport(Glibc)
import Foundation
import GalleryModel
import Glibc
#endif
import Synchronization

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
/// needs its file, not when the staging folder already holds it (`stamp`), and at most once: the
/// first caller checks it while later callers for the same blob wait for that check's answer.
package final class BlobCache: Sendable {
    package let store: BlobStore
    private let reuse: Bool
    private let records: DigestTable<BlobStamp>
    /// Records of blobs that images-only builds stored (`SharedCache`), for keys the state does not
    /// know; one found intact is adopted: recorded in the state as if this build had stored it.
    private let shared: [Digest: BlobStamp]
    private let books: Mutex<Books>

    /// What this build found and stored, kept under one lock.
    private struct Books {
        /// Blobs of `records` checked this build, by the record's place: the intact file's identity,
        /// or nil for a miss. (Paths are made when asked for.)
        var checked: [FileIdentity??]
        /// New records, and what was checked of keys the state does not know.
        var fresh = FreshBlobs()
        /// Blobs being checked now, with the callers waiting for the answer.
        var checking: [Digest: [CheckedContinuation<FileIdentity?, Never>]] = [:]
        /// Blob files looked at (`BlobStore.check`) this build.
        var checks = 0

        /// What this build found of a blob: nil when it was not checked yet, else the intact file's
        /// identity or nil for a miss.
        func state(_ key: Digest, at index: Int?) -> FileIdentity?? {
            if let index { return checked[index] }
            return fresh[key]?.checked   // nil: no entry, or not checked yet
        }

        /// Records what this build found of a blob.
        mutating func mark(_ key: Digest, at index: Int?, _ identity: FileIdentity?) {
            if let index { checked[index] = .some(identity) } else { fresh.update(key) { $0.checked = .some(identity) } }
        }
    }

    /// - Parameters:
    ///   - records: The blobs the state knows of this kind.
    ///   - shared: Blobs other builds recorded in the cache's learnt files.
    ///   - reuse: False (`build --force`) treats every blob not stored by this build as a miss.
    package init(store: BlobStore, records: DigestTable<BlobStamp>, shared: [Digest: BlobStamp] = [:], reuse: Bool) {
        self.store = store
        self.records = records
        books = Mutex(Books(checked: Array(repeating: nil, count: records.count)))
        self.shared = shared
        self.reuse = reuse
    }

    /// How many blob files this build looked at: one per blob at most.
    package var checks: Int { books.withLock { $0.checks } }

    /// Whether the blob for `key` can be linked as it is. A missing or corrupt blob is a miss.
    package func isIntact(_ key: Digest) async -> Bool { await file(key) != nil }

    /// The state's record of a blob, without looking at its file, for `StagedWriter.holds`: nil with
    /// `--force`, for a key the state does not know, or one this build found missing or corrupt.
    package func stamp(_ key: Digest) -> BlobStamp? {
        guard reuse else { return nil }
        let index = records.index(of: key)
        return books.withLock { books in
            if case .some(.none) = books.state(key, at: index) { return nil }
            return books.fresh[key]?.stamp ?? index.map { records.values[$0] }
        }
    }

    /// What a caller is to do about a blob: use what is known, wait for another caller's check, or check it.
    private enum Lookup {
        case known(FileIdentity?)
        case beingChecked
        case check
    }

    /// The blob for `key` when it can be linked as it is; nil for a missing or corrupt blob.
    ///
    /// While another task checks the blob, this waits for its answer (suspended, not blocking).
    package func file(_ key: Digest) async -> BlobFile? {
        let index = records.index(of: key)
        switch lookup(key, at: index) {
        case .known(let identity):
            return blobFile(key, identity)
        case .check:
            return blobFile(key, check(key, at: index))
        case .beingChecked:
            let identity = await withCheckedContinuation { (answer: CheckedContinuation<FileIdentity?, Never>) in
                let known = books.withLock { books -> FileIdentity?? in
                    guard books.checking[key] == nil else {
                        books.checking[key]?.append(answer)
                        return nil
                    }
                    return .some(books.state(key, at: index) ?? nil)   // the check ended meanwhile
                }
                if let known { answer.resume(returning: known) }
            }
            return blobFile(key, identity)
        }
    }

    /// As `file`, for a caller that cannot wait (it is not async): while another task checks the
    /// blob, nil, as for a miss, so the caller stores its bytes again, which is as correct, only
    /// slower. The blob is still checked at most once.
    package func fileWithoutWaiting(_ key: Digest) -> BlobFile? {
        let index = records.index(of: key)
        switch lookup(key, at: index) {
        case .known(let identity): return blobFile(key, identity)
        case .check: return blobFile(key, check(key, at: index))
        case .beingChecked: return nil
        }
    }

    private func blobFile(_ key: Digest, _ identity: FileIdentity?) -> BlobFile? {
        identity.map { BlobFile(path: store.path(key), identity: $0) }
    }

    /// What is known of a blob; when nothing is and nobody checks it, marks it as being checked by the caller.
    private func lookup(_ key: Digest, at index: Int?) -> Lookup {
        books.withLock { books in
            if let known = books.state(key, at: index) { return .known(known) }
            if books.checking[key] != nil { return .beingChecked }
            books.checking[key] = []
            return .check
        }
    }

    /// Checks a blob `lookup` marked as being checked by this caller (the file is looked at outside
    /// the lock), records the answer, and hands it to the callers that waited for it.
    private func check(_ key: Digest, at index: Int?) -> FileIdentity? {
        let known = index.map { records.values[$0] }
        var identity: FileIdentity?
        var newStamp: BlobStamp?
        var looked = false
        if reuse, let record = known ?? shared[key] {
            looked = true
            switch store.check(key, record) {
            case .intact(let found):
                identity = found
                if known == nil { newStamp = record }
            case .rehashed(let updated, let found):
                identity = found
                newStamp = updated
            case .bad: break
            }
        }
        let (answer, waiting) = books.withLock { books -> (FileIdentity?, [CheckedContinuation<FileIdentity?, Never>]) in
            let waiting = books.checking.removeValue(forKey: key) ?? []
            if looked { books.checks += 1 }
            // Stored (or removed) by this build while it was checked: that answer stands.
            if let settled = books.state(key, at: index) { return (settled, waiting) }
            if let newStamp { books.fresh.update(key) { $0.stamp = newStamp } }
            books.mark(key, at: index, identity)
            return (identity, waiting)
        }
        for caller in waiting { caller.resume(returning: answer) }
        return answer
    }

    /// Stores a new blob (replacing a corrupt one) and returns it.
    @discardableResult
    package func put(_ data: Data, key: Digest, sha256: Digest? = nil) throws -> BlobFile {
        let (record, stamp) = try store.put(data, key: key, sha256: sha256)
        books.withLock { books in
            books.fresh.update(key) { $0.stamp = record }   // `checked` answers for it from now on
            books.mark(key, at: records.index(of: key), stamp.identity)
        }
        return BlobFile(path: store.path(key), identity: stamp.identity)
    }

    /// The record of a blob this build found intact or stored.
    package func record(_ key: Digest) -> BlobRecord? {
        books.withLock { books in
            let index = records.index(of: key)
            guard case .some(.some) = books.state(key, at: index),
                  let stamp = books.fresh[key]?.stamp ?? index.map({ records.values[$0] }) else { return nil }
            return BlobRecord(key: key, kind: store.kind, size: stamp.size, modified: stamp.modified, sha256: stamp.sha256)
        }
    }

    /// Blobs stored or re-checked during this build, for the state.
    package var changedRecords: [BlobRecord] {
        books.withLock { books in
            books.fresh.entries.compactMap { entry in
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
        books.withLock { books in
            for key in keys {
                if books.fresh.index(of: key) != nil { books.fresh.update(key) { $0.stamp = nil } }
                books.mark(key, at: records.index(of: key), nil)
            }
        }
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
