import Foundation
import GalleryStore

/// Where the `images` step puts the state rows of the photos it publishes, as they finish.
///
/// A full build sends the rows it must write (new and changed photos with their metadata text,
/// moved ones with their new position) to the state's pending table in batches of `batchSize`,
/// each one short transaction, and the state step applies them (`StateDatabase.applyPending`); an
/// unchanged photo's row is the state's and goes nowhere. All that stays in memory is a
/// `PublishedRow` per photo: 16 bytes, not the row, its keys and its metadata text (about 850 bytes
/// a photo, 850 MB for a million). Without a state database (an images-only build) every row is
/// kept instead, for the cache's learnt file.
package struct PhotoRows {
    /// The last build's rows, read a window at a time.
    package let priors: PriorPhotos
    package let database: StateDatabase?
    private var batch: [StateDatabase.PendingPhoto] = []
    /// Records of the blobs the photos of `batch` stored or re-checked (`Learnt.blobs`).
    private var blobs: [BlobRecord] = []
    /// Every published photo's row, when there is no database; in the order they finished.
    package private(set) var kept: [PhotoState] = []
    /// The first failure to write a batch; nothing more is written after it, and the build stops on it.
    package private(set) var failure: (any Error)?

    /// Rows written per transaction.
    package static let batchSize = 512

    package init(priors: PriorPhotos, database: StateDatabase?) {
        self.priors = priors
        self.database = database
    }

    /// Sends the row of the photo at `position`, and the records of the blobs it stored or
    /// re-checked, where they belong, and returns what the build keeps of it. When a batch is
    /// full, the caller writes it (`isFull`, `flush`).
    package mutating func add(_ published: PhotoPublisher.Published, position: Int) -> PhotoPublisher.PublishedRow {
        var prior: StateDatabase.PriorRow?
        do { prior = try priors.row(published.row.id) } catch { failure = failure ?? error }
        let compact = PhotoPublisher.PublishedRow(
            prior: prior?.rowid ?? -1, position: Int32(position), written: published.writeRow)
        guard database != nil else {
            kept.append(published.row)  // an images-only build's cache records its blobs (`SharedCache.write`)
            return compact
        }
        blobs += published.learnt.blobs
        if published.writeRow {
            batch.append(StateDatabase.PendingPhoto(row: published.row, metadata: published.metadata))
        } else if let prior, prior.state.position != position {
            batch.append(StateDatabase.PendingPhoto(row: published.row, metadata: nil))
        }
        return compact
    }

    /// Whether a batch is waiting to be written.
    package var isFull: Bool { batch.count >= Self.batchSize || blobs.count >= 4 * Self.batchSize }

    /// Writes the rows and blob records not written yet, on the database's queue while the caller is suspended.
    package mutating func flush() async {
        defer {
            batch.removeAll(keepingCapacity: true)
            blobs.removeAll(keepingCapacity: true)
        }
        guard let database, failure == nil else { return }
        do {
            try await database.addPendingRows(batch, blobs: blobs)
        } catch {
            failure = error
        }
    }

    /// Calls `body` with the state row of each published photo, in manifest order, reading
    /// `window` photos' rows at a time: the pending table's for the photos whose row was written,
    /// the state's for the others (with the last build's position; only the position of such a row
    /// can differ).
    /// - Parameter published: What the build kept of the photos (`PhotoPublisher.Outcome.published`), in manifest order.
    /// - Throws: `StoreError` when the pending rows are not the ones `published` says were written.
    package static func forEach(
        _ published: [PhotoPublisher.PublishedRow], database: StateDatabase, window: Int = 4096,
        _ body: (PhotoState) throws -> Void
    ) async throws {
        for start in stride(from: 0, to: published.count, by: window) {
            let part = published[start..<min(start + window, published.count)]
            let priors = try await database.priorRows(rowids: part.filter { !$0.written }.map(\.prior))
            let written = part.filter(\.written)
            let pending =
                if let first = written.first, let last = written.last {
                    try await database.pendingRows(positions: Int(first.position)...Int(last.position))
                } else { [PhotoState]() }
            var next = 0
            for photo in part {
                if photo.written {
                    guard next < pending.count, pending[next].position == Int(photo.position) else {
                        throw StoreError(
                            .damaged,
                            "\(database.file.path): the pending row at \(photo.position) is missing or not one this build wrote"
                        )
                    }
                    try body(pending[next])
                    next += 1
                } else {
                    guard let row = priors[photo.prior] else {
                        throw StoreError(
                            .damaged, "\(database.file.path): the row \(photo.prior) of the last build is missing")
                    }
                    try body(row)
                }
            }
            guard next == pending.count else {
                throw StoreError(
                    .damaged,
                    "\(database.file.path): pending row \(pending[next].id) at \(pending[next].position) is not one this build wrote"
                )
            }
        }
    }
}
