import Foundation
import Testing
@testable import GalleryCore

/// The repository's own sample site, built exactly from `site-config.json` into a temporary folder.
@Suite("Sample site")
struct SampleSiteTests {
    @Test func sampleBuildsEveryPageWithWorkingLinks() async throws {
        var config = try SiteConfig.load(from: Fixtures.repository.appendingPathComponent("site-config.json"), environment: [:])
        let folder = try Fixtures.temporaryFolder()
        config.output = folder.appendingPathComponent("public")
        config.stateDirectory = folder.appendingPathComponent("state")
        let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()

        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/manifest.json"))) as? [String: Any]
        let ids = try #require(manifest?["photos"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids.count == 15)
        #expect(report.photosPublished == 15)
        #expect(report.failures == [])
        let pages = (ids.count + config.pageSize - 1) / config.pageSize
        #expect(report.pages == pages + ids.count)

        let site = FixtureSite(folder: folder)
        let files = Set(site.outputFiles())
        #expect(files.contains("index.html"))
        for page in 2...pages { #expect(files.contains("page/\(page)/index.html")) }
        for id in ids { #expect(files.contains("photos/\(id)/index.html"), "no page for \(id)") }
        let broken = try site.brokenLinks()
        #expect(broken == [], "\(broken)")

        // The EXIF-rotated sample is published upright (portrait).
        let friends = try site.read("photos/friends/index.html")
        #expect(friends.contains(#"width="1066" height="1600""#))
    }
}
