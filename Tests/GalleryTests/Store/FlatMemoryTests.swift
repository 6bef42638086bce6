import Foundation
import GalleryStore
import Testing

/// What a build learns streams into the state database as it goes, and pages read placeholders
/// back one by one, so no build holds every photo's placeholder image.
@Suite("Memory flat in photos") struct FlatMemoryTests {
    /// Every placeholder data URI on the home grid, in order.
    static func placeholders(in site: FixtureSite) throws -> [String] {
        let html = try String(contentsOf: site.output.appendingPathComponent("index.html"), encoding: .utf8)
        return html.components(separatedBy: "background-image:url(").dropFirst().map { String($0.prefix { $0 != ")" }) }
    }

    @Test func pagesReadPlaceholdersBackFromTheState() async throws {
        let site = try FixtureSite.make(config: ["pageSize": 24])
        let cold = try await site.build()
        let first = try Self.placeholders(in: site)
        #expect(first.count == cold.photosPublished)
        #expect(first.allSatisfy { $0.hasPrefix("data:image/jpeg;base64,") && $0.count > 100 })

        // The snapshot loads placeholders without their data URIs; a changed template renders every
        // page again, each placeholder now read from the database.
        let state = try StateDatabase.open(folder: site.folder.appendingPathComponent(".galleryssg"))
        let snapshot = try state.snapshot(source: cold.source)
        #expect(!snapshot.placeholders.isEmpty && snapshot.placeholders.values.allSatisfy { $0.dataURI.isEmpty })
        let templates = site.folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        let notFound = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Templates/404.mustache"), encoding: .utf8)
        try Data((notFound + "<!-- changed -->\n").utf8).write(to: templates.appendingPathComponent("404.mustache"))
        let rebuilt = try await site.build()
        #expect(rebuilt.derivativesMade == 0)
        #expect(rebuilt.pagesRendered == rebuilt.pages)
        #expect(try Self.placeholders(in: site) == first)
    }

    @Test func learntFactsAndPlaceholdersAreWrittenInBatchesDuringTheBuild() async throws {
        let folder = try Fixtures.temporaryFolder()
        let database = try StateDatabase.open(folder: folder)
        let state = BuildState(
            snapshot: StateSnapshot(), blobs: (DigestTable(), DigestTable()), cache: folder, reuse: true,
            database: database)
        for index in 0..<(BuildState.batchSize + 3) {
            let placeholder = Placeholder(averageColor: "#000000", dataURI: "data:image/jpeg;base64,\(index)")
            // As the images step gathers photos' outcomes: a full batch is written at once.
            if state.learn(Learnt(placeholder: (Fixtures.key("key-\(index)"), placeholder))) { await state.flush() }
        }
        // A full batch is in the database already, without waiting for the build's last transaction.
        #expect(try database.placeholderURI(Fixtures.key("key-0")) == "data:image/jpeg;base64,0")
        #expect(state.placeholder(Fixtures.key("key-0"))?.value.dataURI == "")
        #expect(state.placeholderURI(Fixtures.key("key-0")) == "data:image/jpeg;base64,0")
        #expect(try database.placeholderURI(Fixtures.key("key-\(BuildState.batchSize + 1)")) == nil)
        #expect(
            state.placeholderURI(Fixtures.key("key-\(BuildState.batchSize + 1)"))
                == "data:image/jpeg;base64,\(BuildState.batchSize + 1)")
        await state.flush()
        #expect(
            try database.placeholderURI(Fixtures.key("key-\(BuildState.batchSize + 2)"))
                == "data:image/jpeg;base64,\(BuildState.batchSize + 2)")
        #expect(state.learnt.placeholders.isEmpty)
        // A key nobody stored is a failure the build reports, not an empty image.
        #expect(state.placeholderURI(Fixtures.key("unknown")) == "")
        #expect(throws: StoreError.self) { try state.check() }
    }
}
