import Foundation
import GalleryPipeline
import Testing

/// `Build.steps`, the list a full build runs: its order, and what the report's timings and a failed
/// step's error say about the steps that ran.
@Suite("A build's steps as a list")
struct BuildStepsTests {
    /// The order the memory and safety rules need: the photo list is in its file before the last build's
    /// state is loaded, the staging folder is begun before anything is staged, the plan is made from
    /// the published photos, the old site's files are checked before the state is saved, and the swap
    /// comes last.
    @Test func theStepsRunInTheOrderTheRulesNeed() {
        #expect(
            Build.steps.map(\.name) == [
                .lock, .output, .theme, .state, .manifest, .images, .state, .output, .state, .images, .pages,
                .downloads, .pages, .static, .seal, .publish, .state, .publish
            ])
    }

    /// Every step that ran has a time in the report, and only those: `seal` has no work without a
    /// password, so it is not timed.
    @Test func theReportTimesTheStepsThatRan() async throws {
        let site = try FixtureSite.make()
        let report = try await site.build()
        #expect(
            Set(report.stepSeconds.keys)
                == [.lock, .output, .theme, .state, .manifest, .images, .downloads, .pages, .static, .publish])
        #expect(report.stepSeconds.values.allSatisfy { $0 >= 0 })
        #expect(report.stepSeconds.values.reduce(0, +) <= report.totalSeconds)

        let sealed = try ProtectedAlbumTests.site()
        #expect(try await sealed.build().stepSeconds[.seal] != nil)
    }

    /// A step's error names that step; the staging folder it worked in is not left behind, and the
    /// previous site is kept.
    @Test func aFailedStepIsNamedAndThePreviousSiteKept() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let before = site.outputFiles()
        // No photo of the manifest can be read: `images` fails after `output` began the staging folder.
        let entries = [["id": "gone", "image": "photos/does-not-exist.jpg"]]
        try JSONSerialization.data(withJSONObject: ["photos": entries])
            .write(to: site.folder.appendingPathComponent("manifest.json"))
        let error = try await #require(throws: BuildError.self) { try await site.build() }
        #expect(error.step == .images)
        #expect(site.outputFiles() == before)
        let beside = try FileManager.default.contentsOfDirectory(atPath: site.folder.path)
        #expect(!beside.contains { $0.contains(".staging-") }, "\(beside)")

        // The manifest turns unreadable: `manifest` fails, before anything is staged.
        try Data("{ not json".utf8).write(to: site.folder.appendingPathComponent("manifest.json"))
        #expect(try await #require(throws: BuildError.self) { try await site.build() }.step == .manifest)
        #expect(site.outputFiles() == before)
    }
}
