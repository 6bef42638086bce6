import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// What a build says at its end: an empty source, and the skipped photos again, grouped by reason.
@Suite("Build recap")
struct BuildRecapTests {
    @Test func anEmptySourceWarnsWithItsFolder() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photoz")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let config = folder.appendingPathComponent("site-config.json")
        try Data(#"{"source": {"type": "folder", "path": "photoz"}}"#.utf8).write(to: config)
        let events = EventLog()
        let report = try await Build(
            config: try SiteConfig.load(from: config, environment: [:]), options: BuildOptions(jobs: 1),
            progress: { events.append($0) }
        ).run()
        let expected =
            "no photos found in folder \(photos.path); the site will be empty. To fix it, put JPEG, PNG, WebP, "
            + "HEIF, AVIF, TIFF or GIF files in it (or in folders inside it), or fix source.path in site-config.json"
        #expect(report.emptySource == expected)
        #expect(events.all.contains(.warning(expected)))
        #expect(report.recap() == ["warning: \(expected)"])
        #expect(try JSONDecoder().decode(BuildReport.self, from: report.json()).emptySource == expected)
    }

    @Test func skippedPhotosAreListedAgainByReason() {
        var report = BuildReport()
        let text = (0..<12).map {
            BuildReport.Failure(
                id: "t\($0)", location: "photos/t\($0).jpg", stage: .imaging, status: nil,
                reason: "a text file, not an image")
        }
        report.failures =
            [
                BuildReport.Failure(
                    id: "gone", location: "https://x/gone.jpg", stage: .fetch, status: 404, reason: "HTTP 404")
            ]
            + text
        report.warnings = [
            BuildReport.Failure(id: "w", location: nil, stage: .imaging, status: nil, reason: "JPEG: junk")
        ]
        #expect(
            report.recap(perGroup: 10) == [
                "13 photos skipped, by reason:",
                "  imaging: a text file, not an image (12):"
            ] + (0..<10).map { "    t\($0) (photos/t\($0).jpg)" } + [
                "    … and 2 more; --report lists them",
                "  fetch: HTTP 404 (1):",
                "    gone (https://x/gone.jpg)",
                "1 photo published with warnings, by reason:",
                "  imaging: JPEG: junk (1):",
                "    w"
            ])
        #expect(
            report.recap(perGroup: 1, groups: 1) == [
                "13 photos skipped, by reason:",
                "  imaging: a text file, not an image (12):",
                "    t0 (photos/t0.jpg)",
                "    … and 11 more; --report lists them",
                "  … and 1 more reason (1 photo); --report lists them",
                "1 photo published with warnings, by reason:",
                "  imaging: JPEG: junk (1):",
                "    w"
            ])
        #expect(BuildReport().recap().isEmpty)
    }
}

/// Build events gathered from the build's tasks.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [BuildEvent] = []
    func append(_ event: BuildEvent) { lock.withLock { events.append(event) } }
    var all: [BuildEvent] { lock.withLock { events } }
}
