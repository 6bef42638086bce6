#!/usr/bin/env python3
"""Checks the viewer of a built galleryssg site (issue 14) in headless Chromium: zoom and pan on the
photo page, the swipe that follows the finger, infinite scroll on grids, the slideshow, the phone
grid at 390x844 (DPR 3), the site with JavaScript off, and axe-core 4.x. It prints one JSON object;
ViewerBrowserTests.swift asserts on it, this script only measures. With --browser firefox, the zoom,
swipe, infinite scroll and slideshow checks run in Firefox ESR instead (check_viewer_firefox.py).

usage: check_viewer.py --site DIR [--axe AXE.MIN.JS] [--only PARTS] [--browser chromium|firefox]
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
from check_site import browser, console_errors, serve, settle, viewport  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

ZOOM_STATE = """
const stage = document.querySelector('.stage'), frame = stage.querySelector('.full'), img = frame.querySelector('img.main');
const s = stage.getBoundingClientRect(), f = frame.getBoundingClientRect(), hires = frame.querySelector('.hires');
return {scale: f.width / s.width, covers: f.left <= s.left + 0.5 && f.top <= s.top + 0.5 && f.right >= s.right - 0.5 && f.bottom >= s.bottom - 0.5,
        left: f.left - s.left, top: f.top - s.top,
        mainFile: (img.getAttribute('srcset') || '').split(',').map(e => e.trim().split(/\s+/)).filter(e => new URL(e[0], document.baseURI).href === img.currentSrc).map(e => parseInt(e[1], 10))[0] || img.naturalWidth,
        hiresNatural: hires && hires.complete ? hires.naturalWidth : 0, hiresSrc: hires ? hires.currentSrc : null, url: location.href};
"""


def state(driver):
    """The zoom state once the zoom's transition has ended."""
    wait(driver, "return document.getAnimations().every(a => a.playState !== 'running')", 5)
    return driver.execute_script(ZOOM_STATE)


def wait(driver, script, timeout=10):
    try:
        WebDriverWait(driver, timeout).until(lambda d: d.execute_script(script))
        return True
    except Exception:
        return False


def zoom(driver, base, photo):
    """Double-click zooms and loads a larger file, a drag pans inside the frame, Esc zooms out."""
    viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    main = driver.find_element(By.CSS_SELECTOR, ".stage img.main")
    result = {"before": state(driver)}
    ActionChains(driver).double_click(main).perform()
    time.sleep(0.6)
    result["afterDoubleClick"] = state(driver)
    wait(driver, "const h = document.querySelector('.stage .hires'); return h && h.complete && h.naturalWidth > 0", 15)
    result["afterLoad"] = state(driver)
    ActionChains(driver).move_to_element(main).click_and_hold().move_by_offset(-120, -60).move_by_offset(-60, -30).release().perform()
    time.sleep(0.3)
    result["afterDrag"] = state(driver)
    for _ in range(3):  # further than the photo reaches: it stops at its edges
        ActionChains(driver).move_to_element(main).click_and_hold().move_by_offset(500, 300).release().perform()
        time.sleep(0.3)
    result["afterFarDrag"] = state(driver)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    time.sleep(0.6)
    result["afterEscape"] = state(driver)
    ActionChains(driver).send_keys("+").perform()
    time.sleep(0.6)
    result["afterPlus"] = state(driver)
    ActionChains(driver).send_keys("0").perform()
    time.sleep(0.6)
    result["afterZero"] = state(driver)
    result["consoleErrors"] = console_errors(driver)
    return result


