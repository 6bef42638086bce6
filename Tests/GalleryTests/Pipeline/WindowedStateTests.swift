import Foundation
import GRDB
import GalleryPipeline
import GalleryStore
import Testing

/// A build reads the last build's photo rows and page records from the state a window at a time
/// instead of loading them whole; its decisions (what is rendered again, reused, removed) are the
/// same whatever the window.
@Suite("The last build's rows read a window at a time", .serialized)
struct WindowedStateTests {
    /// The counts that say what a build decided.
    static func decisions(_ report: BuildReport) -> [Int] {
        [
            report.photosNew, report.photosChanged, report.photosUnchanged, report.photosRemoved,
            report.derivativesMade,
            report.derivativesReused, report.pages, report.pagesRendered, report.pagesReused
        ]
    }

    @Test func theBuildsSnapshotLeavesPhotoRowsAndPagesInTheState() async throws {
        let site = try FixtureSite.make(entries: IncrementalFixtures.five)
        let cold = try await site.build()
        let database = try StateDatabase.open(folder: site.state)
        let loaded = try await database.loadSnapshot(source: cold.source)
        #expect(loaded.photos.count == 0 && loaded.otherSources.isEmpty && loaded.pages.isEmpty)
        #expect(loaded.pagesKey != nil && !loaded.pageBlobs.isEmpty)
        let whole = try database.snapshot(source: cold.source)
        #expect(whole.photos.count == 5 && !whole.pages.isEmpty && whole.pagesKey == loaded.pagesKey)
    }

    /// Edits of every kind, built with windows of one or two rows and pages, decide as the usual
    /// window does and make what a clean build makes: the retitled photo's neighbours are rendered
    /// again, the removed photo's page is deleted, and a no-op after renders nothing.
    @Test(arguments: [1, 2])
    func smallWindowsDecideAsTheUsualOne(window: Int) async throws {
        var decided: [[[Int]]] = []
        for readWindow in [window, BuildOptions().readWindow] {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            var options = BuildOptions(jobs: 2)
            options.readWindow = readWindow
            var reports = [try await site.build(options), try await site.build(options)]
            try site.writeManifest(LoadSensitive.PendingRowsTests.edited)
            reports.append(try await site.build(options))
            #expect(!site.outputFiles().contains { $0.hasPrefix("photos/five/") })
            #expect(try site.read("photos/three/index.html").contains("Three, retitled"))
            // Its neighbours in the new order (four and two) show its new title.
            #expect(
                try ["four", "two"].allSatisfy { try site.read("photos/\($0)/index.html").contains("Three, retitled") })
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
            reports.append(try await site.build(options))
            decided.append(reports.map(Self.decisions))
        }
        #expect(decided[0] == decided[1])
        #expect(decided[0][1][7] == 0 && decided[0][3][7] == 0)  // the no-ops render no page
        #expect(decided[0][2][3] == 1 && decided[0][2][7] > 0)  // five removed; pages rendered again
    }

    /// A page record whose key is damaged (a state edited by hand) is not one the next build can
    /// link: it works the pages out and renders that one, rather than leave it out of the site.
    @Test func aDamagedPageRecordIsRenderedNotLeftOut() async throws {
        let site = try FixtureSite.make(entries: IncrementalFixtures.five)
        _ = try await site.build()
        let tree = try site.treeHash()
        let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE page SET key = 'damaged' WHERE path = 'photos/three/index.html'")
        }
        try queue.close()
        let again = try await site.build()
        #expect(site.outputFiles().contains("photos/three/index.html"))
        #expect(try site.treeHash() == tree)
        #expect(again.pagesRendered == 1)
    }
}
