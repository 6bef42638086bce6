#!/usr/bin/env python3
"""Checks the viewer of a built galleryssg site (issue 14) in headless Chromium: zoom and pan on the
photo page and the files it steps through, the swipe that follows the finger and a fling, infinite
scroll on grids with Back and Forward, the slideshow (in a hidden tab too), what a photo page
fetches on Save-Data, 2G and cellular links, the phone grid at 390x844 (DPR 3), the site with
JavaScript off, and axe-core 4.x. It prints one JSON object; ViewerBrowserTests.swift asserts on
it, this script only measures. With --browser firefox, the checks that need no Chromium-only tool
run in Firefox ESR instead (check_viewer_firefox.py); with --browser webkit, the same ones in
WebKitGTK's MiniBrowser (webkit_support.py).

The checks live in one file per feature: viewer_zoom.py, viewer_swipe.py, viewer_scroll.py,
viewer_slideshow.py and viewer_phone.py, with what they share in viewer_support.py. The justified
grid's checks (issue 29, grid_flow.py: flow, stall, pages, gridRows, plainRows) run only when
--only names them (GridFlowBrowserTests.swift).

usage: check_viewer.py --site DIR [--axe AXE.MIN.JS] [--only PARTS] [--browser chromium|firefox|webkit]
"""
import argparse
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grid_flow  # noqa: E402
import viewer_phone  # noqa: E402
import viewer_scroll  # noqa: E402
import viewer_slideshow  # noqa: E402
import viewer_support as support  # noqa: E402
import viewer_swipe  # noqa: E402
import viewer_zoom  # noqa: E402

# What runs in Firefox ESR: the checks that need no Chromium-only tool (CDP, DPR 3, Save-Data,
# Chromium's flag that turns its back/forward cache off).
FIREFOX_PARTS = {"zoom", "swipe", "infinite", "slideshow", "fling", "hidden", "flow", "stall", "pages", "gridRows"}
# What runs in WebKitGTK: the same but "hidden". MiniBrowser opens a new tab as a window of its own,
# and with no window manager (Xvfb) a window is never covered, so the first page never becomes
# hidden. CLS is not measured there either (no layout-shift entries); see webkit_support.py.
WEBKIT_PARTS = FIREFOX_PARTS - {"hidden"}


def grid_pages():
    """The home grid and every album's first page (grid_flow.rows measures their rows)."""
    albums = os.path.exists(support.site_path("albums", "index.html")) and support.read(os.path.join("albums", "index.html")) or ""
    return ["index.html"] + sorted(set(re.findall(r'href="(?:\.\./)?(albums/[^"#]+/index\.html)"', albums)))


def parts(driver, base, photo):
    """Every part of the report by name, in the order they run."""
    return (("zoom", lambda: viewer_zoom.zoom(driver, base, photo)),
            ("gestures", lambda: viewer_zoom.gestures(driver, base, photo)),
            ("swipe", lambda: viewer_swipe.swipes(driver, base, photo)),
            ("infinite", lambda: viewer_scroll.infinite(driver, base)),
            ("retry", lambda: viewer_scroll.retry(driver, base)),
            ("slideshow", lambda: viewer_slideshow.slideshow(driver, base, photo)),
            ("phone", lambda: viewer_phone.phone(driver, base)),
            ("saveData", lambda: viewer_slideshow.save_data(driver, base, photo)),
            ("zoomSteps", lambda: viewer_zoom.ladder(driver, base, photo)),
            ("fling", lambda: viewer_swipe.fling(driver, base, photo)),
            ("backForward", lambda: viewer_scroll.back_and_forward(base, photo)),
            ("hidden", lambda: viewer_slideshow.hidden(driver, base, photo)),
            # The justified grid (issue 29): grid_flow.py; not run by default (--only names them).
            ("flow", lambda: grid_flow.flow(driver, base)),
            ("stall", lambda: grid_flow.stall(driver, base)),
            ("pages", lambda: grid_flow.pages(driver, base)),
            ("gridRows", lambda: grid_flow.rows(driver, base, grid_pages())))

# Parts that run only when --only names them (long, or measuring rather than checking the viewer).
OPT_IN = {"flow", "stall", "pages", "gridRows", "plainRows"}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--axe", help="axe.min.js (4.x), from the axe-playwright-python wheel")
    parser.add_argument("--only", help="comma-separated parts to run (default: all)")
    parser.add_argument("--browser", choices=("chromium", "firefox", "webkit"), default="chromium")
    args = parser.parse_args()
    support.SITE = os.path.abspath(args.site)
    only = set(args.only.split(",")) if args.only else None
    if args.browser == "webkit":
        support.use_webkit()  # its server adds the error collector that stands in for a console log
    server, base = support.serve(support.SITE)
    index = json.loads(support.read("search.json"))
    # A photo page with a previous and a next photo: the second of the home order.
    photo = re.findall(r'class="tile" href="(photos/[^"]+)"', support.read("index.html"))[1]
    report = {"photo": photo, "photos": len(index["photos"])}
    if args.browser == "firefox":
        only = (only or FIREFOX_PARTS - OPT_IN) & FIREFOX_PARTS
        driver = support.use_firefox()
    elif args.browser == "webkit":
        only = (only or WEBKIT_PARTS - OPT_IN) & WEBKIT_PARTS
        driver = support.webkit_browser()
    else:
        driver = support.browser()
    want = lambda part: (only is None and part not in OPT_IN) or (only is not None and part in only)  # noqa: E731
    try:
        report[args.browser] = driver.capabilities.get("browserVersion")
        for name, run in parts(driver, base, photo):
            if want(name):
                report[name] = run()
        if want("axe") and args.axe:
            with open(args.axe, encoding="utf-8") as file:
                report["axe"] = viewer_phone.axe(driver, base, photo, file.read())
    finally:
        driver.quit()
    if want("plainRows"):
        plain = support.chromium(prefs={"profile.managed_default_content_settings.javascript": 2})
        try:
            report["plainRows"] = grid_flow.plain_rows(plain, base, grid_pages())
        finally:
            plain.quit()
    if want("noScript"):
        report["noScript"] = viewer_phone.no_script(base, photo)
    server.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
