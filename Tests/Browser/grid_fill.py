#!/usr/bin/env python3
"""The first screen is never half empty (issue 45, part 5), in Chromium, Firefox ESR or WebKitGTK.
It prints one JSON object; GridFillBrowserTests.swift asserts on it, this script only measures.

- screens: the home grid of the sample (6 photos a page) opened afresh and never scrolled, on
  screens of 1366x900, 1920x1080 and 2560x1440, each full-screen and as a maximised window
  (147 px less: the issue's 1366x900 screen gave a view 753 px tall, in which one row of 4
  photos was shown over 400 px of blank while page 2 waited for a scroll). Once nothing more
  comes (the tiles and requests unchanged for 1.5 s): the bottom of the rows on show, what is on
  show below them, the pages in the grid and the requests for each page.
- grow: opened where its first page fills the view (1366x280), then the window made 1920x1080.
- failed: page 2 answered 503, in the 753 px view: how many times it was asked for, and whether
  the page links, the footer and the retry link are on show.
- plain (Chromium): JavaScript off, the same view: the page links and the footer, no page fetched.

usage: grid_fill.py --engine chromium|firefox|webkit --site DIR
"""
import argparse
import functools
import http.server
import json
import os
import re
import threading
import time
import urllib.parse
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_support  # noqa: E402
from site_restore import Engine  # noqa: E402

SCREENS = ((1366, 900), (1920, 1080), (2560, 1440))
# The 1366x900 screen gave a view of 1366x753: the system's bar and the browser's own.
WINDOW_CHROME = 147

# The grid as it stands: its rows on show, what is on show below them, its pages.
MEASURE = """
const html = document.documentElement, grid = document.querySelector('main div.grid');
const tiles = Array.from(grid.querySelectorAll(':scope > .tile'));
const visible = e => !!e && getComputedStyle(e).visibility === 'visible' && getComputedStyle(e).display !== 'none';
const shown = tiles.filter(visible);
const bottom = shown.length ? Math.max(...shown.map(t => t.getBoundingClientRect().bottom)) : grid.getBoundingClientRect().top;
// The blank under the rows: down to the first thing on show below them, or to the window's bottom.
const below = ['main nav.pagination', '.more-error', '.site-footer'].map(css => document.querySelector(css))
  .filter(visible).map(e => e.getBoundingClientRect().top).filter(top => top >= bottom - 1);
const blank = Math.max(0, Math.min(innerHeight, ...below) - bottom);
// The last page in the grid: where its first tile's row starts, and the bottom of the rows of
// earlier pages above that row (on show before it came, at most).
const page = t => Number(t.getAttribute('data-page') || 0), last = Math.max(0, ...tiles.map(page));
const first = tiles.find(t => page(t) === last), rowTop = first ? first.getBoundingClientRect().top : 0;
const earlier = tiles.filter(t => page(t) < last && t.getBoundingClientRect().top < rowTop - 1);
const nav = document.querySelector('main nav.pagination');
return {viewport: [innerWidth, innerHeight], scrollY: scrollY, tiles: tiles.length, shown: shown.length,
        pending: tiles.length - shown.length, pagesInGrid: last + 1, all: html.classList.contains('all'),
        shownBottom: bottom, blank: blank, earlierBottom: earlier.length ? Math.max(...earlier.map(t => t.getBoundingClientRect().bottom)) : null,
        pageLinks: visible(nav), nextLink: !!(nav && nav.querySelector('a[rel="next"]')),
        footer: visible(document.querySelector('.site-footer')), error: visible(document.querySelector('.more-error'))};
"""


def serve(engine, folder, failing=()):
    """The site on a loopback port (WebKit's server adds its error collector), answering 503 for
    paths that end with one of `failing`; it lists every grid page asked for, prefetches apart
    (Firefox prefetches a page's link rel=next, which is not the script asking)."""
    import webkit_support
    handler = webkit_support.CollectingHandler if engine == "webkit" else site_support.QuietHandler
    asked = []

    class Recording(handler):
        def send_head(self):
            path = urllib.parse.unquote(urllib.parse.urlparse(self.path).path)
            purpose = " ".join(self.headers.get(h, "") for h in ("Sec-Purpose", "Purpose", "X-Moz"))
            if re.search(r"(^/|/page/\d+/)(index\.html)?$", path):
                asked.append(path + (" (prefetch)" if "prefetch" in purpose else ""))
            if any(path.endswith(end) for end in failing):
                self.send_error(503, "Unavailable for the test")
                return None
            return super().send_head()

        def end_headers(self):
            # Every page asked of the server each time: a page the browser kept would not be counted.
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Recording, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1], asked