def gestures(driver, base, photo):
    """A two-finger pinch (CDP touch points), ctrl+wheel (a trackpad pinch) and the full-screen button."""
    result = {}
    viewport(driver, 390, 844, mobile=True)
    touch_emulation(driver, True)
    driver.get(base + photo)
    settle(driver)
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    touch(driver, "touchStart", [{"x": cx - 30, "y": cy, "id": 1}, {"x": cx + 30, "y": cy, "id": 2}])
    for i in range(1, 9):
        time.sleep(0.04)
        spread = 30 + 60 * i / 8  # the fingers end 3 times as far apart
        touch(driver, "touchMove", [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}])
    time.sleep(0.1)
    touch(driver, "touchEnd", [])
    time.sleep(0.4)
    result["pinch"] = state(driver)
    result["pinchPageScale"] = driver.execute_script("return visualViewport.scale")
    touch_emulation(driver, False)
    viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    for kind in ("mouseMoved", "mouseWheel"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": cx, "y": cy, "deltaX": 0, "deltaY": -100, "modifiers": 2})
    time.sleep(0.4)
    result["wheel"] = state(driver)
    result["wheelPageScale"] = driver.execute_script("return visualViewport.scale")
    driver.get(base + photo)
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, ".viewer-tools .fullscreen").click()
    wait(driver, "return !!document.fullscreenElement", 5)
    result["fullscreen"] = driver.execute_script(
        "return {element: document.fullscreenElement ? document.fullscreenElement.className : null,"
        " pressed: document.querySelector('.viewer-tools .fullscreen').getAttribute('aria-pressed')}")
    driver.execute_script("if (document.fullscreenElement) { document.exitFullscreen(); }")
    result["consoleErrors"] = console_errors(driver)
    return result


def touch_emulation(driver, on):
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": on, "maxTouchPoints": 2} if on else {"enabled": False})


def touch(driver, kind, points):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def drag(driver, x0, y0, x1, y1, steps, pause, hold=0.0, probe=None):
    """A one-finger CDP touch drag in `steps` moves `pause` seconds apart; `probe` runs mid-way."""
    touch(driver, "touchStart", [{"x": x0, "y": y0}])
    seen = None
    for i in range(1, steps + 1):
        time.sleep(pause)
        touch(driver, "touchMove", [{"x": x0 + (x1 - x0) * i / steps, "y": y0 + (y1 - y0) * i / steps}])
        if probe and i == steps:
            time.sleep(0.1)  # touch moves reach the page with the next frame
            seen = driver.execute_script(probe)
    time.sleep(hold)
    touch(driver, "touchEnd", [])
    return seen


SWIPE_PROBE = """
const stage = document.querySelector('.stage'), s = stage.getBoundingClientRect();
const main = stage.querySelector('img.main').getBoundingClientRect(), side = stage.querySelector('.side.next');
const r = side ? side.getBoundingClientRect() : null;
return {photoLeft: main.left - s.left, neighbourLeft: r ? r.left - s.left : null, stageWidth: s.width};
"""


def swipes(driver, base, photo):
    """Touch drags of 40 % and 10 % of the width, and one downwards."""
    viewport(driver, 390, 844, mobile=True)
    touch_emulation(driver, True)
    result = {}
    for name, share in (("long", 0.4), ("short", 0.1)):
        driver.get(base + photo)
        settle(driver)
        start = driver.current_url
        expected = driver.execute_script("var a = document.querySelector('.photo-nav a[rel=next]'); return a ? a.href : null")
        box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
        y = box[1] + box[3] / 2
        x0 = box[0] + box[2] * 0.75
        steps = 8 if share > 0.2 else 6
        seen = drag(driver, x0, y, x0 - box[2] * share, y + 3, steps, 0.05, hold=0.3, probe=SWIPE_PROBE)
        moved = wait(driver, "return location.href !== %s" % json.dumps(start), 4)
        if moved:
            settle(driver)
        time.sleep(0.5)
        result[name] = {"start": start, "end": driver.current_url, "next": expected, "navigated": moved, "duringDrag": seen,
                        "dragged": box[2] * share,
                        "offsetAfter": driver.execute_script(
                            "return document.querySelector('.stage img.main').getBoundingClientRect().left - document.querySelector('.stage').getBoundingClientRect().left")}
    driver.get(base + photo)
    settle(driver)
    start = driver.current_url
    up = driver.execute_script("return document.querySelector('.photo-nav .up').href")
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    drag(driver, box[0] + box[2] / 2, box[1] + box[3] / 2, box[0] + box[2] / 2 + 4, box[1] + box[3] * 0.9, 8, 0.04)
    wait(driver, "return location.href !== %s" % json.dumps(start), 4)
    settle(driver)  # Firefox reports about:blank as the address while the next page loads
    result["down"] = {"end": driver.current_url, "up": up}
    touch_emulation(driver, False)
    result["consoleErrors"] = console_errors(driver)
    return result


