import Foundation
import GRDB
import GalleryModel
import GalleryStore
import Testing

/// Whole builds of Tests/Fixtures/metadata/site, a folder source with sidecars and embedded metadata.
@Suite("Metadata in builds")
struct MetadataBuildTests {
    /// A copy of the fixture site with a folder-source config.
    static func site() throws -> FixtureSite {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.copyItem(
            at: Fixtures.url("metadata/site/photos"), to: folder.appendingPathComponent("photos"))
        let settings: [String: Any] = [
            "title": "Metadata", "pageSize": 10, "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 64, "preview": 120, "widths": [80]]
        ]
        try JSONSerialization.data(withJSONObject: settings).write(
            to: folder.appendingPathComponent("site-config.json"))
        return FixtureSite(folder: folder)
    }

    @Test func photoPagesShowWhatPhotographersWrote() async throws {
        let site = try Self.site()
        let report = try await site.build()
        #expect(report.failures.isEmpty, "\(report.failures)")

        // beach.md beats the embedded XMP title and keywords; the XMP creator loses to the .md author.
        let beach = try site.read("photos/beach/index.html")
        #expect(beach.contains("<h1>Beach at dusk</h1>"))
        #expect(beach.contains("Low tide at <strong>Reynisfjara</strong>."))
        #expect(beach.contains(">sand</a>") && beach.contains(">sea &amp; sky</a>"))
        #expect(!beach.contains("Embedded beach title") && !beach.contains("embedded-tag"))
        #expect(beach.contains("Sidecar Author") && !beach.contains("Embedded Creator"))
        #expect(
            beach.contains(#"<a href="https://creativecommons.org/licenses/by-sa/4.0/" rel="license">CC-BY-SA-4.0</a>"#)
        )

        // cliff.jpg.xmp (darktable) beats the IPTC title embedded in the file; its caption shows literally.
        let cliff = try site.read("photos/cliff/index.html")
        #expect(cliff.contains("<h1>Cliff from darktable</h1>"))
        #expect(cliff.contains("Fulmars_nesting # on the *ledge*"))
        #expect(cliff.contains(">birds</a>") && cliff.contains(">cliffs</a>"))
        #expect(cliff.contains("Dark Table"))

        // No metadata anywhere: the file name.
        #expect(try site.read("photos/iceland-b/index.html").contains("<h1>b</h1>"))
    }

    /// Facts, embedded metadata included, come from the state on later builds: the file is not read again.
    @Test func laterBuildsTakeEmbeddedMetadataFromTheState() async throws {
        let site = try Self.site()
        let first = try await site.build()
        let database = try StateDatabase.open(folder: site.state)
        let snapshot = try database.snapshot(source: first.source)
        let hash = try #require(snapshot.photos["beach"]?.contentHash)
        #expect(try database.facts(hash)?.embedded.title == "Embedded beach title")
        #expect(try database.facts(hash)?.embedded.keywords == ["embedded-tag"])

        // Were b.jpg read again, its title would stay "b".
        let bHash = try #require(snapshot.photos["iceland-b"]?.contentHash)
        var marked = try #require(try database.facts(bHash))
        marked.embedded.title = "Known from the state"
        var changes = StateChanges(source: first.source)
        changes.originals = [(bHash, marked)]
        try database.save(changes)

        // A new site title makes every page be worked out again (an unchanged site, built by the
        // same executable, links its pages from the last build without looking at any photo).
        try site.updateConfig(["title": "Metadata, retitled"])
        let second = try await site.build()
        #expect(second.derivativesMade == 0)
        #expect(try site.read("photos/iceland-b/index.html").contains("<h1>Known from the state</h1>"))
    }

    /// Planning a window of photos reads their facts with one query (`BuildState.prefetchFacts`):
    /// it agrees with the point reads, leaves out hashes the state lacks, and the build has them at
    /// hand afterwards (rows deleted after the prefetch are still answered, with no failure).
    @Test func factsOfAWindowAreReadAtOnce() async throws {
        let site = try Self.site()
        let first = try await site.build()
        let database = try StateDatabase.open(folder: site.state)
        let snapshot = try database.snapshot(source: first.source)
        let hashes = snapshot.photos.values.map(\.contentHash)
        #expect(hashes.count >= 3)
        let batch = try await database.facts(hashes + [Digest.sha256(Data("no such original".utf8))])
        #expect(Set(batch.map(\.0)) == Set(hashes))
        for (hash, facts) in batch { #expect(try database.facts(hash) == facts) }

        let state = BuildState(
            snapshot: snapshot, blobs: (DigestTable(), DigestTable()), cache: site.cache, reuse: true,
            database: database)
        await state.prefetchFacts(hashes)
        try await database.queue.write { db in try db.execute(sql: "DELETE FROM original") }
        for (hash, facts) in batch { #expect(state.facts(hash)?.value == facts) }
        try state.check()
    }

    /// A state from before v4 has facts without embedded metadata: the upgrade drops them, the next
    /// build reads each original once more and gives the same site, and the build after is a no-op.
    /// (A real upgrade is also a new executable, which makes every page be worked out again.)
    @Test func upgradedStateReadsOriginalsOnce() async throws {
        let site = try Self.site()
        let first = try await site.build()
        let tree = try site.treeHash()

        // Turn the state into a v3 one: no column, no v4 migration, facts as v3 stored them.
        let queue = try DatabaseQueue(path: StateDatabase.file(in: site.state).path)
        try await queue.write { db in
            try db.execute(sql: "ALTER TABLE original DROP COLUMN embedded")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v4%'")
        }
        try queue.close()

        let reopened = try StateDatabase.open(folder: site.state)
        let hashes = try reopened.snapshot(source: first.source).photos.values.map(\.contentHash)
        #expect(!hashes.isEmpty)
        #expect(try hashes.allSatisfy { try reopened.facts($0) == nil })
        let second = try await site.build()
        #expect(second.failures.isEmpty)
        #expect(second.derivativesMade == 0)
        #expect(try site.treeHash() == tree)
        let snapshot = try reopened.snapshot(source: first.source)
        let hash = try #require(snapshot.photos["beach"]?.contentHash)
        #expect(try reopened.facts(hash)?.embedded.title == "Embedded beach title")

        let third = try await site.build()
        #expect(third.pagesRendered == 0 && third.derivativesMade == 0)
        #expect(third.photosUnchanged == third.photosPublished)
        #expect(try site.treeHash() == tree)
    }

    /// A sidecar that cannot be read skips its photo with a reason naming the file and line.
    @Test func brokenSidecarIsReported() async throws {
        let site = try Self.site()
        try Data("---\ntitle: [unclosed\n---\n".utf8).write(to: site.folder.appendingPathComponent("photos/beach.md"))
        let report = try await site.build()
        let failure = try #require(report.failures.first { $0.id == "beach" })
        #expect(failure.reason.contains("beach.md:"), "\(failure.reason)")
        #expect(!site.outputFiles().contains("photos/beach/index.html"))
        #expect(site.outputFiles().contains("photos/cliff/index.html"))
    }
}
