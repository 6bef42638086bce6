import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// The photo page and the album cards of the sample site on screen (issue 29, faults 5–7), through
/// `Tests/Browser/check_site.py --only` (its `site_pages.py`), at 1280×800 and 390×844 (headless
/// Firefox keeps a window about 500 px wide: it measures there; WebKitGTK measures at 390 px): no arrow or cross drawn as a
/// character, the photo and its previous / next links in the first screen, the viewer's buttons
/// off the photo on a phone, no arrow alone on a line, and album captions under 30 % of a card.
extension LoadSensitive {
    @Suite("Photo pages and album cards in a real browser", .serialized)
    struct SitePagesBrowserTests {
        static let parts = "glyphs,photoPages,albumCards"

        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

        /// The mixed-shape site of the audit (Tests/Fixtures/mixed: 3:1 panoramas, portrait covers, a
        /// long nested album title) needs ffmpeg and exiftool to be made.
        static let mixedEnabled =
            BrowserTests.enabled && BrowserTools.run(["ffmpeg", "-version"]).status == 0
            && BrowserTools.run(["exiftool", "-ver"]).status == 0

        /// Runs the checks on the sample site (or `site`) in `browser` and returns the script's JSON.
        static func check(browser: String, site: URL? = nil) async throws -> [String: Any] {
            try BrowserTests.tools.require()
            var output = site
            if output == nil {
                let (config, report) = try await SampleBuild.shared.site()
                #expect(report.failures == [])
                output = config.output
            }
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_site.py")
            let screenshots = Fixtures.repository.appendingPathComponent(
                ".build/screenshots/pages-\(browser)\(site == nil ? "" : "-mixed")")
            let result = BrowserTools.run([
                "python3", script.path, "--site", output?.path ?? "", "--screenshots", screenshots.path,
                "--only", parts, "--browser", browser
            ])
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_site.py --only failed (\(result.status)): \(result.errors.suffix(3000))")
            }
            try? FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            try? result.output.write(to: screenshots.appendingPathComponent("report.json"))
            return object
        }

        @Test(
            "Icons, the photo page's first screen and album cards in Chromium",
            .enabled(
                if: BrowserTests.enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")); see .ci/run"))
        func chromium() async throws {
            Self.assertPages(try await Self.check(browser: "chromium"))
        }

        @Test(
            "Icons, the photo page's first screen and album cards in Firefox",
            .enabled(
                if: ViewerBrowserTests.firefoxEnabled,
                "needs firefox-esr and GECKODRIVER naming a geckodriver; see .ci/run"))
        func firefox() async throws {
            Self.assertPages(try await Self.check(browser: "firefox"))
        }

        @Test(
            "Icons, the photo page's first screen and album cards in WebKitGTK (at exactly 390 px)",
            .enabled(if: WebKitBrowserTests.enabled, "\(WebKitBrowserTests.why)"))
        func webkit() async throws {
            Self.assertPages(try await Self.check(browser: "webkit"))
        }

        @Test(
            "Panoramas, portrait covers and a long album title (the mixed site) in Chromium",
            .enabled(
                if: mixedEnabled, "needs ffmpeg, exiftool and \(BrowserTests.tools.missing.joined(separator: ", "))"))
        func mixed() async throws {
            let folder = try Fixtures.temporaryFolder()
            let maker = Fixtures.repository.appendingPathComponent("Tests/Fixtures/mixed/make-mixed-site.py")
            let made = BrowserTools.run(["python3", maker.path, folder.path])
            try #require(made.status == 0, "\(made.errors)")
            let config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
            let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
            #expect(report.failures == [])
            let result = try await Self.check(browser: "chromium", site: config.output)
            Self.assertPages(result)
            // The panoramas are there to be measured: a 3:1 photo page on a phone.
            let photos = result["photoPages"] as? [String: [String: Any]] ?? [:]
            #expect(
                photos.values.contains {
                    (Self.number($0["natural"]) ?? 0) >= 2.9 && (($0["viewport"] as? [Double])?.first ?? 0) <= 600
                })
        }

        static func assertPages(_ result: [String: Any]) {
            let glyphs = result["glyphs"] as? [String: [String]] ?? [:]
            #expect(glyphs.count >= 6, "pages looked at: \(glyphs.keys.sorted())")
            for (page, found) in glyphs.sorted(by: { $0.key < $1.key }) {
                #expect(found.isEmpty, "\(page): arrows or crosses drawn as characters: \(found)")
            }
            let photos = result["photoPages"] as? [String: [String: Any]] ?? [:]
            #expect(photos.count >= 4, "photo pages: \(photos.keys.sorted())")
            for (page, photo) in photos.sorted(by: { $0.key < $1.key }) { assertPhoto(page, photo) }
            let cards = result["albumCards"] as? [String: [[String: Any]]] ?? [:]
            #expect(cards.count >= 2 && cards.values.allSatisfy { !$0.isEmpty }, "album pages: \(cards.keys.sorted())")
            for (page, list) in cards.sorted(by: { $0.key < $1.key }) {
                for card in list {
                    let name = card["name"] as? String ?? "?"
                    // At most ~30 % of the card, on a phone (77×115 px covers) as on a desktop.
                    #expect((number(card["captionShare"]) ?? 1) <= 0.30, "\(page) \(name): caption \(card)")
                    #expect(
                        (number(card["countLines"]) ?? 9) <= 1.2,
                        "\(page) \(name): the count on more than one line \(card)")
                    #expect(card["fullNameShown"] as? Bool == true, "\(page) \(name): cut short with no title \(card)")
                }
            }
        }

        /// The photo and its previous / next links within the first screen; on a phone, the viewer's
        /// buttons off the photo and a panorama the screen's width (zoom pans it); no arrow alone.
        static func assertPhoto(_ page: String, _ photo: [String: Any]) {
            let viewport = photo["viewport"] as? [Double] ?? [0, 0]
            let (width, height) = (viewport.first ?? 0, viewport.last ?? 0)
            let picture = object(photo["photo"])
            let nav = object(photo["nav"])
            #expect(
                (number(picture["top"]) ?? -1) >= 0 && (number(picture["bottom"]) ?? .infinity) <= height,
                "\(page): photo \(picture)")
            #expect(
                (number(nav["bottom"]) ?? .infinity) <= height,
                "\(page): previous / next end at \(nav["bottom"] ?? "?") of \(height)")
            for link in photo["links"] as? [[String: Any]] ?? [] {
                #expect(
                    link["alone"] as? Bool == false,
                    "\(page): the arrow of \(link["rel"] ?? "?") alone on a line \(link)")
            }
            if width <= 600 {
                #expect(
                    number(photo["buttonsOverPhoto"]) == 0,
                    "\(page): buttons cover \(photo["buttonsOverPhoto"] ?? "?") of the photo")
                if (number(photo["natural"]) ?? 0) >= 2 {
                    let stage = object(photo["stage"])
                    #expect(
                        (number(stage["right"]) ?? 0) - (number(stage["left"]) ?? 0) >= width * 0.95,
                        "\(page): panorama \(stage)")
                }
            }
        }
    }
}