TILE_TOP = "const a = Array.from(document.querySelectorAll('.grid > .tile')).find(t => t.href === arguments[0]); return a ? a.getBoundingClientRect().top : null;"


def infinite(driver, base):
    """Scrolls the sample grid to the end: later pages' tiles join it, the address follows, Back returns."""
    viewport(driver, 390, 844, mobile=True)
    driver.get(base + "index.html")
    settle(driver)
    driver.execute_script("window.__sameDocument = true")
    pages = ["index.html"] + ["page/%d/index.html" % n for n in range(2, 1000) if os.path.exists(os.path.join(SITE, "page/%d/index.html" % n))]
    expected = sum(len(re.findall(r'<a class="tile"', open(os.path.join(SITE, p), encoding="utf-8").read())) for p in pages)
    result = {"tilesAtStart": driver.execute_script("return document.querySelectorAll('.grid > .tile').length"),
              "expectedTiles": expected, "pageSize": len(re.findall(r'<a class="tile"', open(os.path.join(SITE, "index.html"), encoding="utf-8").read())),
              "urls": []}
    for _ in range(200):
        driver.execute_script("window.scrollBy(0, 250)")
        time.sleep(0.12)
        url = driver.current_url
        if url not in result["urls"]:
            result["urls"].append(url)
        if driver.execute_script("return document.documentElement.classList.contains('all') && innerHeight + scrollY >= document.documentElement.scrollHeight - 2"):
            break
    time.sleep(0.5)
    result["tilesAtEnd"] = driver.execute_script("return document.querySelectorAll('.grid > .tile').length")
    result["sameDocument"] = driver.execute_script("return window.__sameDocument === true")
    result["cls"] = driver.execute_script("return window.__cls")
    result["shifts"] = driver.execute_script("return window.__shifts")
    result["footerVisible"] = driver.execute_script("return getComputedStyle(document.querySelector('.site-footer')).visibility === 'visible'")
    result["urlAtEnd"] = driver.current_url
    # A tile of page 2 that starts its row, at the middle of the view: the address becomes page/2/.
    page2 = [urllib.parse.urljoin(base + "page/2/index.html", href) for href in
             re.findall(r'class="tile" href="([^"]+)"', open(os.path.join(SITE, "page/2/index.html"), encoding="utf-8").read())]
    anchor = driver.execute_script("""
      const tiles = Array.from(document.querySelectorAll('.grid > .tile'));
      const start = tiles.find((t, i) => arguments[0].includes(t.href) && i > 0 &&
                               Math.abs(tiles[i - 1].getBoundingClientRect().top - t.getBoundingClientRect().top) > 2);
      scrollTo(0, scrollY + start.getBoundingClientRect().top - innerHeight / 2 + 5);
      return start.href;""", page2)
    time.sleep(0.8)
    result["urlWithPage2InView"] = driver.current_url
    result["anchor"] = anchor
    result["anchorTopBefore"] = driver.execute_script(TILE_TOP, anchor)
    driver.get(anchor)
    settle(driver)
    driver.back()
    settle(driver)
    time.sleep(0.5)
    result["urlAfterBack"] = driver.current_url
    result["anchorTopAfterBack"] = driver.execute_script(TILE_TOP, anchor)
    result["consoleErrors"] = console_errors(driver)
    return result


