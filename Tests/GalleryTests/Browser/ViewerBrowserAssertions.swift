import Foundation
import Testing

/// What ViewerBrowserTests asserts on each part of check_viewer.py's report.
extension LoadSensitive.ViewerBrowserTests {
    /// Double-click zooms past 1.5× and loads a larger file; drags pan but never show the frame's
    /// edge; Esc zooms out (and stays on the page); + zooms in 1.5 times, - out as much, 0 back.
    static func assertZoom(_ zoom: [String: Any]) {
        func state(_ key: String) -> [String: Any] { object(zoom[key]) }
        func scale(_ key: String) -> Double { number(state(key)["scale"]) ?? 0 }
        #expect(abs(scale("before") - 1) < 0.01, "\(zoom)")
        #expect(scale("afterDoubleClick") > 1.5, "double-click: \(state("afterDoubleClick"))")
        #expect(state("afterDoubleClick")["covers"] as? Bool == true)
        let before = number(state("before")["mainFile"]) ?? .infinity
        #expect(
            (number(state("afterLoad")["hiresNatural"]) ?? 0) > before,
            "larger file: \(state("afterLoad")), preview \(before) px")
        let start = number(state("afterLoad")["left"]) ?? 0
        #expect(
            (number(state("afterDrag")["left"]) ?? 0) < start - 100, "drag pans: \(state("afterDrag")) from \(start)")
        #expect(state("afterDrag")["covers"] as? Bool == true)
        let far = state("afterFarDrag")
        #expect(
            far["covers"] as? Bool == true && abs(number(far["left"]) ?? 1) < 0.5 && abs(number(far["top"]) ?? 1) < 0.5,
            "edges: \(far)")
        #expect(abs(scale("afterEscape") - 1) < 0.01, "Esc: \(state("afterEscape"))")
        #expect(state("afterEscape")["url"] as? String == state("before")["url"] as? String, "Esc left the page")
        #expect(abs(scale("afterPlus") - 1.5) < 0.02, "+: \(state("afterPlus"))")
        #expect(abs(scale("afterPlusTwice") - 2.25) < 0.02, "+ +: \(state("afterPlusTwice"))")
        #expect(abs(scale("afterMinus") - 1.5) < 0.02, "- zooms out: \(state("afterMinus"))")
        #expect(abs(scale("afterZero") - 1) < 0.01, "0: \(state("afterZero"))")
        #expect(zoom["consoleErrors"] as? [String] == [], "\(zoom["consoleErrors"] ?? "")")
    }

    /// A pinch whose fingers end three times as far apart zooms the photo, not the page; ctrl+wheel
    /// (how browsers report a trackpad pinch) zooms it by e (100 px of wheel); the full-screen
    /// button puts the stage in full screen through the Fullscreen API.
    static func assertGestures(_ gestures: [String: Any]) {
        let pinch = object(gestures["pinch"])
        let wheel = object(gestures["wheel"])
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
        let long = object(swipe["long"])
        let short = object(swipe["short"])
        let down = object(swipe["down"])
        #expect(
            long["navigated"] as? Bool == true && long["end"] as? String == long["next"] as? String
                && long["next"] != nil, "40 %: \(long)")
        let during = object(long["duringDrag"])
        let dragged = number(long["dragged"]) ?? 0
        let width = number(during["stageWidth"]) ?? 0
        #expect(abs((number(during["photoLeft"]) ?? 0) + dragged) < 12, "the photo follows the finger: \(during)")
        #expect((number(during["neighbourLeft"]) ?? .infinity) < width, "the next photo slides in: \(during)")
        #expect(
            short["navigated"] as? Bool == false && short["end"] as? String == short["start"] as? String,
            "10 %: \(short)")
        #expect(abs(number(short["offsetAfter"]) ?? 1) < 1, "springs back: \(short)")
        #expect(down["end"] as? String == down["up"] as? String && down["up"] != nil, "drag down: \(down)")
        #expect(swipe["consoleErrors"] as? [String] == [], "\(swipe["consoleErrors"] ?? "")")
    }

    /// The whole home grid arrives by scrolling one document, the address follows the page in view
    /// (page/2/), nothing shifts, and Back puts the same photo at the same place.
    static func assertInfinite(_ scroll: [String: Any], layoutShifts: Bool = true) {
        #expect(
            number(scroll["tilesAtEnd"]) == number(scroll["expectedTiles"])
                && (number(scroll["expectedTiles"]) ?? 0) > (number(scroll["pageSize"]) ?? 0), "\(scroll)")
        #expect(scroll["sameDocument"] as? Bool == true)
        let urls = scroll["urls"] as? [String] ?? []
        #expect(urls.contains { $0.hasSuffix("/page/2/index.html") }, "addresses while scrolling: \(urls)")
        #expect(
            (scroll["urlWithPage2InView"] as? String ?? "").hasSuffix("/page/2/index.html"),
            "\(scroll["urlWithPage2InView"] ?? "")")
        if layoutShifts { #expect(number(scroll["cls"]) == 0, "layout shift: \(scroll["shifts"] ?? "")") }
        #expect(scroll["footerVisible"] as? Bool == true)
        #expect(scroll["urlAfterBack"] as? String == scroll["urlWithPage2InView"] as? String, "\(scroll)")
        let before = number(scroll["anchorTopBefore"]) ?? 0
        let after = number(scroll["anchorTopAfterBack"]) ?? .infinity
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
        #expect(
            show["labelPlaying"] as? String == show["pauseWords"] as? String
                && (show["pauseWords"] as? String)?.isEmpty == false, "\(show)")
        #expect(show["labelAfterKey"] as? String == "Play slideshow", "\(show)")
        #expect(
            show["gridStartsAt"] as? String == show["gridFirst"] as? String && show["gridPlaying"] as? Bool == true,
            "\(show)")
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
        #expect(
            (number(scrolled["fetched"]) ?? 0) >= 12 && all.1 > 0 && all.0 <= 1.3 * all.1,
            "whole grid at 390 px: \(all.0) bytes loaded, \(all.1) needed at DPR 3")
        for width in [360, 390, 430] {
            let grid = object(phone["phone-\(width)"])
            let loaded = number(grid["loadedBytes"]) ?? .infinity
            let needed = number(grid["neededBytes"]) ?? 0
            #expect(
                needed > 0 && loaded <= 1.3 * needed,
                "\(width) px: \(loaded) bytes loaded, \(needed) needed at DPR 3: \(grid["images"] ?? "")")
            let rows = (grid["rows"] as? [[String: Any]] ?? []).dropLast()
            let heights = rows.compactMap { number($0["height"]) }.sorted()
            let counts = rows.compactMap { number($0["count"]) }
            // Two 3:2 photos side by side are (width − gaps) / 3 tall: 114 px at 360, 124 px at 390.
            #expect(
                !heights.isEmpty && heights.allSatisfy { (100...260).contains($0) },
                "\(width) px row heights \(heights)")
            #expect(counts.filter { $0 <= 2 }.count * 2 >= counts.count, "\(width) px photos a row \(counts)")
        }
        #expect(
            (number(object(phone["phone-390"])["photoShare"]) ?? 0) >= 0.5,
            "first screen at 390×844: \(object(phone["phone-390"])["photoShare"] ?? "")")
        let captions = phone["captions"] as? [[String: Any]] ?? []
        #expect(!captions.isEmpty)
        for caption in captions {
            for part in caption["parts"] as? [[String: Any]] ?? [] {
                #expect(
                    part["inside"] as? Bool == true && part["clipped"] as? Bool == false, "caption cut off: \(part)")
                #expect((number(part["contrast"]) ?? 0) >= 4.5, "caption contrast: \(part)")
            }
        }
    }

    /// The next photo's page and preview are fetched after load, except with Save-Data on, on a 2G
    /// link or on a cellular one: then not a request for them reaches the server.
    static func assertSaveData(_ data: [String: Any]) {
        let normal = object(data["normal"])
        #expect(
            normal["saveData"] as? Bool == false && normal["effectiveType"] as? String == "4g"
                && normal["type"] is NSNull, "\(normal)")
        for (name, seen) in [
            ("saveData", { (c: [String: Any]) in c["saveData"] as? Bool == true }),
            ("2g", { $0["effectiveType"] as? String == "2g" }), ("cellular", { $0["type"] as? String == "cellular" })
        ] {
            let frugal = object(data[name])
            #expect(seen(frugal), "\(name): the page did not see the connection: \(frugal)")
            #expect(
                (frugal["prefetch"] as? [String]) == [] && (frugal["requested"] as? [String]) == [],
                "\(name): \(frugal)")
        }
        let next = normal["nextPage"] as? String
        #expect(next != nil && (normal["prefetch"] as? [String]) == [next!], "\(normal)")
        let requested = normal["requested"] as? [String] ?? []
        #expect(
            requested.contains { $0.hasSuffix(".jpg") || $0.hasSuffix(".webp") }
                && requested.contains { $0.hasSuffix("/index.html") },
            "next preview preloaded and page prefetched: \(normal)")
    }

    /// Without JavaScript: no script ran, the grid shows one page with its page links and footer,
    /// no viewer controls, and the photo is a link to the full-size file.
    static func assertNoScript(_ plain: [String: Any]) {
        #expect(plain["scriptRan"] as? Bool == false, "\(plain)")
        #expect((number(plain["gridTiles"]) ?? 0) > 0)
        #expect(
            plain["paginationVisible"] as? [Bool] == [true] && plain["footerVisible"] as? [Bool] == [true], "\(plain)")
        #expect(
            (plain["slideshowButton"] as? [Bool] ?? [true]).allSatisfy { !$0 }
                && (plain["toolbar"] as? [Bool] ?? [true]).allSatisfy { !$0 }, "\(plain)")
        #expect(
            plain["photoClickOpens"] as? String == plain["fullSizeHref"] as? String && plain["fullSizeHref"] != nil,
            "\(plain)")
    }

    /// Forward after Back, and Back after a photo, each loading the grid afresh (no back/forward
    /// cache): the address of the last page and its photo where it was, within 3 px, with no
    /// layout shift while the pages before it come back.
    static func assertBackForward(_ moves: [String: Any]) {
        let before = number(moves["anchorTopBefore"]) ?? .infinity
        let url = moves["urlBefore"] as? String ?? ""
        #expect(
            url.hasSuffix("/\(moves["lastPage"] as? String ?? "?")") && !url.hasSuffix("/page/2/index.html")
                && url.contains("/page/"), "\(moves)")
        for name in ["forward", "back"] {
            let arrival = object(moves[name])
            #expect(
                arrival["reloaded"] as? Bool == true && arrival["navigationType"] as? String == "back_forward",
                "\(name): \(arrival)")
            #expect(arrival["url"] as? String == url, "\(name): \(arrival)")
            #expect(
                abs((number(arrival["anchorTop"]) ?? 0) - before) <= 3,
                "\(name): the photo was at \(before), now \(arrival)")
            #expect(number(arrival["cls"]) == 0, "\(name): layout shift \(arrival["shifts"] ?? "")")
        }
        #expect(moves["consoleErrors"] as? [String] == [], "\(moves["consoleErrors"] ?? "")")
    }

    /// A drag of 18 % of the width (under the quarter that navigates by distance) navigates when
    /// flung and springs back when slow.
    static func assertFling(_ fling: [String: Any]) {
        let fast = object(fling["fast"])
        let slow = object(fling["slow"])
        #expect(
            fast["navigated"] as? Bool == true && fast["end"] as? String == fast["next"] as? String
                && fast["next"] != nil, "fling: \(fast)")
        #expect(
            slow["navigated"] as? Bool == false && slow["end"] as? String == slow["start"] as? String, "slow: \(slow)")
        #expect(fling["consoleErrors"] as? [String] == [], "\(fling["consoleErrors"] ?? "")")
    }

    /// Hidden for twice a photo's time, the slideshow stayed on its photo and kept playing; shown
    /// again, it went on after about a photo's time.
    static func assertHidden(_ hidden: [String: Any]) {
        let seconds = number(hidden["seconds"]) ?? 0
        #expect(
            hidden["visibility"] as? [String] == ["hidden", "visible"], "the tab was not hidden and shown: \(hidden)")
        #expect(
            hidden["samePage"] as? Bool == true && hidden["urlWhenShown"] as? String == hidden["start"] as? String,
            "moved on while hidden: \(hidden)")
        #expect(
            hidden["playing"] as? String == "true" && hidden["advanced"] as? Bool == true
                && hidden["after"] as? String != hidden["start"] as? String, "\(hidden)")
        #expect(
            (number(hidden["secondsAfterShown"]) ?? 0) >= seconds * 0.8,
            "went on too soon after it was shown: \(hidden)")
        #expect(hidden["consoleErrors"] as? [String] == [], "\(hidden["consoleErrors"] ?? "")")
    }

    /// Zooming in by the + key: at each scale the viewer lays the smallest file sharp enough
    /// (frame width × scale × DPR) over the preview, from the srcset the preview came from, then
    /// the original once no srcset file is; each in the frame's box; and no other file larger than
    /// the preview is fetched.
    static func assertZoomSteps(_ zoom: [String: Any]) {
        let srcset = (zoom["srcset"] as? [[String: Any]] ?? []).map {
            ($0["src"] as? String ?? "", number($0["width"]) ?? 0)
        }
        let original = object(zoom["original"])
        let files = (srcset + [(original["src"] as? String ?? "", number(original["width"]) ?? 0)]).sorted {
            $0.1 < $1.1
        }
        let frame = number(zoom["frameWidth"]) ?? 0
        let density = number(zoom["dpr"]) ?? 1
        var have = srcset.first { $0.0 == zoom["preview"] as? String }?.1 ?? 0
        var expected: [String] = []
        let steps = zoom["steps"] as? [[String: Any]] ?? []
        #expect(have > 0 && steps.count == 8, "\(zoom)")
        for step in steps {
            let need = frame * (number(step["scale"]) ?? 0) * density
            let larger = files.filter { $0.1 > have }
            if need > have, let file = larger.first(where: { $0.1 >= need }) ?? larger.last {
                expected.append(file.0)
                have = file.1
            }
            let laid = step["hires"] as? [[String: Any]] ?? []
            #expect(
                laid.map { $0["src"] as? String ?? "" } == expected,
                "at \(step["scale"] ?? 0)×: \(laid), expected \(expected)")
            #expect(laid.allSatisfy { (number($0["offset"]) ?? 1) <= 0.5 }, "not in the frame's box: \(laid)")
        }
        #expect(
            expected.count >= 2 && expected.last == original["src"] as? String,
            "a srcset size, then the original: \(expected)")
        let preview = srcset.first { $0.0 == zoom["preview"] as? String }?.1 ?? 0
        let fetchedLarger = (zoom["fetched"] as? [String] ?? []).filter { url in
            files.contains { $0.0 == url && $0.1 > preview }
        }
        #expect(fetchedLarger == expected, "files fetched past the preview: \(fetchedLarger)")
        #expect(zoom["consoleErrors"] as? [String] == [], "\(zoom["consoleErrors"] ?? "")")
    }
}
