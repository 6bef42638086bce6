import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// The build's last line counts photos, clips and other files apart, and photos with warnings once each.
@Suite struct BuildSummaryTests {
    static func report() -> BuildReport {
        var report = BuildReport()
        report.photosPublished = 5
        report.clipsPublished = 2
        report.photosNew = 5
        report.failures = [
            BuildReport.Failure(
                id: "notes.pdf", location: "photos/notes.pdf", stage: .manifest, status: nil,
                reason: "a PDF document, not a photo", otherFile: true),
            BuildReport.Failure(
                id: "broken", location: "photos/broken.jpg", stage: .imaging, status: nil, reason: "JPEG: truncated")
        ]
        report.photosSkipped = report.failures.count
        report.warnings = [
            BuildReport.Failure(id: "w", location: nil, stage: .manifest, status: nil, reason: "unknown key a"),
            BuildReport.Failure(id: "w", location: nil, stage: .manifest, status: nil, reason: "unknown key b")
        ]
        return report
    }

    @Test func countsPhotosClipsAndOtherFilesApart() {
        let summary = Self.report().summary
        #expect(summary.hasPrefix("3 photos and 2 clips (5 new, 0 changed, 0 unchanged, 0 removed)"), "\(summary)")
        #expect(summary.contains("1 skipped, 1 other file not published, 1 with warnings, 0 ignored"), "\(summary)")
    }

    @Test func recapsOtherFilesApartAndWarnedPhotosOnce() {
        let lines = Self.report().recap()
        #expect(lines.contains("1 photo skipped, by reason:"), "\(lines)")
        #expect(lines.contains("1 other file not published, by reason:"), "\(lines)")
        #expect(lines.contains("  manifest: a PDF document, not a photo (1):"), "\(lines)")
        #expect(lines.contains("1 photo published with warnings, by reason:"), "\(lines)")
    }

    /// A warning about an album's `index.md` is a file read with warnings, not a photo, and its line
    /// names no empty location.
    @Test func anIndexWarningIsAFileReadWithWarnings() {
        var report = BuildReport()
        let warning = BuildReport.Failure(
            id: "Trip/index.md", location: nil, stage: .manifest, status: nil,
            reason: #"hidden lists "d.jpg", which matches no file"#, otherFile: true)
        report.warnings = [warning]
        #expect(report.recap().first == "1 file read with warnings, by reason:")
        #expect(warning.line == #"Trip/index.md: manifest: hidden lists "d.jpg", which matches no file"#)
    }

    /// As it goes, a build says a document was not published, and a damaged photo was skipped.
    @Test func aBuildSaysOtherFilesAreNotPublished() async throws {
        let site = try Fixtures.temporaryFolder()
        let photos = site.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Fixtures.data("images/photo-1.jpg").write(to: photos.appendingPathComponent("a.jpg"))
        try Data("%PDF-1.4".utf8).write(to: photos.appendingPathComponent("notes.pdf"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: photos.appendingPathComponent("broken.jpg"))
        try Data(#"{"source": {"type": "folder", "path": "photos"}}"#.utf8)
            .write(to: site.appendingPathComponent("site-config.json"))
        let events = EventLog()
        let report = try await Build(
            config: try SiteConfig.load(from: site.appendingPathComponent("site-config.json"), environment: [:]),
            options: BuildOptions(jobs: 1), progress: { events.append($0) }
        ).run()
        let lines = events.all.map(\.line)
        #expect(lines.contains { $0.hasPrefix("not published notes.pdf (") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("skipped broken (") }, "\(lines)")
        #expect(report.summary.contains("1 skipped, 1 other file not published"), "\(report.summary)")
    }

    @Test func aReportReadBackKeepsWhichFailuresAreOtherFiles() throws {
        let report = try JSONDecoder().decode(BuildReport.self, from: Self.report().json())
        #expect(report.failures.map(\.otherFile) == [true, nil])
    }
}