def retry(driver, base):
    """A next page that cannot be fetched: the page links and footer come back with a retry link,
    which appends the tiles once the page can be fetched again."""
    viewport(driver, 390, 844, mobile=True)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/page/2/index.html"]})
    driver.get(base + "index.html")
    settle(driver)
    driver.execute_script("window.scrollBy(0, 200)")
    shown = wait(driver, "return !!document.querySelector('.more-error a')", 10)
    visible = lambda css: driver.execute_script("return getComputedStyle(document.querySelector(arguments[0])).visibility", css)
    result = {"errorShown": shown, "pagination": visible("nav.pagination"), "footer": visible(".site-footer"),
              "tilesBefore": driver.execute_script("return document.querySelectorAll('.grid > .tile').length")}
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    if shown:
        driver.find_element(By.CSS_SELECTOR, ".more-error a").click()
        wait(driver, "return document.querySelectorAll('.grid > .tile').length > arguments[0]".replace("arguments[0]", str(result["tilesBefore"])), 10)
    result["tilesAfter"] = driver.execute_script("return document.querySelectorAll('.grid > .tile').length")
    result["errorGone"] = driver.execute_script("return !document.querySelector('.more-error')")
    result["url"] = driver.current_url
    console_errors(driver)  # the blocked request's own message, expected here
    return result


