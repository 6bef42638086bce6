import Foundation
import GalleryPipeline
import Testing

/// A build's steps: what the report's timings and a failed step's error say about the steps that
/// ran. Their order is the compiler's to hold: each step takes what the one before it made.
@Suite("A build's steps")
struct BuildStepsTests {
    /// An images-only build runs its steps through the same clock as a full build: each that ran
    /// is timed under its name, and only those.
    @Test func anImagesOnlyBuildTimesItsSteps() async throws {
        let site = try FixtureSite.make()
        let report = try await site.build(BuildOptions(jobs: 2, imagesOnly: .all))
        #expect(Set(report.stepSeconds.keys) == [.manifest, .state, .images, .learnt])
        #expect(report.stepSeconds.values.reduce(0, +) <= report.totalSeconds)
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
