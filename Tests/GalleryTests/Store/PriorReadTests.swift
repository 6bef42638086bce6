import Foundation
import GRDB
import GalleryModel
import GalleryPipeline
import GalleryStore
import Testing

/// A build reads the last build's photo rows and page records from the state a window at a time
/// (`StateDatabase+Prior.swift`), never the whole table: every row comes back once, in manifest
/// order, across window boundaries, and the rows the manifest no longer lists are found.
@Suite struct PriorReadTests {
    static let source = "manifest /photos.json"
    /// More rows than one query binds, so every read spans several.
    static let count = 2 * StateDatabase.readWindow + 5

    static func row(_ index: Int, position: Int, title: String = "") -> StateDatabase.PendingPhoto {
        let key = Fixtures.key("photo \(index)\(title)")
        return StateDatabase.PendingPhoto(
            row: PhotoState(
                id: "p\(index)", position: position, metadataHash: key,
                location: "/photos/\(index).jpg", contentHash: key, blobKeys: [key],
                thumbnailKey: key), metadata: "{}")
    }

    /// A state whose last build saved `count` photos of `source`, in order, and a row of another
    /// source (as a build of that source left it, before the site changed its source).
    static func saved() async throws -> StateDatabase {
        let database = try StateDatabase.open(folder: try Fixtures.temporaryFolder())
        for start in stride(from: 0, to: count, by: 1000) {
            try await database.addPendingRows((start..<min(start + 1000, count)).map { row($0, position: $0) })
        }
        try await database.saveChanges(StateChanges(source: source))
        try await database.queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO photo (source, id, position, metadata, metadataHash, location, contentHash, blobKeys, thumbnailKey)
                        SELECT 'another source', 'p-1', 0, metadata, metadataHash, location, contentHash, blobKeys, thumbnailKey
                        FROM photo WHERE id = 'p0'
                    """)
        }
        return database
    }

    @Test func rowsComeBackInManifestOrderAcrossWindows() async throws {
        let database = try await Self.saved()
        let priors = PriorPhotos(source: Self.source, database: database)
        // The next manifest lists the photos backwards; every seventh is retitled (its row written again).
        let ids = (0..<Self.count).reversed().map { "p\($0)" }
        try await priors.prefetch(ids)
        var published: [PhotoPublisher.PublishedRow] = []
        var pending: [StateDatabase.PendingPhoto] = []
        for (position, id) in ids.enumerated() {
            let prior = try #require(try priors.row(id))
            #expect(prior.state.id == id && prior.state.position == Self.count - 1 - position)
            let written = position % 7 == 3
            if written { pending.append(Self.row(Self.count - 1 - position, position: position, title: "retitled")) }
            published.append(
                PhotoPublisher.PublishedRow(prior: prior.rowid, position: Int32(position), written: written))
        }
        try await database.addPendingRows(pending.shuffled())
        #expect(try priors.row("p\(Self.count)") == nil)

        var read: [(id: String, position: Int)] = []
        try await PhotoRows.forEach(published, database: database, window: 1000) { read.append(($0.id, $0.position)) }
        #expect(read.map(\.id) == ids)
        // Written rows carry their new position; the others the last build's.
        #expect(
            read.enumerated().allSatisfy { position, row in
                row.position == (position % 7 == 3 ? position : Self.count - 1 - position)
            })

        // A row the build says it wrote but did not is an error, not a silent gap.
        published[1].written = true
        let error = await #expect(throws: StoreError.self) {
            try await PhotoRows.forEach(published, database: database, window: 1000) { _ in }
        }
        #expect(error?.kind == .damaged)
    }

    @Test func rowsNoLongerListedAreFoundWithoutLoadingTheTable() async throws {
        let database = try await Self.saved()
        let priors = PriorPhotos(source: Self.source, database: database)
        let dropped: Set = ["p0", "p4096", "p\(Self.count - 1)"]
        var listed: [Int64] = []
        for index in 0..<Self.count where !dropped.contains("p\(index)") {
            listed.append(try #require(try priors.row("p\(index)")).rowid)
        }
        let (removed, others) = try await database.unlistedRows(source: Self.source, listed: listed.sorted())
        #expect(Set(removed.map(\.id)) == dropped)
        #expect(others.map(\.id) == ["p-1"])
    }

    @Test func pagesAreReadAWindowAtATime() async throws {
        let database = try StateDatabase.open(folder: try Fixtures.temporaryFolder())
        let paths = (0..<10).map { "photos/p\($0)/index.html" }
        try await database.addPendingPages(
            paths.map { ($0, PageRecord(inputs: Fixtures.key("in " + $0), key: Fixtures.key($0))) })
        var changes = StateChanges(source: Self.source)
        changes.pagesStaged = true
        try await database.saveChanges(changes)

        var read: [String] = []
        var after: String?
        while true {
            let window = try await database.priorPages(after: after, limit: 3)
            guard let last = window.last else { break }
            #expect(window.count <= 3 && window.allSatisfy { $0.key == Fixtures.key($0.path) })
            read += window.map(\.path)
            after = last.path
        }
        #expect(read == paths.sorted())
        let some = try await database.priorPages(paths: ["photos/p3/index.html", "photos/none/index.html"])
        #expect(
            some.count == 1
                && some["photos/p3/index.html"]
                    == PageRecord(
                        inputs: Fixtures.key("in photos/p3/index.html"),
                        key: Fixtures.key("photos/p3/index.html"))
        )
    }
}