def slideshow(driver, base, photo):
    """Play on a photo page: it advances by itself; a key press stops it. The grid's button starts it."""
    viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    seconds = float(driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('data-seconds')"))
    start = driver.current_url
    driver.find_element(By.CSS_SELECTOR, ".viewer-tools .play").click()
    began = time.time()
    advanced = wait(driver, "return location.href !== %s" % json.dumps(start), seconds * 3 + 5)
    result = {"seconds": seconds, "start": start, "advanced": advanced, "after": driver.current_url,
              "waited": round(time.time() - began, 2)}
    settle(driver)
    result["stillPlaying"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')") == "true"
    result["labelPlaying"], result["pauseWords"] = driver.execute_script(
        "const p = document.querySelector('.viewer-tools .play'); return [p.querySelector('.label').textContent, p.getAttribute('data-pause')]")
    second = driver.current_url
    ActionChains(driver).send_keys(Keys.SHIFT).perform()
    time.sleep(seconds * 1.5 + 1)
    result["afterKey"] = driver.current_url
    result["stoppedAt"] = second
    result["pressedAfterKey"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')")
    result["labelAfterKey"] = driver.execute_script("return document.querySelector('.viewer-tools .play .label').textContent")
    driver.get(base + "index.html")
    settle(driver)
    first = driver.execute_script("return document.querySelector('.grid > .tile').href")
    driver.find_element(By.CSS_SELECTOR, "button.slideshow").click()
    wait(driver, "return location.href === %s" % json.dumps(first), 10)
    settle(driver)
    result["gridStartsAt"] = driver.current_url
    result["gridFirst"] = first
    result["gridPlaying"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')") == "true"
    ActionChains(driver).send_keys(Keys.SHIFT).perform()
    result["consoleErrors"] = console_errors(driver)
    return result


def save_data(driver, base, photo):
    """After load, a photo page preloads the next preview and prefetches its page, but not with
    Save-Data on (CDP's data saver override sets navigator.connection.saveData)."""
    viewport(driver, 390, 844, mobile=True)
    result = {}
    for name, on in (("saveData", True), ("normal", False)):
        driver.execute_cdp_cmd("Emulation.setDataSaverOverride", {"dataSaverEnabled": on})
        driver.get(base + photo)
        settle(driver)
        time.sleep(1)
        next_page = driver.execute_script("return document.querySelector('.photo-nav a[rel=next]').href")
        folder = next_page.rsplit("/", 1)[0] + "/"
        result[name] = driver.execute_script("""
          return {saveData: navigator.connection ? navigator.connection.saveData : null,
                  prefetch: Array.from(document.querySelectorAll('link[rel=prefetch]')).map(l => l.href),
                  requested: performance.getEntriesByType('resource').map(e => e.name).filter(n => n.startsWith(arguments[0]))};
        """, folder)
        result[name]["nextPage"] = next_page
    driver.execute_cdp_cmd("Emulation.setDataSaverOverride", {})
    return result


PHONE = """
const vw = innerWidth, vh = innerHeight, images = [];
let covered = 0;
for (const tile of document.querySelectorAll('.grid > .tile')) {
  if (getComputedStyle(tile).visibility !== 'visible') { continue; }
  const r = tile.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
  covered += w * h;
  const img = tile.querySelector('img');
  if (img.complete && img.currentSrc) { images.push({src: img.currentSrc, width: r.width, srcset: img.getAttribute('srcset'), sizes: img.getAttribute('sizes')}); }
}
const rows = [];
for (const tile of document.querySelectorAll('.grid > .tile')) {
  const r = tile.getBoundingClientRect(), row = rows.find(x => Math.abs(x.top - r.top) < 2);
  if (row) { row.count += 1; } else { rows.push({top: r.top, height: r.height, count: 1}); }
}
return {photoShare: covered / (vw * vh), images: images, rows: rows, viewport: [vw, vh, devicePixelRatio]};
"""


def file_size(base, url):
    path = urllib.parse.unquote(urllib.parse.urlparse(url).path)
    return os.path.getsize(os.path.join(SITE, path.lstrip("/")))


def phone(driver, base):
    """The sample grid at 390x844, DPR 3, from an empty cache: how much of the first screen is photo,
    the rows, and the bytes of the grid images against what the drawn tiles need at DPR 3."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    result = {}
    for width in (360, 390, 430):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        driver.get(base + "index.html")
        settle(driver)
        time.sleep(0.5)
        measured = driver.execute_script(PHONE)
        loaded = needed = pixels = 0
        for image in measured["images"]:
            candidates = []
            for entry in image["srcset"].split(","):
                src, w = entry.strip().split()
                candidates.append((int(w[:-1]), urllib.parse.urljoin(base, src)))
            candidates.sort()
            want = image["width"] * 3
            best = next((c for c in candidates if c[0] >= want), candidates[-1])
            got = next(c for c in candidates if c[1] == image["src"])
            loaded += file_size(base, image["src"])
            needed += file_size(base, best[1])
            pixels += file_size(base, image["src"]) * min(1.0, (want / got[0]) ** 2)
            image["needFile"] = best[1]
        measured.update({"loadedBytes": loaded, "neededBytes": needed, "pixelNeedBytes": round(pixels)})
        result["phone-%d" % width] = measured
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    # Album captions at 390 px: nothing cut off, and the count readable on the veil over white.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    if os.path.exists(os.path.join(SITE, "albums/index.html")):
        driver.get(base + "albums/index.html")
        settle(driver)
        result["captions"] = driver.execute_script("""
          function rgba(t) { const v = t.match(/[\\d.]+/g).map(Number); return v.length === 3 ? v.concat(1) : v; }
          function ch(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); }
          function lum(v) { return 0.2126 * ch(v[0]) + 0.7152 * ch(v[1]) + 0.0722 * ch(v[2]); }
          return Array.from(document.querySelectorAll('.album')).map(function (tile) {
            const t = tile.getBoundingClientRect(), caption = tile.querySelector('.caption');
            const veil = rgba(getComputedStyle(caption).backgroundColor), a = veil[3];
            const over = [0, 1, 2].map(i => veil[i] * a + 255 * (1 - a));  // the veil over a white photo
            const parts = Array.from(caption.querySelectorAll('.name, .count')).map(function (span) {
              const r = span.getBoundingClientRect(), c = lum(rgba(getComputedStyle(span).color)), b = lum(over);
              return {text: span.textContent, inside: r.left >= t.left - 0.5 && r.right <= t.right + 0.5 && r.top >= t.top - 0.5 && r.bottom <= t.bottom + 0.5,
                      clipped: span.scrollWidth > Math.ceil(r.width) + 1, contrast: (Math.max(c, b) + 0.05) / (Math.min(c, b) + 0.05)};
            });
            return {parts: parts};
          });
        """)
    return result


def no_script(base, photo):
    """The same pages with JavaScript off: the photo is a link to the full size, grids page."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1366,768"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    try:
        driver.get(base + "index.html")
        result = {"scriptRan": driver.execute_script("return document.documentElement.className") == "js"}
        visible = lambda css: [e.is_displayed() for e in driver.find_elements(By.CSS_SELECTOR, css)]
        result["gridTiles"] = len(driver.find_elements(By.CSS_SELECTOR, ".grid > .tile"))
        result["paginationVisible"] = visible("nav.pagination")
        result["footerVisible"] = visible(".site-footer")
        result["slideshowButton"] = visible("button.slideshow")
        driver.get(base + photo)
        result["toolbar"] = visible(".viewer-tools")
        full = driver.find_element(By.CSS_SELECTOR, ".stage a.full").get_attribute("href")
        driver.find_element(By.CSS_SELECTOR, ".stage img.main").click()
        WebDriverWait(driver, 10).until(lambda d: d.current_url != base + photo)
        result["photoClickOpens"] = driver.current_url
        result["fullSizeHref"] = full
        return result
    finally:
        driver.quit()


def axe(driver, base, photo, source):
    results = {}
    for name, path, width, height in (("grid", "index.html", 1366, 768), ("grid-phone", "index.html", 390, 844),
                                      ("photo", photo, 1366, 768), ("photo-phone", photo, 390, 844)):
        viewport(driver, width, height, mobile=width < 600)
        driver.get(base + path)
        settle(driver)
        driver.execute_script(source)
        driver.set_script_timeout(60)
        found = driver.execute_async_script("""
          const done = arguments[arguments.length - 1];
          axe.run(document, {resultTypes: ['violations']}).then(function (r) {
            done({version: axe.version, violations: r.violations.map(function (v) {
              return {id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(function (n) { return n.target.join(' '); }).slice(0, 5)};
            })});
          }, function (e) { done({error: String(e)}); });
        """)
        results[name] = found
    return results


SITE = None


def main():
    global SITE
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--axe", help="axe.min.js (4.x), from the axe-playwright-python wheel")
    parser.add_argument("--only", help="comma-separated parts to run (default: all)")
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium")
    args = parser.parse_args()
    SITE = os.path.abspath(args.site)
    only = set(args.only.split(",")) if args.only else None
    want = lambda part: only is None or part in only
    server, base = serve(SITE)
    index = json.load(open(os.path.join(SITE, "search.json"), encoding="utf-8"))
    # A photo page with a previous and a next photo: the second of the home order.
    first_page = open(os.path.join(SITE, "index.html"), encoding="utf-8").read()
    photo = re.findall(r'class="tile" href="(photos/[^"]+)"', first_page)[1]
    report = {"photo": photo, "photos": len(index["photos"])}
    if args.browser == "firefox":
        # The same checks with Firefox's driver, window size, touch drag and error log.
        global viewport, console_errors, drag, touch_emulation
        import check_viewer_firefox as gecko
        viewport, console_errors, drag, touch_emulation = gecko.viewport, gecko.console_errors, gecko.touch_drag, lambda d, on: None
        only = (only or {"zoom", "swipe", "infinite", "slideshow"}) & {"zoom", "swipe", "infinite", "slideshow"}
        driver = gecko.browser()
    else:
        driver = browser()
    try:
        report[args.browser] = driver.capabilities.get("browserVersion")
        parts = (("zoom", lambda: zoom(driver, base, photo)), ("gestures", lambda: gestures(driver, base, photo)),
                 ("swipe", lambda: swipes(driver, base, photo)),
                 ("infinite", lambda: infinite(driver, base)), ("retry", lambda: retry(driver, base)), ("slideshow", lambda: slideshow(driver, base, photo)),
                 ("phone", lambda: phone(driver, base)), ("saveData", lambda: save_data(driver, base, photo)))
        for name, run in parts:
            if want(name):
                report[name] = run()
        if want("axe") and args.axe:
            report["axe"] = axe(driver, base, photo, open(args.axe, encoding="utf-8").read())
    finally:
        driver.quit()
    if want("noScript"):
        report["noScript"] = no_script(base, photo)
    server.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
