import Foundation
import GRDB
import GalleryModel

/// The rows a build writes to `photo`, streamed into `pending_photo` while its photos are published
/// (`PhotoRows`), the records of the pages it stages, streamed into `pending_page` (`PagePublisher`),
/// and the records of the blobs it stores or re-checks, carried back in those photos' and pages'
/// outcomes and streamed with them into `pending_blob`, so that no build holds every photo's row and
/// metadata text, every page's keys or every new blob's record until its state step. Only that
/// step's transaction (`save`) moves them into `photo`, `page` and `blob`: a build that fails
/// or is killed before it leaves the state describing the site that is still published, and the next
/// build clears what it left (`clearPending`).
///
/// Rows are keyed by the photo's manifest position. A row without metadata is a photo whose row is
/// the same but for its position: only its position is written.
extension StateDatabase {
    /// One row to write: a new or changed photo with its metadata as canonical JSON
    /// (`Photo.canonicalJSON`), or a moved one without.
    package struct PendingPhoto: Sendable {
        package var row: PhotoState
        package var metadata: String?

        package init(row: PhotoState, metadata: String? = nil) {
            self.row = row
            self.metadata = metadata
        }
    }

    /// Forgets the rows, pages and blob records of a build that did not reach its state step.
    package func clearPending() async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM pending_photo; DELETE FROM pending_page; DELETE FROM pending_blob")
        }
    }

    /// Adds rows, and the records of the blobs their photos stored or re-checked, in one
    /// transaction, on the database's own queue while the calling task is suspended.
    package func addPendingRows(_ rows: [PendingPhoto], blobs: [BlobRecord] = []) async throws {
        guard !rows.isEmpty || !blobs.isEmpty else { return }
        try await queue.write { db in
            try Self.addPending(blobs, in: db)
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO pending_photo (\(Self.rowColumns), metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for pending in rows {
                let state = pending.row
                try insert.execute(arguments: [
                    state.id, state.position, state.metadataHash.hex, state.location, state.etag,
                    state.lastModified, state.fileSize, state.fileModified, state.contentHash.hex,
                    state.blobKeys.map(\.hex).joined(separator: " "), state.thumbnailKey.hex,
                    pending.metadata
                ])
            }
        }
    }

    /// Moves the pending rows into `photo` as rows of `source`, and clears them; within `save`'s transaction.
    static func applyPending(source: String, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO photo (source, \(rowColumns), metadata)
                    SELECT ?, \(rowColumns), metadata FROM pending_photo WHERE metadata IS NOT NULL ORDER BY position;
                UPDATE photo SET position = pending.position FROM pending_photo AS pending
                    WHERE pending.metadata IS NULL AND photo.source = ? AND photo.id = pending.id;
                DELETE FROM pending_photo;
                """, arguments: [source, source])
    }

    /// Adds the records of staged pages, and of the page blobs stored or re-checked for them, in
    /// one transaction, on the database's own queue while the calling task is suspended.
    package func addPendingPages(_ pages: [(path: String, record: PageRecord)], blobs: [BlobRecord] = []) async throws {
        guard !pages.isEmpty || !blobs.isEmpty else { return }
        try await queue.write { db in
            try Self.addPending(blobs, in: db)
            let insert = try db.cachedStatement(
                sql: "INSERT OR REPLACE INTO pending_page (path, key, inputs) VALUES (?, ?, ?)")
            for (path, record) in pages {
                try insert.execute(arguments: [path, record.key.hex, record.inputs?.hex ?? ""])
            }
        }
    }

    /// The cached pages of the last build that no staged page uses: what the state step deletes.
    package func unusedPageKeys() async throws -> [Digest] {
        try await queue.read { db in
            let keys = try Row.fetchCursor(
                db,
                sql: """
                    SELECT DISTINCT key FROM page WHERE key NOT IN (SELECT key FROM pending_page) ORDER BY key
                    """)
            var unused: [Digest] = []
            while let row = try keys.next() {
                if let key = try Self.digest(row, 0) { unused.append(key) }
            }
            return unused
        }
    }

    /// Replaces the last build's pages with the staged ones, and clears them; within `save`'s
    /// transaction. Only pages whose keys changed are rewritten.
    static func applyPendingPages(in db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM page WHERE path NOT IN (SELECT path FROM pending_page);
                INSERT INTO page (path, key, inputs) SELECT path, key, inputs FROM pending_page WHERE true
                    ON CONFLICT (path) DO UPDATE SET key = excluded.key, inputs = excluded.inputs
                    WHERE key <> excluded.key OR inputs <> excluded.inputs;
                DELETE FROM pending_page;
                """)
    }

    /// Moves the pending blob records into `blob`, and clears them; within `save`'s transaction,
    /// before the blobs the build deleted are forgotten.
    static func applyPendingBlobs(in db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO blob (key, kind, size, modified, sha256)
                    SELECT key, kind, size, modified, sha256 FROM pending_blob ORDER BY key;
                DELETE FROM pending_blob;
                """)
    }

    /// Writes blob records into `pending_blob`; a key written twice keeps its last record.
    private static func addPending(_ blobs: [BlobRecord], in db: Database) throws {
        guard !blobs.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO pending_blob (key, kind, size, modified, sha256) VALUES (?, ?, ?, ?, ?)")
        for record in blobs {
            try insert.execute(arguments: [record.key.hex, record.kind, record.size, record.modified, record.sha256.hex]
            )
        }
    }

    /// The columns of a photo's row that `photoState` reads, in its order.
    static let rowColumns = """
        id, position, metadataHash, location, etag, lastModified, fileSize, fileModified, contentHash, blobKeys, thumbnailKey
        """

    /// A row of `rowColumns` as a photo's state; nil when one of its keys is not a key.
    static func photoState(_ row: Row) throws -> PhotoState? {
        guard let metadataHash = try digest(row, 2), let contentHash = try digest(row, 8),
            let thumbnailKey = try digest(row, 10), let blobKeys = try digests(row, 9)
        else { return nil }
        return PhotoState(
            id: row[0], position: row[1], metadataHash: metadataHash, location: row[3], etag: row[4],
            lastModified: row[5], fileSize: row[6], fileModified: row[7], contentHash: contentHash,
            blobKeys: blobKeys, thumbnailKey: thumbnailKey)
    }
}