def quiet(driver, asked, timeout=20):
    """Waits until the grid's tiles and the requests have not changed for 1.5 s."""
    seen, since, start = None, time.time(), time.time()
    while time.time() - start < timeout:
        now = (driver.execute_script("return document.querySelectorAll('main div.grid > .tile').length"), len(asked))
        if now != seen:
            seen, since = now, time.time()
        elif time.time() - since >= 1.5:
            return True
        time.sleep(0.25)
    return False


def requests_by_page(asked):
    """How many times each grid page was asked for, by its number ("2 (prefetch)": a prefetch)."""
    counts = {}
    for path in asked:
        match = re.search(r"/page/(\d+)/", path)
        number = (match.group(1) if match else "1") + (" (prefetch)" if path.endswith("(prefetch)") else "")
        counts[number] = counts.get(number, 0) + 1
    return counts


def open_grid(engine, base, asked, width, height):
    viewport(engine, width, height)
    engine.driver.get("about:blank")
    del asked[:]
    engine.driver.get(base + "index.html")
    site_support.settle(engine.driver)
    settled = quiet(engine.driver, asked)
    result = engine.driver.execute_script(MEASURE)
    result.update({"asked": [width, height], "settled": settled, "requests": requests_by_page(asked)})
    return result


def viewport(engine, width, height):
    """The view exactly width x height: Chromium's device metrics; the window sized until the view
    is that in Firefox and WebKit (webkit_support's loop works for any WebDriver window)."""
    if engine.name == "chromium":
        site_support.viewport(engine.driver, width, height)
    else:
        import webkit_support
        webkit_support.viewport(engine.driver, width, height)


def screens(engine, base, asked):
    result = {}
    for width, height in SCREENS:
        for name, view in (("full", height), ("window", height - WINDOW_CHROME)):
            run = open_grid(engine, base, asked, width, view)
            run["consoleErrors"] = engine.errors(engine.driver)
            result["%dx%d %s" % (width, height, name)] = run
    return result


def grow(engine, base, asked):
    """From a view the first page fills to a larger one: the grid fills the larger view too."""
    before = open_grid(engine, base, asked, 1366, 280)
    viewport(engine, 1920, 1080)
    settled = quiet(engine.driver, asked)
    after = engine.driver.execute_script(MEASURE)
    after.update({"asked": [1920, 1080], "settled": settled, "requests": requests_by_page(asked)})
    return {"before": before, "after": after, "consoleErrors": engine.errors(engine.driver)}


def failed(engine, site):
    """Page 2 cannot be fetched: asked for once, and the page links come back with a retry link."""
    server, base, asked = serve(engine.name, site, failing=("/page/2/index.html",))
    try:
        run = open_grid(engine, base, asked, 1366, 900 - WINDOW_CHROME)
        time.sleep(2)  # a loop of retries would show here
        run["requestsLater"] = requests_by_page(asked)
        engine.errors(engine.driver)  # the failed request's own message, expected here
        return run
    finally:
        server.shutdown()


def plain(site):
    """JavaScript off (Chromium): the first page with its page links, nothing fetched."""
    import viewer_support
    driver = viewer_support.chromium(prefs={"profile.managed_default_content_settings.javascript": 2})
    server, base, asked = serve("chromium", site)
    try:
        site_support.viewport(driver, 1366, 900 - WINDOW_CHROME)
        driver.get(base + "index.html")
        site_support.settle(driver)
        time.sleep(1)
        run = driver.execute_script(MEASURE.replace("return {", "return {script: !!window.galleryGrid, "))
        run["requests"] = requests_by_page(asked)
        run["tilesInHTML"] = len(re.findall(r'<a class="tile"', open(os.path.join(site, "index.html"), encoding="utf-8").read()))
        return run
    finally:
        driver.quit()
        server.shutdown()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("chromium", "firefox", "webkit"), required=True)
    parser.add_argument("--site", required=True, help="the sample site (6 photos a page)")
    args = parser.parse_args()
    site = os.path.abspath(args.site)
    pages = 1 + len([n for n in os.listdir(os.path.join(site, "page")) if n.isdigit()])
    tiles = sum(len(re.findall(r'<a class="tile"', open(os.path.join(site, p), encoding="utf-8").read()))
                for p in ["index.html"] + ["page/%d/index.html" % n for n in range(2, pages + 1)])
    report = {"engine": args.engine, "pages": pages, "photos": tiles}
    engine = Engine(args.engine, True)
    server, base, asked = serve(args.engine, site)
    try:
        report["version"] = engine.driver.capabilities.get("browserVersion")
        report["screens"] = screens(engine, base, asked)
        report["grow"] = grow(engine, base, asked)
        report["failed"] = failed(engine, site)
    finally:
        engine.driver.quit()
        server.shutdown()
    if args.engine == "chromium":
        report["plain"] = plain(site)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
