import Foundation
import GalleryKeys
import GalleryModel
import NIOConcurrencyHelpers

/// One build's view of a blob store: which blobs are known to be intact, and which this build stored.
///
/// It is a lookup service, not a channel to the state: a blob's new record (stored, re-hashed or
/// adopted) is handed to the work that uses it (`BlobFile.record`), which carries it back in its
/// outcome for the state step to write.
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
    private let books: NIOLockedValueBox<Books>

    /// What this build found and stored, kept under one lock.
    private struct Books {
        /// Blobs of `records` checked this build, by the record's place: the intact file's identity,
        /// or nil for a miss. (Paths are made when asked for.)
        var checked: [FileIdentity??]
        /// New records, and what was checked of keys the state does not know.
        var fresh = FreshBlobs()
        /// Blobs being checked now, with the callers waiting for the answer.
        var checking: [Digest: [CheckedContinuation<Answer, Never>]] = [:]
        /// Blob files looked at (`BlobStore.check`) this build.
        var checks = 0

        /// What this build found of a blob: nil when it was not checked yet, else the intact file's
        /// identity or nil for a miss.
        func state(_ key: Digest, at index: Int?) -> FileIdentity?? {
            if let index { return checked[index] }
            return fresh[key]?.checked  // nil: no entry, or not checked yet
        }

        /// What this build found of a blob, with its new record when the file is intact and this
        /// build stored, re-hashed or adopted it and the state's pending records do not have it yet;
        /// nil when it was not checked yet.
        func answer(_ key: Digest, at index: Int?) -> Answer? {
            guard let identity = state(key, at: index) else { return nil }
            guard identity != nil, !fresh.entries.isEmpty, let entry = fresh[key], !entry.recorded else {
                return Answer(identity: identity)
            }
            return Answer(identity: identity, newStamp: entry.stamp)
        }

        /// Records what this build found of a blob.
        mutating func mark(_ key: Digest, at index: Int?, _ identity: FileIdentity?) {
            if let index {
                checked[index] = .some(identity)
            } else {
                fresh.update(key) { $0.checked = .some(identity) }
            }
        }
    }

    /// - Parameters:
    ///   - records: The blobs the state knows of this kind.
    ///   - shared: Blobs other builds recorded in the cache's learnt files.
    ///   - reuse: False (`build --rebuild`) treats every blob not stored by this build as a miss.
    package init(store: BlobStore, records: DigestTable<BlobStamp>, shared: [Digest: BlobStamp] = [:], reuse: Bool) {
        self.store = store
        self.records = records
        books = NIOLockedValueBox(Books(checked: Array(repeating: nil, count: records.count)))
        self.shared = shared
        self.reuse = reuse
    }

    /// How many blob files this build looked at: one per blob at most.
    package var checks: Int { books.withLockedValue { $0.checks } }

    /// Whether the blob for `key` can be linked as it is. A missing or corrupt blob is a miss.
    /// (Its new record, if any, is left for `file`, which the caller asks when it links the blob.)
    package func isIntact(_ key: Digest) async -> Bool { await file(key) != nil }

    /// The state's record of a blob, without looking at its file, for `StagedWriter.holds`: nil with
    /// `--rebuild`, for a key the state does not know, or one this build found missing or corrupt.
    package func stamp(_ key: Digest) -> BlobStamp? {
        guard reuse else { return nil }
        let index = records.index(of: key)
        return books.withLockedValue { books in
            if case .some(.none) = books.state(key, at: index) { return nil }
            return books.fresh[key]?.stamp ?? index.map { records.values[$0] }
        }
    }

    /// What a check found: the intact file's identity (nil for a miss), and the blob's new record
    /// when the state lacks it.
    private struct Answer: Sendable {
        var identity: FileIdentity?
        var newStamp: BlobStamp?
    }

    /// What a caller is to do about a blob: use what is known, wait for another caller's check, or check it.
    private enum Lookup {
        case known(Answer)
        case beingChecked
        case check
    }

    /// The blob for `key` when it can be linked as it is; nil for a missing or corrupt blob.
    ///
    /// While another task checks the blob, this waits for its answer (suspended, not blocking).
    package func file(_ key: Digest) async -> BlobFile? {
        let index = records.index(of: key)
        switch lookup(key, at: index) {
        case .known(let answer):
            return blobFile(key, answer)
        case .check:
            return blobFile(key, check(key, at: index))
        case .beingChecked:
            let answer = await withCheckedContinuation { (waiter: CheckedContinuation<Answer, Never>) in
                let known = books.withLockedValue { books -> Answer? in
                    guard books.checking[key] == nil else {
                        books.checking[key]?.append(waiter)
                        return nil
                    }
                    return books.answer(key, at: index) ?? Answer()  // the check ended meanwhile
                }
                if let known { waiter.resume(returning: known) }
            }
            return blobFile(key, answer)
        }
    }

    /// As `file`, for a caller that cannot wait (it is not async): while another task checks the
    /// blob, nil, as for a miss, so the caller stores its bytes again, which is as correct, only
    /// slower. The blob is still checked at most once.
    package func fileWithoutWaiting(_ key: Digest) -> BlobFile? {
        let index = records.index(of: key)
        switch lookup(key, at: index) {
        case .known(let answer): return blobFile(key, answer)
        case .check: return blobFile(key, check(key, at: index))
        case .beingChecked: return nil
        }
    }

    private func blobFile(_ key: Digest, _ answer: Answer) -> BlobFile? {
        answer.identity.map {
            BlobFile(path: store.path(key), identity: $0, record: answer.newStamp.map { record(key, $0) })
        }
    }

    private func record(_ key: Digest, _ stamp: BlobStamp) -> BlobRecord {
        BlobRecord(key: key, kind: store.kind, size: stamp.size, modified: stamp.modified, sha256: stamp.sha256)
    }

    /// What is known of a blob; when nothing is and nobody checks it, marks it as being checked by the caller.
    private func lookup(_ key: Digest, at index: Int?) -> Lookup {
        books.withLockedValue { books in
            if let known = books.answer(key, at: index) { return .known(known) }
            if books.checking[key] != nil { return .beingChecked }
            books.checking[key] = []
            return .check
        }
    }

    /// Checks a blob `lookup` marked as being checked by this caller (the file is looked at outside
    /// the lock), records the answer, and hands it to the callers that waited for it.
    private func check(_ key: Digest, at index: Int?) -> Answer {
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
        let (answer, waiting) = books.withLockedValue { books -> (Answer, [CheckedContinuation<Answer, Never>]) in
            let waiting = books.checking.removeValue(forKey: key) ?? []
            if looked { books.checks += 1 }
            // Stored (or removed) by this build while it was checked: that answer stands.
            if let settled = books.answer(key, at: index) { return (settled, waiting) }
            if let newStamp { books.fresh.update(key) { $0.stamp = newStamp } }
            books.mark(key, at: index, identity)
            return (Answer(identity: identity, newStamp: identity == nil ? nil : newStamp), waiting)
        }
        for caller in waiting { caller.resume(returning: answer) }
        return answer
    }

    /// Stores a new blob (replacing a corrupt one) and returns it, with the record the state must
    /// learn (`BlobFile.record`).
    package func put(_ data: Data, key: Digest, sha256: Digest? = nil) throws -> BlobFile {
        let (record, stamp) = try store.put(data, key: key, sha256: sha256)
        return stored(key, record, stamp)
    }

    /// Stores a finished file under a key by moving it in (`BlobStore.adopt`), as `put` stores bytes.
    package func adopt(_ file: String, key: Digest) throws -> BlobFile {
        let (record, stamp) = try store.adopt(file, key: key)
        return stored(key, record, stamp)
    }

    /// Notes a blob this build just stored, and returns it with the record the state must learn.
    private func stored(_ key: Digest, _ record: BlobStamp, _ stamp: FileStamp) -> BlobFile {
        books.withLockedValue { books in
            books.fresh.update(key) {
                $0.stamp = record  // `checked` answers for it from now on
                $0.recorded = false
            }
            books.mark(key, at: records.index(of: key), stamp.identity)
        }
        return BlobFile(path: store.path(key), identity: stamp.identity, record: self.record(key, record))
    }

    /// The record of a blob this build found intact or stored.
    package func record(_ key: Digest) -> BlobRecord? {
        books.withLockedValue { books in
            let index = records.index(of: key)
            guard case .some(.some) = books.state(key, at: index),
                let stamp = books.fresh[key]?.stamp ?? index.map({ records.values[$0] })
            else { return nil }
            return self.record(key, stamp)
        }
    }

    /// Notes that the state's pending records have these blobs' new records (`BlobFile.record`),
    /// so the work that uses them from now on carries none. Until then every user carries the
    /// record, so it reaches the state even when the work that stored the blob fails later. A record
    /// older than the blob's current one (the blob was stored again since) leaves it to be carried.
    package func recorded(_ records: [BlobRecord]) {
        guard !records.isEmpty else { return }
        books.withLockedValue { books in
            for record in records {
                guard let index = books.fresh.index(of: record.key),
                    books.fresh.entries[index].stamp
                        == BlobStamp(size: record.size, modified: record.modified, sha256: record.sha256)
                else { continue }
                books.fresh.update(record.key) { $0.recorded = true }
            }
        }
    }

    /// Deletes blobs nothing refers to any more (their photos were removed).
    package func remove(_ keys: [Digest]) {
        for key in keys {
            try? FileManager.default.removeItem(at: store.url(key))
        }
        books.withLockedValue { books in
            for key in keys {
                if books.fresh.index(of: key) != nil { books.fresh.update(key) { $0.stamp = nil } }
                books.mark(key, at: records.index(of: key), nil)
            }
        }
    }
}
