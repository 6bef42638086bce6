import Foundation
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

    @Test func aReportReadBackKeepsWhichFailuresAreOtherFiles() throws {
        let report = try JSONDecoder().decode(BuildReport.self, from: Self.report().json())
        #expect(report.failures.map(\.otherFile) == [true, nil])
    }
}
