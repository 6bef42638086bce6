import Foundation
import GalleryModel
import NIOConcurrencyHelpers

/// The state as one build sees and extends it: the snapshot it started from, the blob caches, and
/// the facts learnt on the way. Injected into the `images` and `pages` steps, which look things up
/// in it; what photos learn comes back in their outcomes and is taken in by the one task that
/// gathers them (`learn`). Thread-safe.
///
/// Reads and writes of many rows go through GRDB's async access (the caller suspended, the work on
/// the database's queue): prefetched facts, learnt batches. The point lookups of one photo or page
/// (`facts`, `placeholder`, `placeholderURI`) stay synchronous: each is one indexed read of a few
/// microseconds, and a hop to the database's queue per photo would cost more than the read.
package final class BuildState: Sendable {
    package let snapshot: StateSnapshot
    /// The last build's photo rows, read a window at a time (`prefetchPriors`).
    package let priors: PriorPhotos
    /// False for `build --rebuild`: nothing cached by earlier builds is reused.
    package let reuse: Bool
    /// Derivatives and published originals.
    package let images: BlobCache
    /// Rendered pages.
    package let pages: BlobCache
    /// Where learnt facts and placeholders go as they are learnt, and the rows of published photos
    /// (`PhotoRows`); nil keeps them in memory (tests, images-only builds, which write them to the
    /// cache's learnt file instead).
    package let database: StateDatabase?
    /// What images-only builds left in the cache (`SharedCache`), less the blob records `images` holds.
    package let shared: SharedLearnt
    private let books = NIOLockedValueBox(Books())
    static let recentFacts = 1024
    /// Learnt items written per transaction.
    package static let batchSize = 256

    /// What this build learnt and read, kept under one lock.
    private struct Books {
        /// Facts learnt by this build. Once written to the database they are dropped (and read back
        /// when asked for), unless there is no database or this build may not read the state (`--rebuild`).
        var originals: [Digest: OriginalFacts] = [:]
        /// Facts read from the database lately (`prefetchFacts`, or one by one), for the photos about to
        /// be planned and for photos that share an original (a site of 100,000 photos over 100 images
        /// asked for the same 100 rows a thousand times each): the last `recentFacts` to twice as many.
        var recentlyRead: [Digest: OriginalFacts] = [:]
        var readBefore: [Digest: OriginalFacts] = [:]
        /// Placeholders learnt by this build and not written yet (with `--rebuild`, all of them, without
        /// the data URIs of those written).
        var placeholders: [Digest: Placeholder] = [:]
        /// Learnt but not written yet.
        var pending:
            (originals: [(hash: Digest, facts: OriginalFacts)], placeholders: [(key: Digest, value: Placeholder)]) = (
                [], []
            )
        /// The first failure to write or read learnt items; the build stops on it (`check`).
        var failure: Error?

        /// Facts learnt by this build and not written yet, or read from the database lately.
        func atHand(_ hash: Digest) -> OriginalFacts? {
            originals[hash] ?? recentlyRead[hash] ?? readBefore[hash]
        }

        /// Keeps facts read from the database, dropping the older half of the reads when full.
        mutating func read(_ facts: OriginalFacts, _ hash: Digest) {
            if recentlyRead.count >= BuildState.recentFacts { (readBefore, recentlyRead) = (recentlyRead, [:]) }
            recentlyRead[hash] = facts
        }

        mutating func keep(_ error: Error) {
            if failure == nil { failure = error }
        }
    }

    /// Where the caches live inside the cache folder (`SiteConfig.cacheDirectory`).
    package static func imagesFolder(cache: URL) -> URL { cache.appendingPathComponent("images") }
    package static func pagesFolder(cache: URL) -> URL { cache.appendingPathComponent("pages") }
    package static func originalsFolder(cache: URL) -> URL { cache.appendingPathComponent("originals") }

    /// - Parameters:
    ///   - blobs: The blob records, taken out of the snapshot (`StateSnapshot.takeBlobs`).
    ///   - cache: The cache folder.
    ///   - shared: What images-only builds learnt (`SharedCache.load`); used when the state knows nothing.
    ///   - database: Where learnt facts and placeholders are written as they are learnt.
    package init(
        snapshot: StateSnapshot, blobs: (images: DigestTable<BlobStamp>, pages: DigestTable<BlobStamp>), cache: URL,
        shared: SharedLearnt = SharedLearnt(), reuse: Bool, database: StateDatabase? = nil
    ) {
        self.snapshot = snapshot
        self.database = database
        priors = PriorPhotos(source: snapshot.source, database: database)
        self.reuse = reuse
        var shared = shared
        let learntBlobs = shared.blobs
        shared.blobs = [:]
        self.shared = shared
        images = BlobCache(
            store: BlobStore(folder: Self.imagesFolder(cache: cache), kind: "images"), records: blobs.images,
            shared: learntBlobs, reuse: reuse)
        pages = BlobCache(
            store: BlobStore(folder: Self.pagesFolder(cache: cache), kind: "pages"), records: blobs.pages, reuse: reuse)
    }

    /// The photo as the last build left it, if it was in the manifest. A failed read is kept for
    /// `check`, and the photo is taken for a new one.
    package func prior(_ id: String) -> PhotoState? {
        do {
            return try priors.row(id)?.state
        } catch {
            keep(error)
            return nil
        }
    }

    /// Reads the last build's rows of a window of photos about to be planned with one query. A
    /// failed read is kept for `check`.
    package func prefetchPriors(_ ids: [String]) async {
        do { try await priors.prefetch(ids) } catch { keep(error) }
    }

    /// The original at a photo's location as the last build (its row, `prior`) and an images-only
    /// build (`shared`) knew it, in that order; none with `--rebuild`.
    package func knownOriginals(_ photo: Photo, prior: PhotoState?) -> [KnownOriginal] {
        guard reuse else { return [] }
        let location = photo.image.description
        return [prior?.knownOriginal, shared.originals[location]].compactMap { $0 }.filter { $0.location == location }
    }

    /// Header facts of an original, by content hash: learnt by this build, else from the state
    /// database, else learnt by an images-only build (`Found.isNew`: the photo that uses them
    /// carries them back as learnt, `Learnt.facts`). A failed read is kept for `check`.
    package func facts(_ hash: Digest) -> Found<OriginalFacts>? {
        if let known = books.withLockedValue({ $0.atHand(hash) }) { return Found(known) }
        guard reuse else { return nil }
        do {
            if let stored = try database?.facts(hash) {
                books.withLockedValue { $0.read(stored, hash) }
                return Found(stored)
            }
        } catch {
            keep(error)
        }
        return shared.facts[hash].map { Found($0, isNew: true) }
    }

    /// Reads the facts of the originals a window of photos is about to ask for (`facts`) with one
    /// query: a point query per photo cost a no-op build 5 % of its time. Those already at hand are
    /// not read again. A failed read is kept for `check`.
    package func prefetchFacts(_ hashes: [Digest]) async {
        guard reuse, let database else { return }
        let wanted = books.withLockedValue { learnt in hashes.filter { learnt.atHand($0) == nil } }
        guard !wanted.isEmpty else { return }
        do {
            let found = try await database.facts(Array(Set(wanted)))
            books.withLockedValue { learnt in for (hash, facts) in found { learnt.read(facts, hash) } }
        } catch {
            keep(error)
        }
    }

    /// A placeholder, by the key of the thumbnail pixels it was made from: learnt by this build and
    /// not written yet, else the state's, else an images-only build's (`Found.isNew`). Its
    /// `dataURI` is empty once it is in the database; pages ask `placeholderURI` for it.
    package func placeholder(_ key: Digest) -> Found<Placeholder>? {
        if let known = books.withLockedValue({ $0.placeholders[key] }) ?? (reuse ? snapshot.placeholders[key] : nil) {
            return Found(known)
        }
        guard reuse else { return nil }
        do {
            if let stored = try database?.placeholder(key) { return Found(stored) }
        } catch {
            keep(error)
        }
        return shared.placeholders[key].map { Found($0, isNew: true) }
    }

    /// Takes in the facts and placeholder a photo's work learnt (its blob records go with its row,
    /// `PhotoRows`): from now on they are at hand for the photos after it, and they wait to be
    /// written. Called by the one task that gathers the photos' outcomes; an item already at hand
    /// (another photo carried it) is not written twice.
    /// - Returns: Whether a batch is full, so the caller writes it (`flush`).
    package func learn(_ learnt: Learnt) -> Bool {
        guard learnt.facts != nil || learnt.placeholder != nil else { return false }
        return books.withLockedValue { books in
            if let (hash, facts) = learnt.facts, books.atHand(hash) != facts {
                books.originals[hash] = facts
                books.pending.originals.append((hash, facts))
            }
            if let (key, placeholder) = learnt.placeholder, books.placeholders[key] != placeholder {
                books.placeholders[key] = placeholder
                books.pending.placeholders.append((key, placeholder))
            }
            return books.pending.originals.count + books.pending.placeholders.count >= Self.batchSize
        }
    }

    /// Writes what was learnt and not written yet (on the database's queue, the caller suspended),
    /// and keeps only the small part of each placeholder. A failure is kept for `check`, and the
    /// batch is written with the next.
    package func flush() async {
        guard let database else { return }
        let batch = books.withLockedValue {
            learnt -> (
                originals: [(hash: Digest, facts: OriginalFacts)], placeholders: [(key: Digest, value: Placeholder)]
            ) in
            defer { learnt.pending = ([], []) }
            return learnt.pending
        }
        do {
            try await database.saveLearnt(
                originals: batch.originals.sorted { $0.hash < $1.hash },
                placeholders: batch.placeholders.sorted { $0.key < $1.key })
            books.withLockedValue { learnt in
                // Written: dropped from memory and read back when asked for (a cold build of
                // 100,000 photos would otherwise hold them all), or with `--rebuild`, which may not
                // read the state, kept without their data URIs.
                for (key, value) in batch.placeholders where learnt.placeholders[key] == value {
                    if reuse { learnt.placeholders[key] = nil } else { learnt.placeholders[key]?.dataURI = "" }
                }
                if reuse {
                    for (hash, _) in batch.originals { learnt.originals[hash] = nil }
                }
            }
        } catch {
            books.withLockedValue { learnt in
                learnt.keep(error)
                learnt.pending.originals += batch.originals
                learnt.pending.placeholders += batch.placeholders
            }
        }
    }

    /// The `data:` URI of a placeholder: from memory while it is not written yet, else from the
    /// database. A failed read is kept for `check` and gives an empty URI.
    package func placeholderURI(_ key: Digest) -> String {
        if let uri = books.withLockedValue({ $0.placeholders[key]?.dataURI }), !uri.isEmpty { return uri }
        do {
            if let uri = try database?.placeholderURI(key) { return uri }
            throw StoreError(.damaged, "placeholder \(key) is not in the state database")
        } catch {
            keep(error)
            return ""
        }
    }

    /// Keeps the first failure to read the state, for `check`.
    private func keep(_ error: Error) {
        books.withLockedValue { $0.keep(error) }
    }

    /// Throws the first failure to write or read learnt items.
    package func check() throws {
        if let failure = books.withLockedValue({ $0.failure }) { throw failure }
    }

    /// Facts and placeholders learnt by this build that are not in the database yet (all of them
    /// when there is none), sorted so the state is written deterministically.
    package var learnt:
        (originals: [(hash: Digest, facts: OriginalFacts)], placeholders: [(key: Digest, value: Placeholder)])
    {
        books.withLockedValue {
            ($0.pending.originals.sorted { $0.hash < $1.hash }, $0.pending.placeholders.sorted { $0.key < $1.key })
        }
    }
}
