import Foundation
import GalleryStore

/// Where the `images` step puts the state rows of the photos it publishes, as they finish.
///
/// A full build sends the rows it must write (new and changed photos with their metadata text,
/// moved ones with their new position) to the state's pending table in batches of `batchSize`,
/// each one short transaction, and the state step applies them (`StateDatabase.applyPending`); an
/// unchanged photo's row is the snapshot's and goes nowhere. All that stays in memory is a
/// `PublishedRow` per photo: 12 bytes, not the row, its keys and its metadata text (about 850 bytes
/// a photo, 850 MB for a million). Without a state database (an images-only build) every row is
/// kept instead, for the cache's learnt file.
package struct PhotoRows {
    /// The last build's rows.
    package let snapshot: PhotoTable
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

    package init(snapshot: PhotoTable, database: StateDatabase?) {
        self.snapshot = snapshot
        self.database = database
    }

    /// Sends the row of the photo at `position`, and the records of the blobs it stored or
    /// re-checked, where they belong, and returns what the build keeps of it. When a batch is
    /// full, the caller writes it (`isFull`, `flush`).
    package mutating func add(_ published: PhotoPublisher.Published, position: Int) -> PhotoPublisher.PublishedRow {
        let prior = snapshot.row(of: published.row.id)
        let compact = PhotoPublisher.PublishedRow(position: Int32(position), prior: Int32(prior ?? -1), written: published.writeRow)
        guard database != nil else {
            kept.append(published.row)   // an images-only build's cache records its blobs (`SharedCache.write`)
            return compact
        }
        blobs += published.learnt.blobs
        if published.writeRow {
            batch.append(StateDatabase.PendingPhoto(row: published.row, metadata: published.metadata))
        } else if let prior, snapshot.values[prior].position != position {
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

    /// Calls `body` with the state row of each published photo, in manifest order: the pending
    /// table's for the photos whose row was written (read back with a cursor), the snapshot's for
    /// the others (with the last build's position; only the position of such a row can differ).
    /// - Parameter published: What the build kept of the photos (`PhotoPublisher.Outcome.published`), in manifest order.
    /// - Throws: `StoreError` when the pending rows are not the ones `published` says were written.
    package static func forEach(_ published: [PhotoPublisher.PublishedRow], snapshot: PhotoTable, database: StateDatabase,
                        _ body: (PhotoState) throws -> Void) async throws {
        var next = 0
        func fromSnapshot() throws {
            while next < published.count, !published[next].written {
                try body(snapshot.values[Int(published[next].prior)])
                next += 1
            }
        }
        try await database.forEachPendingRow { row in
            try fromSnapshot()
            guard next < published.count, Int(published[next].position) == row.position else {
                throw StoreError(.damaged, "\(database.file.path): pending row \(row.id) at \(row.position) is not one this build wrote")
            }
            try body(row)
            next += 1
        }
        try fromSnapshot()
        guard next == published.count else {
            throw StoreError(.damaged, "\(database.file.path): \(published.count - next) of this build's pending rows are missing")
        }
    }
}
