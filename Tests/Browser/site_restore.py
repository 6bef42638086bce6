#!/usr/bin/env python3
"""Back puts the reader where they were (issue 29, fault 1), in Chromium, Firefox ESR or WebKitGTK,
with the browser's back/forward cache on and off. It prints one JSON object; RestoreBrowserTests
(WebKitBrowserTests.swift) asserts on it, this script only measures.

- grid: the home grid at 390x844 with infinite scroll; scrolled until page 2 is in, a row of page 2
  at the middle of the view (the address becomes page/2/); its photo opened, then Back: the address
  and the tile's place on screen before and after.
- albums: an album page without infinite scroll (the tallest album of --album-site), scrolled to
  1105 px (or as far as it goes); a photo on screen opened, then Back: scrollY.

The back/forward cache off: Chromium's --disable-back-forward-cache, Firefox's
browser.sessionhistory.max_total_viewers = 0, WebKit's page cache setting (enable-page-cache).
"cached" says whether Back brought the same document back (a flag set before leaving survives).

usage: site_restore.py --engine chromium|firefox|webkit --site DIR [--album-site DIR] [--cache on,off]
"""
import argparse
import json
import os
import re
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import site_support  # noqa: E402
from site_support import settle  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

TILE_TOP = ("const a = Array.from(document.querySelectorAll('.grid > .tile')).find(t => t.href === arguments[0]);"
            " return a ? a.getBoundingClientRect().top : null;")
# The audit's album places were 220 and 1105 px; one place, as deep as the album goes up to 1105 px,
# keeps the three engines x two cache settings within the suite's time (both failed alike).
ALBUM_SCROLLS = (1105,)


class Engine:
    """One browser with its own viewport and console-error helpers, and its server (WebKit's adds
    an error collector to every page, for want of a console log)."""

    def __init__(self, name, cache):
        self.name = name
        if name == "chromium":
            flags = () if cache else ("--disable-back-forward-cache",)
            import viewer_support
            self.driver = viewer_support.chromium(*flags)
            self.viewport, self.errors, self.serve = site_support.viewport, site_support.console_errors, site_support.serve
        elif name == "firefox":
            import check_viewer_firefox as gecko
            self.driver = gecko.browser(prefs=None if cache else {"browser.sessionhistory.max_total_viewers": 0})
            self.viewport, self.errors, self.serve = gecko.viewport, gecko.console_errors, site_support.serve
        else:
            import webkit_support as webkit
            self.driver = webkit.browser(page_cache=cache)
            self.viewport, self.errors, self.serve = webkit.viewport, webkit.console_errors, webkit.serve


def tiles_of(site, page):
    return re.findall(r'class="tile" href="([^"]+)"', open(os.path.join(site, page), encoding="utf-8").read())


def quiet(driver):
    """Waits (up to 10 s) until no image of the page is still loading. Firefox keeps no page in its
    back/forward cache while one of its requests is in flight, so a lazy image still on its way (seen
    on the loaded CI machine) would turn a run with the cache on into one without it."""
    try:
        WebDriverWait(driver, 10).until(lambda d: d.execute_script(
            "return Array.from(document.images).every(i => i.complete)"))
    except TimeoutException:
        pass
    return driver.execute_script("return Array.from(document.images).filter(i => !i.complete).length")


def back(engine):
    """Back, then the page settled and its own scripts given time to put the view back."""
    driver = engine.driver
    driver.back()
    settle(driver)
    time.sleep(1.0)


