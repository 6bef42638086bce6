import Foundation
import GalleryPipeline
import Testing

/// The repository's own sample site, built exactly from `site-config.json` into a temporary folder.
@Suite("Sample site")
struct SampleSiteTests {
    @Test func sampleBuildsEveryPageWithWorkingLinks() async throws {
        let (config, report) = try await SampleBuild.shared.site()
        let folder = config.output.deletingLastPathComponent()

        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/manifest.json")))
            as? [String: Any]
        let ids = try #require(manifest?["photos"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids.count == 15)
        #expect(report.photosPublished == 15)
        #expect(report.failures == [])
        let pages = (ids.count + config.pageSize - 1) / config.pageSize
        let site = FixtureSite(folder: folder)
        let files = Set(site.outputFiles())
        let folderIndexes = Set(
            (config.siteBook.record(of: config.output)?.folderIndexes ?? []).map { $0 + "/index.html" })
        #expect(folderIndexes.isSuperset(of: ["photos/index.html", "static/index.html", "page/index.html"]))
        #expect(report.pages == files.filter { $0.hasSuffix(".html") && !folderIndexes.contains($0) }.count)
        #expect(report.pages > pages + ids.count)
        for file in [
            "albums/index.html", "albums/basque-country/index.html", "tags/index.html", "tags/mountains/index.html",
            "404.html", "feed.xml", "robots.txt", "search.json", "search-index.js", "_headers"
        ] {
            #expect(files.contains(file), "no \(file)")
        }
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
