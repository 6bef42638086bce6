import Foundation
#if canImport(Glibc)
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

    public init(folder: URL, kind: String) {
        self.folder = folder
        self.kind = kind
    }

    /// Where the blob for `key` lives.
    public func url(_ key: String) -> URL {
        folder.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key)
    }

    /// Stores bytes under a key and returns the record to keep in the state.
    /// - Throws: `StoreError` naming the file (a full disk says so).
    func put(_ data: Data, key: String) throws -> BlobRecord {
        let target = url(key)
        do {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target, options: .atomic)
        } catch {
            throw StoreError.writing(target.path, error)
        }
        guard let stamp = FileStamp.of(target.path) else { throw StoreError("\(target.path): vanished right after it was written") }
        return BlobRecord(key: key, kind: kind, size: stamp.size, modified: stamp.modified, sha256: CacheKey.sha256(data))
    }

    enum Check: Equatable {
        /// Size and modification time match the record.
        case intact
        /// The modification time changed but the bytes still hash to the record's SHA-256.
        case rehashed(BlobRecord)
        /// Missing, a different size, or different bytes: a miss.
        case bad
    }

    /// Whether the blob on disk is still the one recorded.
    func check(_ record: BlobRecord) -> Check {
        let path = url(record.key).path
        guard let stamp = FileStamp.of(path), stamp.size == record.size else { return .bad }
        if stamp.modified == record.modified { return .intact }
        guard let data = FileManager.default.contents(atPath: path), CacheKey.sha256(data) == record.sha256 else { return .bad }
        var updated = record
        updated.modified = stamp.modified
        return .rehashed(updated)
    }
}

/// One build's view of a blob store: which blobs are known to be intact, and which this build stored.
///
/// Thread-safe; photos and pages are published in parallel. Each blob is checked at most once per build.
final class BlobCache: @unchecked Sendable {
    let store: BlobStore
    private let reuse: Bool
    private let lock = NSLock()
    private var records: [String: BlobRecord]
    private var checked: [String: Bool] = [:]
    private var updates: [String: BlobRecord] = [:]

    /// - Parameters:
    ///   - records: The blobs the state knows of this kind.
    ///   - reuse: False (`build --force`) treats every blob not stored by this build as a miss.
    init(store: BlobStore, records: [String: BlobRecord], reuse: Bool) {
        self.store = store
        self.records = records
        self.reuse = reuse
    }

    /// Whether the blob for `key` can be linked as it is. A missing or corrupt blob is a miss.
    func isIntact(_ key: String) -> Bool {
        lock.lock()
        if let known = checked[key] {
            lock.unlock()
            return known
        }
        let record = records[key]
        lock.unlock()
        var intact = false
        if reuse, let record {
            switch store.check(record) {
            case .intact: intact = true
            case .rehashed(let updated):
                intact = true
                lock.withLock { updates[key] = updated }
            case .bad: intact = false
            }
        }
        lock.withLock { checked[key] = intact }
        return intact
    }

    /// Stores a new blob (replacing a corrupt one) and marks it intact.
    func put(_ data: Data, key: String) throws {
        let record = try store.put(data, key: key)
        lock.withLock {
            records[key] = record
            updates[key] = record
            checked[key] = true
        }
    }

    /// The file to link into the site.
    func url(_ key: String) -> URL { store.url(key) }

    /// Blobs stored or re-checked during this build, for the state.
    var changedRecords: [BlobRecord] {
        lock.withLock { updates.values.sorted { $0.key < $1.key } }
    }

    /// Deletes blobs nothing refers to any more (their photos were removed).
    func remove(_ keys: [String]) {
        for key in keys {
            try? FileManager.default.removeItem(at: store.url(key))
        }
        lock.withLock {
            for key in keys {
                records[key] = nil
                updates[key] = nil
                checked[key] = false
            }
        }
    }
}

/// A file's size and modification time, read with one `stat` call.
struct FileStamp: Equatable {
    var size: Int
    /// Nanoseconds since 1970.
    var modified: Int

    /// The stamp of a regular file, or nil when there is none at `path`.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG) else { return nil }
        #if os(Linux)
        let time = info.st_mtim
        #else
        let time = info.st_mtimespec
        #endif
        return FileStamp(size: Int(info.st_size), modified: Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec))
    }
}

extension StoreError {
    /// A failed write in the state folder, with what to do about it.
    static func writing(_ path: String, _ error: Error) -> StoreError {
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
