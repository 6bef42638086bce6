import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// Back puts the reader where they were (issue 29, fault 1), in Chromium, Firefox ESR and
/// WebKitGTK, each with its back/forward cache on and off, through `Tests/Browser/site_restore.py`:
/// on the sample's home grid with infinite scroll (a row of page 2 at the middle of the view, its
/// photo opened, Back) and on an album page of the mixed-shape site without infinite scroll
/// (scrolled as far as 1105 px, a photo opened, Back; the audit saw WebKit lose 220 px and 1105 px alike). WebKit with its cache on used to show the
/// page at the top, and the address then followed the top back to page 1.
extension LoadSensitive {
    @Suite("Back restores the reader's place", .serialized)
    struct RestoreBrowserTests {
        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }

        @Test("Back in Chromium, its back/forward cache on and off", .enabled(if: BrowserTests.enabled, "see .ci/run"))
        func chromium() async throws { try await Self.check("chromium") }

        @Test(
            "Back in Firefox ESR, its back/forward cache on and off",
            .enabled(if: ViewerBrowserTests.firefoxEnabled, "needs firefox-esr and GECKODRIVER; see .ci/run"))
        func firefox() async throws { try await Self.check("firefox") }

        @Test(
            "Back in WebKitGTK, its page cache on and off",
            .enabled(if: WebKitBrowserTests.enabled, "\(WebKitBrowserTests.why)"))
        func webkit() async throws { try await Self.check("webkit") }

        static func check(_ engine: String) async throws {
            try BrowserTests.tools.require()
            let (config, report) = try await SampleBuild.shared.site()
            #expect(report.failures == [])
            let mixed = try await MixedBuild.shared.site()
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/site_restore.py")
            let run = BrowserTools.run([
                "python3", script.path, "--engine", engine, "--site", config.output.path, "--album-site", mixed.path
            ])
            guard run.status == 0, let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "site_restore.py failed (\(run.status)): \(run.errors.suffix(3000))")
            }
            let folder = Fixtures.repository.appendingPathComponent(".build/screenshots/restore")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? run.output.write(to: folder.appendingPathComponent("report-\(engine).json"))
            for cache in ["on", "off"] {
                let moves = result[cache] as? [String: Any] ?? [:]
                let grid = moves["grid"] as? [String: Any] ?? [:]
                // With the cache on, Back brings the same document back (else this run would not test the
                // cache: all three engines keep these pages); with it off, a new one.
                #expect(grid["cached"] as? Bool == (cache == "on"), "\(engine), cache \(cache): \(grid)")
                #expect(
                    (grid["urlBefore"] as? String ?? "").hasSuffix("/page/2/index.html"),
                    "\(engine), cache \(cache): \(grid)")
                #expect(
                    grid["urlAfter"] as? String == grid["urlBefore"] as? String,
                    "\(engine), cache \(cache): the address changed: \(grid)")
                let before = number(grid["topBefore"]) ?? .infinity
                let after = number(grid["topAfter"]) ?? -.infinity
                #expect(
                    abs(before - after) <= 3,
                    "\(engine), cache \(cache): the photo was at \(before), after Back at \(after): \(grid)")
                #expect(grid["consoleErrors"] as? [String] == [], "\(engine): \(grid["consoleErrors"] ?? "")")
                let albums = moves["albums"] as? [[String: Any]] ?? []
                #expect(albums.count == 1, "\(engine), cache \(cache): \(moves)")
                for album in albums {
                    // 1105 px was the audit's second place; the justified rows made that album shorter, so
                    // it is scrolled as far as it goes, which must still be well past the first place.
                    let most = number(album["maxScroll"]) ?? 0
                    let asked = min(number(album["asked"]) ?? 0, most)
                    let at = number(album["scrollBefore"]) ?? 0
                    #expect(most > 440 && abs(at - asked) <= 1, "the album could not be scrolled to \(asked): \(album)")
                    #expect(
                        abs((number(album["scrollAfter"]) ?? -1) - at) <= 3,
                        "\(engine), cache \(cache): scrolled to \(at), after Back \(album)")
                    #expect(
                        album["urlAfter"] as? String == album["urlBefore"] as? String
                            && album["cached"] as? Bool == (cache == "on"),
                        "\(engine), cache \(cache): \(album)")
                    #expect(album["consoleErrors"] as? [String] == [], "\(engine): \(album["consoleErrors"] ?? "")")
                }
            }
        }
    }
}

/// The mixed-shape site of the audit (40 photos of 3:2, 2:3, 1:1 and 3:1 in four albums, one
/// nested), made by Tests/Fixtures/mixed/make-mixed-site.py (ffmpeg and exiftool) and built once
/// per test run; its albums are taller than two phone screens and have no second page.
actor MixedBuild {
    static let shared = MixedBuild()
    private var build: Task<URL, any Error>?

    /// The built site's folder.
    func site() async throws -> URL {
        if let build { return try await build.value }
        let task = Task { try await Self.build() }
        build = task
        return try await task.value
    }

    static func build() async throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let maker = Fixtures.repository.appendingPathComponent("Tests/Fixtures/mixed/make-mixed-site.py")
        let made = BrowserTools.run(["python3", maker.path, folder.path])
        guard made.status == 0 else {
            throw BrowserToolsMissing(description: "make-mixed-site.py failed: \(made.errors.suffix(2000))")
        }
        var config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
        config.output = folder.appendingPathComponent("public")
        config.stateDirectory = folder.appendingPathComponent("state")
        let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
        #expect(report.failures == [])
        return config.output
    }
}