def grid(engine, site, base):
    driver = engine.driver
    engine.viewport(driver, 390, 844, mobile=True)
    driver.get(base + "index.html")
    settle(driver)
    page2 = [urllib.parse.urljoin(base + "page/2/index.html", href) for href in tiles_of(site, "page/2/index.html")]
    for _ in range(80):  # scroll until a tile of page 2 that starts a row is below the middle of the view
        driver.execute_script("window.scrollBy(0, 200)")
        time.sleep(0.15)
        if driver.execute_script("""
            const tiles = Array.from(document.querySelectorAll('.grid > .tile'));
            return tiles.some((t, i) => arguments[0].includes(t.href) && i > 0 &&
                              Math.abs(tiles[i - 1].getBoundingClientRect().top - t.getBoundingClientRect().top) > 2 &&
                              t.getBoundingClientRect().top > innerHeight / 2);""", page2):
            break
    anchor = driver.execute_script("""
      const tiles = Array.from(document.querySelectorAll('.grid > .tile'));
      const start = tiles.find((t, i) => arguments[0].includes(t.href) && i > 0 &&
                               Math.abs(tiles[i - 1].getBoundingClientRect().top - t.getBoundingClientRect().top) > 2);
      scrollTo(0, scrollY + start.getBoundingClientRect().top - innerHeight / 2 + 5);
      return start.href;""", page2)
    time.sleep(0.8)  # the address follows the page in view after 200 ms of quiet
    result = {"anchor": anchor, "urlBefore": driver.current_url, "topBefore": driver.execute_script(TILE_TOP, anchor),
              "scrollBefore": driver.execute_script("return scrollY")}
    result["loadingBefore"] = quiet(driver)
    driver.execute_script("window.__sameDocument = true")
    driver.get(anchor)
    settle(driver)
    back(engine)
    result.update(after(driver))
    result["topAfter"] = driver.execute_script(TILE_TOP, anchor)
    result["consoleErrors"] = engine.errors(driver)
    return result


def after(driver):
    return {"urlAfter": driver.current_url, "scrollAfter": driver.execute_script("return scrollY"),
            "cached": driver.execute_script("return window.__sameDocument === true")}


def tallest_album(site):
    albums = []
    for folder, _, files in os.walk(os.path.join(site, "albums")):
        page = os.path.relpath(os.path.join(folder, "index.html"), site)
        if "index.html" in files and page != os.path.join("albums", "index.html"):
            html = open(os.path.join(site, page), encoding="utf-8").read()
            if 'rel="next"' not in html:  # the whole album on one page: no infinite scroll
                albums.append((len(tiles_of(site, page)), page))
    return max(albums)[1] if albums else None


def album(engine, base, page, scroll):
    driver = engine.driver
    engine.viewport(driver, 390, 844, mobile=True)
    driver.get(base + page)
    settle(driver)
    driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
    time.sleep(0.8)
    result = {"page": page, "asked": scroll, "scrollBefore": driver.execute_script("return scrollY"),
              "urlBefore": driver.current_url,
              "maxScroll": driver.execute_script("return document.documentElement.scrollHeight - innerHeight")}
    # The photo most of whose tile is on screen.
    photo = driver.execute_script("""
      const shown = t => { const r = t.getBoundingClientRect(); return Math.min(r.bottom, innerHeight) - Math.max(r.top, 0); };
      return Array.from(document.querySelectorAll('.grid > .tile')).sort((a, b) => shown(b) - shown(a))[0].href;""")
    result["loadingBefore"] = quiet(driver)
    driver.execute_script("window.__sameDocument = true")
    driver.get(photo)
    settle(driver)
    back(engine)
    result.update(after(driver))
    result["consoleErrors"] = engine.errors(driver)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", choices=("chromium", "firefox", "webkit"), required=True)
    parser.add_argument("--site", required=True, help="a site whose home grid has a page 2 (the sample)")
    parser.add_argument("--album-site", help="a site with an album taller than two screens (default: --site)")
    parser.add_argument("--cache", default="on,off", help="back/forward cache settings to run: on, off or both")
    args = parser.parse_args()
    site, album_site = os.path.abspath(args.site), os.path.abspath(args.album_site or args.site)
    report = {"engine": args.engine}
    for cache in args.cache.split(","):
        engine = Engine(args.engine, cache == "on")
        servers = []
        try:
            report["version"] = engine.driver.capabilities.get("browserVersion")
            server, base = engine.serve(site)
            servers.append(server)
            run = {"grid": grid(engine, site, base), "albums": []}
            page = tallest_album(album_site)
            if page:
                server, album_base = engine.serve(album_site)
                servers.append(server)
                run["albums"] = [album(engine, album_base, page, scroll) for scroll in ALBUM_SCROLLS]
            report[cache] = run
        finally:
            engine.driver.quit()
            for server in servers:
                server.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
