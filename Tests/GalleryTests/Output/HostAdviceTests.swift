import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

/// What a site over its host's limits is told to change: each change's saving is what a build with
/// it really removes, counted file by file (the grid's own sizes included), and the changes named
/// enough are.
@Suite("Host limits: what each change saves")
struct HostAdviceTests {
    static var photos: [[String: Any]] {
        IncrementalFixtures.five + [["id": "six", "title": "Six", "image": "photos/photo-6.jpg"]]
    }
    /// Two widths, WebP, grid steps and originals, so that every kind of change has files to save.
    static var images: [String: Any] { ["thumbnail": 64, "preview": 120, "widths": [80, 100], "webp": true] }

    /// The site's files by path, and its image files' bytes (derivatives and originals: what the
    /// changes save bytes of; a page's bytes change with its `srcset` too).
    static func files(_ site: FixtureSite) throws -> (count: Int, imageBytes: Int) {
        var bytes = 0
        for path in site.outputFiles() {
            let name = SiteMeasure.name(of: path)
            let image =
                name.hasPrefix("original.") || name.hasSuffix(".jpg") || name.hasSuffix(".webp")
                || name.hasSuffix(".avif")
            if image { bytes += try Data(contentsOf: site.output.appendingPathComponent(path)).count }
        }
        return (site.outputFiles().count, bytes)
    }

    /// The config's `images` with `changes` made.
    static func images(with changes: [HostAdvice.Change]) -> [String: Any] {
        var images = Self.images
        for change in changes {
            switch change {
            case .dropWidth(let width): images["widths"] = (images["widths"] as! [Int]).filter { $0 != width }
            case .noGridSteps: images["gridSteps"] = false
            case .noWebP: images["webp"] = false
            case .noAVIF: images["avif"] = false
            case .noOriginals: images["publishOriginals"] = false
            case .noZips: Issue.record("the site has no album zips")
            }
        }
        return images
    }

    static func report(_ site: FixtureSite, _ limits: HostLimits) throws -> HostReport {
        let config = try SiteConfig.load(from: site.configURL, environment: [:])
        let report = try #require(try HostCheck.report(config, HostChoice(host: .cloudflarePages), limits: limits))
        #expect(!report.fit.fits)
        return report
    }

    static func advice(_ site: FixtureSite, _ limits: HostLimits) throws -> HostAdvice {
        try #require(try report(site, limits).advice)
    }

    /// Builds the site with `changes`, counts, and builds it back.
    static func counted(_ site: FixtureSite, with changes: [HostAdvice.Change]) async throws -> (Int, Int) {
        try site.updateConfig(["images": images(with: changes)])
        _ = try await site.build()
        let counted = try files(site)
        try site.updateConfig(["images": images])
        _ = try await site.build()
        return counted
    }

    @Test func eachChangeSavesWhatABuildWithItRemoves() async throws {
        let site = try FixtureSite.make(entries: Self.photos, config: ["images": Self.images])
        _ = try await site.build()
        let before = try Self.files(site)
        let advice = try Self.advice(site, HostLimits(files: 10))
        #expect(advice.unplanned == 0)
        #expect(
            advice.savings.map(\.changes) == [
                [.dropWidth(100)], [.dropWidth(80)], [.noGridSteps], [.noWebP], [.noOriginals]
            ])
        for saving in advice.savings {
            let after = try await Self.counted(site, with: saving.changes)
            #expect(saving.files == before.count - after.0, "\(saving.changes)")
            #expect(saving.filesAfter == after.0, "\(saving.changes)")
            if !saving.estimated { #expect(saving.bytes == before.imageBytes - after.1, "\(saving.changes)") }
        }
        // Dropping 80 makes the grid fill the gap between 64 and 100 with sizes of its own.
        let eighty = try #require(advice.savings.first { $0.changes == [.dropWidth(80)] })
        #expect(eighty.files < 0 && eighty.estimated)
        let webp = try #require(advice.savings.first { $0.changes == [.noWebP] })
        #expect(webp.files == site.outputFiles().count { $0.hasSuffix(".webp") })
    }

    /// With a limit no single change meets, the changes chosen together are counted together (a
    /// width dropped saves less once WebP is off) and a build with them fits.
    @Test func changesTogetherAreCountedTogether() async throws {
        let site = try FixtureSite.make(entries: Self.photos, config: ["images": Self.images])
        _ = try await site.build()
        let count = site.outputFiles().count
        let first = try Self.advice(site, HostLimits(files: 10))
        let best = first.savings.map(\.files).max()!
        let report = try Self.report(site, HostLimits(files: count - best - 1))
        let advice = try #require(report.advice)
        #expect(advice.enough.isEmpty)
        let together = try #require(advice.together)
        #expect(advice.togetherFits && together.changes.count >= 2 && together.filesAfter <= count - best - 1)
        let (after, _) = try await Self.counted(site, with: together.changes)
        #expect(after == together.filesAfter)
        let line =
            "no single change is enough; together: \(advice.name(together.changes)) (leaves "
            + "\(Words.count(together.filesAfter)) of \(Words.count(count - best - 1)) files, "
        #expect(report.lines.contains { $0.hasPrefix(line) }, "\(report.lines)")
    }

    /// Files over the size limit are named with the key that lowers each; when only originals are
    /// over, publishing none is enough, and a clip over it is no setting's to remove.
    @Test func filesOverTheSizeLimitSayWhatLowersThem() throws {
        let config = try SiteConfig.parse(
            Data(#"{"source": {"type": "folder", "path": "photos"}}"#.utf8), file: HostLimitsTests.file,
            environment: [:])
        let mebibyte = 1 << 20
        let files = [
            SiteMeasure.File(path: "index.html", bytes: 4_000),
            SiteMeasure.File(path: "photos/a/400x300.jpg", bytes: 60_000),
            SiteMeasure.File(path: "photos/a/original.jpg", bytes: 30 * mebibyte),
            SiteMeasure.File(path: "photos/b/video.mp4", bytes: 40 * mebibyte)
        ]
        let choice = HostChoice(host: .cloudflarePages)
        let originalOnly = SiteMeasure(files: Array(files.prefix(3)))
        var fit = HostFit(originalOnly, choice: choice)
        var advice = HostAdvice(originalOnly, fit: fit, config: config)
        #expect(fit.over == [.fileBytes] && advice.largeFiles.map { $0.kind } == [.original])
        #expect(advice.enough.map(\.changes) == [[.noOriginals]])
        let all = SiteMeasure(files: files)
        fit = HostFit(all, choice: choice)
        advice = HostAdvice(all, fit: fit, config: config)
        #expect(advice.largeFiles.map { $0.file.path } == ["photos/b/video.mp4", "photos/a/original.jpg"])
        #expect(advice.enough.isEmpty && !advice.togetherFits)
        let lines = advice.lines(fit, site: "/site/public", configFile: "/site/site-config.json")
        #expect(lines.contains("  photos/b/video.mp4 (40 MiB): " + HostAdvice.lowering(.clip)))
        #expect(lines.contains("  photos/a/original.jpg (30 MiB): " + HostAdvice.lowering(.original)))
    }
}
