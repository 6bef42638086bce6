import Foundation
import GRDB
import GalleryKeys
import GalleryModel

/// The build state: an SQLite database (GRDB, WAL mode) in the state folder.
///
/// It holds one row per photo keyed by (source, id), the header facts of every original by content
/// hash, placeholders by thumbnail key, a record of every cached blob, the key of every page of the
/// last build, and a short history of builds. It is only ever an accelerator: output is always
/// built in full from the manifest and the caches, so a lost or stale state costs time, never
/// correctness. Each build writes its changes in one transaction; the photo rows, page records and
/// blob records it streams while it runs wait in pending tables until then (`StateDatabase+Pending.swift`).
package final class StateDatabase: Sendable {
    package let file: URL
    package let queue: DatabaseQueue

    /// The database file inside a state folder.
    package static func file(in folder: URL) -> URL { folder.appendingPathComponent("state.sqlite") }

    /// Opens (creating and migrating) the state database in `folder`.
    ///
    /// A file that is not a database or is damaged is moved aside (`setAside`) and a fresh state
    /// is started, which only costs a full rebuild; `warn` is told where the file was kept. With
    /// `recover` false the damage is thrown instead, for a caller that must not lose the file's
    /// contents (`isDamage` tells it).
    /// - Throws: `StoreError` when the folder or the database cannot be created; with `recover`
    ///   false, SQLite's error for a damaged file.
    package static func open(
        folder: URL, warn: (String) -> Void = { _ in }, recover: Bool = true
    ) throws -> StateDatabase {
        do {
            try PrivateFolder.make(folder)
        } catch {
            throw StoreError(
                .unopenable,
                "\(folder.path): cannot create the state folder: \(error.localizedDescription); check the \"state\" key and the folder's permissions"
            )
        }
        let file = file(in: folder)
        do {
            return try StateDatabase(file: file)
        } catch  where isDamage(error) {
            guard recover else { throw error }
            warn(try setAside(file, damage: error))
            do {
                return try StateDatabase(file: file)
            } catch {
                throw StoreError(.unopenable, "\(file.path): cannot create the state database: \(error)")
            }
        } catch {
            throw StoreError(.unopenable, "\(file.path): cannot open the state database: \(error)")
        }
    }

    private init(file: URL) throws {
        // Made 0600 before SQLite opens it (its -wal and -shm files take the database's mode), and
        // an earlier galleryssg's 0644 file narrowed: it holds every caption and title.
        try PrivateFolder.makeFile(file.path)
        for path in [file.path, file.path + "-wal", file.path + "-shm"] {
            try PrivateFolder.restrict(path, to: PrivateFolder.fileMode)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(5)
        self.file = file
        queue = try DatabaseQueue(path: file.path, configuration: configuration)
        try Self.migrator.migrate(queue)
    }

    /// Versioned schema changes, applied in order; each runs once per database.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: photos, originals, placeholders, blobs, pages, builds") { db in
            try db.execute(
                sql: """
                    CREATE TABLE photo (
                        source TEXT NOT NULL, id TEXT NOT NULL, position INTEGER NOT NULL,
                        metadata TEXT NOT NULL, metadataHash TEXT NOT NULL, location TEXT NOT NULL,
                        etag TEXT, lastModified TEXT, fileSize INTEGER, fileModified INTEGER,
                        contentHash TEXT NOT NULL, blobKeys TEXT NOT NULL, thumbnailKey TEXT NOT NULL,
                        PRIMARY KEY (source, id));
                    CREATE TABLE original (
                        hash TEXT PRIMARY KEY, format TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
                        orientation INTEGER NOT NULL, make TEXT, model TEXT, lens TEXT, focalLength REAL, aperture REAL,
                        exposureTime REAL, iso INTEGER, takenAt TEXT, latitude REAL, longitude REAL);
                    CREATE TABLE placeholder (key TEXT PRIMARY KEY, averageColor TEXT NOT NULL, dataURI TEXT NOT NULL);
                    CREATE TABLE blob (
                        key TEXT PRIMARY KEY, kind TEXT NOT NULL, size INTEGER NOT NULL, modified INTEGER NOT NULL,
                        sha256 TEXT NOT NULL);
                    CREATE TABLE page (path TEXT PRIMARY KEY, key TEXT NOT NULL);
                    CREATE TABLE build (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, finishedAt TEXT NOT NULL, source TEXT NOT NULL,
                        counts TEXT NOT NULL);
                    """)
        }
        migrator.registerMigration("v2: pages keyed by their inputs") { db in
            try db.execute(sql: "ALTER TABLE page ADD COLUMN inputs TEXT NOT NULL DEFAULT ''")
        }
        migrator.registerMigration("v3: settings") { db in
            try db.execute(sql: "CREATE TABLE setting (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
        }
        migrator.registerMigration("v4: embedded metadata of originals") { db in
            // Facts learnt before v4 lack the title, caption and keywords written into the file;
            // dropping them makes the next build read each original's headers once more.
            try db.execute(
                sql: """
                    DELETE FROM original;
                    ALTER TABLE original ADD COLUMN embedded TEXT NOT NULL DEFAULT '';
                    """)
        }
        migrator.registerMigration("v5: decoder warnings with placeholders") { db in
            // One warning per line; '' for none. Pixels decoded before v5 gave no warnings that were kept,
            // so their placeholders go and the next build decodes those photos once more.
            try db.execute(
                sql: """
                    DELETE FROM placeholder;
                    ALTER TABLE placeholder ADD COLUMN warnings TEXT NOT NULL DEFAULT '';
                    """)
        }
        migrator.registerMigration("v6: rows pending until the build is saved") { db in
            // See StateDatabase+Pending.swift; metadata is NULL for a row that only moves.
            try db.execute(
                sql: """
                    CREATE TABLE pending_photo (
                        position INTEGER PRIMARY KEY, id TEXT NOT NULL, metadata TEXT, metadataHash TEXT NOT NULL,
                        location TEXT NOT NULL, etag TEXT, lastModified TEXT, fileSize INTEGER, fileModified INTEGER,
                        contentHash TEXT NOT NULL, blobKeys TEXT NOT NULL, thumbnailKey TEXT NOT NULL);
                    """)
        }
        migrator.registerMigration("v7: pages pending until the build is saved") { db in
            try db.execute(
                sql:
                    "CREATE TABLE pending_page (path TEXT PRIMARY KEY, key TEXT NOT NULL, inputs TEXT NOT NULL) WITHOUT ROWID"
            )
        }
        migrator.registerMigration("v8: blob records pending until the build is saved") { db in
            try db.execute(
                sql: """
                    CREATE TABLE pending_blob (
                        key TEXT PRIMARY KEY, kind TEXT NOT NULL, size INTEGER NOT NULL, modified INTEGER NOT NULL,
                        sha256 TEXT NOT NULL) WITHOUT ROWID
                    """)
        }
        migrator.registerMigration("v9: embedded metadata chosen by the MWG's rules") { db in
            // Facts learnt before v9 merged XMP over IPTC over EXIF and read no TIFF resources and
            // no GIF XMP; dropping them makes the next build read each original's headers once more.
            try db.execute(sql: "DELETE FROM original")
        }
        migrator.registerMigration("v10: the preview embedded in a camera raw file") { db in
            // Raw files were not read before v10, so no row is dropped: every other format has no preview.
            try db.execute(
                sql: """
                    ALTER TABLE original ADD COLUMN previewWidth INTEGER;
                    ALTER TABLE original ADD COLUMN previewHeight INTEGER;
                    """)
        }
        migrator.registerMigration("v11: what a video's container says") { db in
            // Videos were not read before v11, so no row is dropped: a NULL is a still.
            try db.execute(sql: "ALTER TABLE original ADD COLUMN video TEXT")
        }
        migrator.registerMigration("v12: the clip in a motion photo") { db in
            // JPEGs were not looked at for a motion photo's clip before v12, so their rows are
            // dropped: the next build reads their headers again.
            try db.execute(
                sql: """
                    ALTER TABLE original ADD COLUMN motionClip INTEGER;
                    DELETE FROM original WHERE format = 'jpeg';
                    """)
        }
        migrator.registerMigration("v13: the HDR gain map after a JPEG") { db in
            // JPEGs were not looked at for a gain map before v13: their rows go, as in v12.
            try db.execute(
                sql: """
                    ALTER TABLE original ADD COLUMN gainMapWidth INTEGER;
                    ALTER TABLE original ADD COLUMN gainMapHeight INTEGER;
                    DELETE FROM original WHERE format = 'jpeg';
                    """)
        }
        migrator.registerMigration("v14: clips that failed, broken motion photos") { db in
            // HEIC and AVIF were not looked at for a motion photo's clip before v14, nor JPEGs for
            // one their XMP announces but that is not there: rows without a clip go, as in v12.
            try db.execute(
                sql: """
                    CREATE TABLE clipFailure (
                        hash TEXT NOT NULL, tools TEXT NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL,
                        toolOutput TEXT, PRIMARY KEY (hash, tools));
                    ALTER TABLE original ADD COLUMN motionProblem TEXT;
                    DELETE FROM original WHERE format IN ('jpeg', 'heif', 'avif') AND motionClip IS NULL;
                    """)
        }
        return migrator
    }

    // MARK: Reading

    /// The whole state of `source`, its photo rows and page records included: for inspection and
    /// tests. A build loads less (`loadSnapshot`).
    ///
    /// Keys are stored as hex text and held as `Digest`s. A row whose key is not 64 hex digits (a
    /// state damaged by hand, say) is left out, which only makes its photo, blob or page new again.
    package func snapshot(source: String) throws -> StateSnapshot {
        try queue.read { db in try Self.snapshot(source: source, whole: true, in: db) }
    }

    /// What a build loads before it starts, for the photos of `source`: the blob records,
    /// placeholders and the pages' key, not the photo rows and page records, which it reads a
    /// window at a time (`StateDatabase+Prior.swift`). Read on the database's own queue, while the
    /// calling task is suspended rather than holding a thread of the cooperative pool.
    /// - Throws: `CancellationError` when the task is cancelled before the read starts, or what the read throws.
    package func loadSnapshot(source: String) async throws -> StateSnapshot {
        try await queue.read { db in try Self.snapshot(source: source, whole: false, in: db) }
    }

    private static func snapshot(source: String, whole: Bool, in db: Database) throws -> StateSnapshot {
        var snapshot = StateSnapshot()
        snapshot.source = source
        snapshot.pagesKey = try String.fetchOne(db, sql: "SELECT value FROM setting WHERE name = 'pagesKey'").flatMap {
            Digest(hex: $0)
        }
        // Without their data URIs (about 900 bytes each), which pages look up one by one when
        // they are rendered (`placeholderURI`); a no-op build never needs them.
        // In key order (keys are stored as lower-case hex, which sorts as digests do), sized once.
        snapshot.placeholders = DigestTable(
            capacity: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM placeholder") ?? 0)
        let placeholders = try Row.fetchCursor(
            db, sql: "SELECT key, averageColor, warnings FROM placeholder ORDER BY key")
        while let row = try placeholders.next() {
            guard let key = try Self.digest(row, 0) else { continue }
            snapshot.placeholders.append(key, Self.placeholder(averageColor: row[1], warnings: row[2]))
        }
        snapshot.placeholders.sort()
        snapshot.imageBlobs = DigestTable(
            capacity: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob WHERE kind = 'images'") ?? 0)
        snapshot.pageBlobs = DigestTable(
            capacity: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob WHERE kind = 'pages'") ?? 0)
        let blobs = try Row.fetchCursor(db, sql: "SELECT key, kind, size, modified, sha256 FROM blob ORDER BY key")
        while let row = try blobs.next() {
            guard let key = try Self.digest(row, 0), let sha256 = try Self.digest(row, 4) else { continue }
            let kind: String = row[1]
            let record = BlobStamp(size: row[2], modified: row[3], sha256: sha256)
            switch kind {
            case "images": snapshot.imageBlobs.append(key, record)
            case "pages": snapshot.pageBlobs.append(key, record)
            default: continue
            }
        }
        snapshot.imageBlobs.sort()
        snapshot.pageBlobs.sort()
        guard whole else { return snapshot }
        snapshot.photos = PhotoTable(
            capacity: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE source = ?", arguments: [source]) ?? 0
        )
        let rows = try Row.fetchCursor(
            db, sql: "SELECT \(Self.rowColumns), source FROM photo ORDER BY source, position")
        while let row = try rows.next() {
            guard let state = try Self.photoState(row) else { continue }
            if row[11] as String == source {
                snapshot.photos.insert(state)
            } else {
                snapshot.otherSources.append(state)
            }
        }
        snapshot.pages.reserveCapacity(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM page") ?? 0)
        let pages = try Row.fetchCursor(db, sql: "SELECT path, key, inputs FROM page")
        while let row = try pages.next() {
            guard let key = try Self.digest(row, 1) else { continue }
            snapshot.pages[row[0]] = PageRecord(inputs: try Self.digest(row, 2), key: key)
        }
        return snapshot
    }

    /// The key in column `index`, read from the row's bytes without making a `String`; nil when
    /// the column is NULL, empty or not a key.
    package static func digest(_ row: Row, _ index: Int) throws -> Digest? {
        try row.withUnsafeData(atIndex: index) { data in data.flatMap { $0.withUnsafeBytes { Digest(hexBuffer: $0) } } }
    }

    /// The keys in column `index`, separated by single spaces ('' for none); nil when one is not a key.
    package static func digests(_ row: Row, _ index: Int) throws -> [Digest]? {
        try row.withUnsafeData(atIndex: index) { data in
            guard let data, !data.isEmpty else { return [] }
            return data.withUnsafeBytes { bytes -> [Digest]? in
                guard (bytes.count + 1) % 65 == 0 else { return nil }
                var keys: [Digest] = []
                keys.reserveCapacity((bytes.count + 1) / 65)
                for start in stride(from: 0, to: bytes.count, by: 65) {
                    guard start == 0 || bytes[start - 1] == UInt8(ascii: " "),
                        let key = Digest(hexBuffer: UnsafeRawBufferPointer(rebasing: bytes[start..<start + 64]))
                    else { return nil }
                    keys.append(key)
                }
                return keys
            }
        }
    }

    /// How many photos of `source` the state holds.
    package func photoCount(source: String) async throws -> Int {
        try await queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo WHERE source = ?", arguments: [source]) ?? 0
        }
    }

    /// The photos of the last manifest fetched from `source`, in manifest order (`build --offline`).
    package func persistedManifest(source: String) async throws -> [Photo] {
        let texts = try await queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT metadata FROM photo WHERE source = ? ORDER BY position, id", arguments: [source])
        }
        let decoder = JSONDecoder()
        return try texts.map { try decoder.decode(Photo.self, from: Data($0.utf8)) }
    }

    // MARK: Writing

    /// Applies a build's changes in one transaction, with the rows, pages and blob records it left
    /// pending (`addPendingRows`, `addPendingPages`).
    package func save(_ changes: StateChanges, finishedAt: Date = Date()) throws {
        try queue.write { db in try Self.save(changes, finishedAt: finishedAt, in: db) }
    }

    /// `save` for async callers: written on the database's own queue, while the calling task is
    /// suspended rather than holding a thread of the cooperative pool. A task cancelled before or
    /// during the write rolls it back (GRDB interrupts it): the state is then as it was.
    /// - Throws: `CancellationError` when the task is cancelled, or what the write throws.
    package func saveChanges(_ changes: StateChanges, finishedAt: Date = Date()) async throws {
        try await queue.write { db in try Self.save(changes, finishedAt: finishedAt, in: db) }
    }

    private static func save(_ changes: StateChanges, finishedAt: Date, in db: Database) throws {
        try Self.applyPending(source: changes.source, in: db)
        let move = try db.makeStatement(sql: "UPDATE photo SET position = ? WHERE source = ? AND id = ?")
        for (id, position) in changes.positions {
            try move.execute(arguments: [position, changes.source, id])
        }
        let remove = try db.makeStatement(sql: "DELETE FROM photo WHERE source = ? AND id = ?")
        for id in changes.removedIDs {
            try remove.execute(arguments: [changes.source, id])
        }
        try db.execute(sql: "DELETE FROM photo WHERE source <> ?", arguments: [changes.source])

        try Self.applyPendingBlobs(in: db)
        let unblob = try db.makeStatement(sql: "DELETE FROM blob WHERE key = ?")
        for key in changes.deletedBlobs {
            try unblob.execute(arguments: [key.hex])
        }
        try Self.write(originals: changes.originals, placeholders: changes.placeholders, in: db)
        if changes.pagesStaged { try Self.applyPendingPages(in: db) }
        if let key = changes.pagesKey {
            try db.execute(
                sql: "INSERT OR REPLACE INTO setting (name, value) VALUES ('pagesKey', ?)", arguments: [key.hex])
        }
        try Self.write(learntFiles: changes.learntFiles, in: db)
        let counts = String(decoding: try JSONEncoder().encode(changes.counts), as: UTF8.self)
        try db.execute(
            sql: "INSERT INTO build (finishedAt, source, counts) VALUES (?, ?, ?)",
            arguments: [ISO8601DateFormatter().string(from: finishedAt), changes.source, counts])
        try db.execute(
            sql: "DELETE FROM build WHERE id <= (SELECT MAX(id) FROM build) - ?", arguments: [Self.historyLength])
    }

    /// Builds remembered for `cache stats`.
    static let historyLength = 100
}

/// The state as a build starts: what the last builds left, loaded once.
package struct StateSnapshot: Sendable {
    /// The source whose photos these are.
    package var source = ""
    /// Photos of the current source, by id; only in the whole state (`StateDatabase.snapshot`).
    package var photos = PhotoTable()
    /// Photos of any other source: all orphans once this build is saved; only in the whole state.
    package var otherSources: [PhotoState] = []
    /// Placeholders by thumbnail key, without their data URIs (`StateDatabase.placeholderURI`).
    package var placeholders = DigestTable<Placeholder>()
    /// Cached derivatives and published originals, by key. `takeBlobs` hands them to the build's caches.
    package var imageBlobs = DigestTable<BlobStamp>()
    /// Cached pages, by key.
    package var pageBlobs = DigestTable<BlobStamp>()
    /// The last build's pages, by path; only in the whole state.
    package var pages: [String: PageRecord] = [:]
    /// The key of everything the last build's pages were made from.
    package var pagesKey: Digest?

    package init() {}

    /// Moves the blob records out, so the caches that update them hold the only copy (a copy shared
    /// with the snapshot would be duplicated whole on the cache's first change).
    package mutating func takeBlobs() -> (images: DigestTable<BlobStamp>, pages: DigestTable<BlobStamp>) {
        defer {
            imageBlobs = DigestTable()
            pageBlobs = DigestTable()
        }
        return (imageBlobs, pageBlobs)
    }
}
