import Foundation
import GRDB
import GalleryPipeline
import GalleryStore
import Testing

/// The rows a build writes stream into the state's pending tables during the `images` and `pages`
/// steps, and only the state step's transaction moves them into `photo` and `page`: a build that
/// fails or is killed before it leaves the state describing the previous site, and the next build
/// ignores what it left.
extension LoadSensitive {
    @Suite("State rows stream through the pending table", .serialized)
    struct PendingRowsTests {
        /// Every column of every `photo` row, in key order.
        static func photoTable(_ site: FixtureSite) throws -> [String] {
            let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM photo ORDER BY source, id").map(\.description)
            }
        }

        /// Every page record, in path order.
        static func pageTable(_ site: FixtureSite) throws -> [String] {
            let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT path, key, inputs FROM page ORDER BY path").map(\.description)
            }
        }

        /// Every blob record, in key order.
        static func blobTable(_ site: FixtureSite) throws -> [String] {
            try column(
                site,
                "SELECT key || ' ' || kind || ' ' || size || ' ' || modified || ' ' || sha256 FROM blob ORDER BY key")
        }

        static func column(_ site: FixtureSite, _ sql: String) throws -> [String] {
            let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
            defer { try? queue.close() }
            return try queue.read { db in try String.fetchAll(db, sql: sql) }
        }

        static func pendingCount(_ site: FixtureSite, _ table: String = "pending_photo") throws -> Int {
            let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)") ?? -1 }
        }

        /// The rows in `pending_photo`, `pending_page` and `pending_blob`.
        static func pendingCounts(_ site: FixtureSite) throws -> [Int] {
            try ["pending_photo", "pending_page", "pending_blob"].map { try pendingCount(site, $0) }
        }

        /// Runs SQL on the site's state database, as another process would.
        static func execute(_ site: FixtureSite, _ sql: String) throws {
            let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
            defer { try? queue.close() }
            try queue.write { db in try db.execute(sql: sql) }
        }

        /// The five photos with one retitled, one added at the front, one removed and the rest reordered.
        static var edited: [[String: Any]] {
            [
                ["id": "six", "title": "Six", "image": "photos/photo-6.jpg"],
                ["id": "four", "title": "Four", "image": "photos/photo-4.jpg"],
                ["id": "three", "title": "Three, retitled", "image": "photos/photo-3.jpg"],
                ["id": "two", "title": "Two", "image": "photos/photo-2.jpg"],
                ["id": "one", "title": "One", "image": "photos/photo-1.jpg"]
            ]
        }

        @Test func aBuildThatFailsAfterTheImagesStepLeavesThePhotoTableAsItWas() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let table = try Self.photoTable(site)
            let pageTable = try Self.pageTable(site)
            let blobTable = try Self.blobTable(site)
            let tree = try site.treeHash()

            // The pages cache cannot be written: the pages step fails once the images step is done.
            try site.writeManifest(Self.edited)
            let pages = BuildState.pagesFolder(cache: site.cache)
            let aside = site.cache.appendingPathComponent("pages-aside")
            try FileManager.default.moveItem(at: pages, to: aside)
            try Data("not a folder".utf8).write(to: pages)
            do {
                _ = try await site.build()
                Issue.record("expected the pages step to fail")
            } catch let error as BuildError {
                #expect(error.step == .pages, "\(error)")
            }
            #expect(try Self.pendingCount(site) > 0, "the failed build's rows were not streamed during the images step")
            #expect(
                try Self.pendingCount(site, "pending_blob") > 0,
                "the new photo's blob records were not streamed with its row")
            #expect(try Self.photoTable(site) == table)
            #expect(try Self.pageTable(site) == pageTable)
            #expect(try Self.blobTable(site) == blobTable)
            #expect(try site.treeHash() == tree)

            // Back to the first manifest: the failed build's rows (six, three retitled, the moves) must not come back.
            try FileManager.default.removeItem(at: pages)
            try FileManager.default.moveItem(at: aside, to: pages)
            try site.writeManifest(IncrementalFixtures.five)
            let again = try await site.build()
            #expect(
                again.photosUnchanged == 5 && again.photosNew == 0 && again.photosChanged == 0
                    && again.photosRemoved == 0)
            #expect(try Self.photoTable(site) == table)
            #expect(try Self.pageTable(site) == pageTable)
            #expect(try Self.blobTable(site) == blobTable)
            #expect(try Self.pendingCounts(site) == [0, 0, 0])
            #expect(try site.treeHash() == tree)

            try site.writeManifest(Self.edited)
            let edited = try await site.build()
            #expect(
                edited.photosNew == 1 && edited.photosChanged == 1 && edited.photosUnchanged == 3
                    && edited.photosRemoved == 1)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }

        /// The state step's transaction is the only one that changes `photo`: when it fails (here at its
        /// last statement), the pending rows are not in the table either.
        @Test func aStateStepThatFailsLeavesThePhotoTableAsItWas() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let table = try Self.photoTable(site)
            let pageTable = try Self.pageTable(site)
            let blobTable = try Self.blobTable(site)
            try Self.execute(
                site,
                "CREATE TRIGGER refuse BEFORE INSERT ON build BEGIN SELECT RAISE(ABORT, 'refused by the test'); END")
            try site.writeManifest(Self.edited)
            do {
                _ = try await site.build()
                Issue.record("expected the state step to fail")
            } catch let error as BuildError {
                #expect(error.step == .state, "\(error)")
            }
            #expect(try Self.pendingCount(site, "pending_page") > 0, "the failed build's pages were not streamed")
            #expect(
                try Self.pendingCount(site, "pending_blob") > 0, "the failed build's blob records were not streamed")
            #expect(try Self.photoTable(site) == table)
            #expect(try Self.pageTable(site) == pageTable)
            #expect(try Self.blobTable(site) == blobTable)

            try Self.execute(site, "DROP TRIGGER refuse")
            let report = try await site.build()
            #expect(
                report.photosNew == 1 && report.photosChanged == 1 && report.photosUnchanged == 3
                    && report.photosRemoved == 1)
            #expect(try Self.pendingCounts(site) == [0, 0, 0])
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }

        /// Rows and pages a killed build left pending (a photo the manifest never had, a move of one it
        /// has, a page of that photo) are cleared when the next build starts, never applied: neither by
        /// a no-op nor by a build whose pages change.
        @Test func pendingRowsOfAKilledBuildAreIgnoredAndCleared() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let table = try Self.photoTable(site)
            let pages = try Self.pageTable(site)
            let tree = try site.treeHash()
            let leftovers = """
                INSERT INTO pending_photo (position, id, metadata, metadataHash, location, etag, lastModified, fileSize,
                    fileModified, contentHash, blobKeys, thumbnailKey)
                    SELECT 0, 'ghost', metadata, metadataHash, location, etag, lastModified, fileSize, fileModified, contentHash,
                           blobKeys, thumbnailKey FROM photo WHERE id = 'one';
                INSERT INTO pending_photo (position, id, metadata, metadataHash, location, etag, lastModified, fileSize,
                    fileModified, contentHash, blobKeys, thumbnailKey)
                    SELECT 42, id, NULL, metadataHash, location, etag, lastModified, fileSize, fileModified, contentHash,
                           blobKeys, thumbnailKey FROM photo WHERE id = 'two';
                INSERT INTO pending_page (path, key, inputs) SELECT 'photos/ghost/index.html', key, inputs FROM page LIMIT 1;
                INSERT INTO pending_blob (key, kind, size, modified, sha256) VALUES
                    ('\(String(repeating: "ab", count: 32))', 'images', 1, 1, '\(String(repeating: "cd", count: 32))');
                """
            try Self.execute(site, leftovers)
            #expect(try Self.pendingCounts(site) == [2, 1, 1])
            let report = try await site.build()
            #expect(report.photosUnchanged == 5 && report.photosNew == 0 && report.photosRemoved == 0)
            #expect(try Self.photoTable(site) == table)
            #expect(try Self.pageTable(site) == pages)
            #expect(try Self.pendingCounts(site) == [0, 0, 0])
            #expect(try !Self.blobTable(site).contains { $0.hasPrefix(String(repeating: "ab", count: 32)) })
            #expect(try site.treeHash() == tree)

            try Self.execute(site, leftovers)
            try site.writeManifest(Self.edited)
            let edited = try await site.build()
            #expect(
                edited.photosNew == 1 && edited.photosChanged == 1 && edited.photosUnchanged == 3
                    && edited.photosRemoved == 1)
            #expect(try !Self.photoTable(site).contains { $0.contains("ghost") })
            #expect(try !Self.pageTable(site).contains { $0.contains("ghost") })
            let twin = try await Self.cleanTwin(of: site)
            #expect(try Self.pageTable(site) == Self.pageTable(twin))
        }

        /// After a build that adds, edits, moves and removes photos, the state's pages are a clean
        /// build's, and the pages cache holds, and the state records, exactly the pages they use.
        @Test func pagesAreACleanBuildsAndOnlyTheirCachedFilesStay() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let first = try Self.pageTable(site)
            try site.writeManifest(Self.edited)
            let report = try await site.build()
            #expect(report.pagesRendered > 0 && report.pagesReused > 0)
            let pages = try Self.pageTable(site)
            #expect(pages != first)
            let twin = try await Self.cleanTwin(of: site)
            #expect(try pages == Self.pageTable(twin))

            let recorded = Set(try Self.column(site, "SELECT key FROM blob WHERE kind = 'pages'"))
            let used = Set(try Self.column(site, "SELECT key FROM page"))
            #expect(recorded == used)
            let files = site.outputFiles(in: BuildState.pagesFolder(cache: site.cache)).map {
                String($0.split(separator: "/").last ?? "")
            }
            #expect(Set(files) == used && files.count == used.count)
            // The image blobs' records, carried back in the photos' outcomes: exactly the files the photos use.
            let images = Set(try Self.column(site, "SELECT key FROM blob WHERE kind = 'images'"))
            let usedImages = Set(
                try Self.column(site, "SELECT blobKeys FROM photo").flatMap {
                    $0.split(separator: " ").map(String.init)
                })
            #expect(images == usedImages)
        }

        /// A fresh site with the same photos, manifest and config, built from scratch.
        static func cleanTwin(of site: FixtureSite) async throws -> FixtureSite {
            let twin = FixtureSite(folder: try Fixtures.temporaryFolder())
            for name in ["photos", "manifest.json", "site-config.json"] {
                try FileManager.default.copyItem(
                    at: site.folder.appendingPathComponent(name), to: twin.folder.appendingPathComponent(name))
            }
            _ = try await twin.build()
            return twin
        }

        /// New, changed, unchanged and removed photos are counted right through adds, edits, moves and
        /// removals; the rows (metadata and positions) are the manifest's; the page key depends only
        /// on the rows, wherever the build read them from (the snapshot, or the pending table).
        @Test func countsRowsAndPageKeyAcrossAddEditMoveAndRemove() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let cold = try await site.build()
            #expect(cold.photosNew == 5)
            let source = cold.source
            func persisted() async throws -> [String] {
                try await StateDatabase.open(folder: site.state).persistedManifest(source: source).map {
                    "\($0.id): \($0.title ?? "")"
                }
            }

            try site.writeManifest(IncrementalFixtures.five.reversed())
            let moved = try await site.build()
            #expect(
                moved.photosUnchanged == 5 && moved.photosNew == 0 && moved.photosChanged == 0
                    && moved.photosRemoved == 0)
            #expect(try await persisted() == ["five: Five", "four: Four", "three: Three", "two: Two", "one: One"])

            try site.writeManifest(Self.edited)
            let edited = try await site.build()
            #expect(
                edited.photosNew == 1 && edited.photosChanged == 1 && edited.photosUnchanged == 3
                    && edited.photosRemoved == 1)
            #expect(
                try await persisted() == ["six: Six", "four: Four", "three: Three, retitled", "two: Two", "one: One"])
            let editedKey = try #require(try site.stateSnapshot().pagesKey)

            // Built again, every row comes from the snapshot: the same rows give the same key.
            let noop = try await site.build()
            #expect(noop.photosUnchanged == 5 && noop.pagesRendered == 0)
            #expect(try site.stateSnapshot().pagesKey == editedKey)

            try site.writeManifest(Array(Self.edited.prefix(3)))
            let removed = try await site.build()
            #expect(
                removed.photosRemoved == 2 && removed.photosUnchanged == 3 && removed.photosNew == 0
                    && removed.photosChanged == 0)
            #expect(try await persisted() == ["six: Six", "four: Four", "three: Three, retitled"])
            #expect(try site.stateSnapshot().pagesKey != editedKey)
            #expect(try Self.pendingCount(site) == 0)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }
    }
}
