"""What the site checks (check_site.py and its site_*.py parts) share, and what the viewer and map
checks borrow: the local server, headless Chromium with a layout-shift observer, the viewport,
waiting for a page to settle, console errors, and one page's visit (CLS, broken images, overflow,
landmarks)."""
import functools
import http.server
import io
import os
import re
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
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

BROKEN_IMAGES = """
return Array.from(document.images).filter(function (img) {
  return !img.complete || img.naturalWidth === 0;
}).map(function (img) { return img.currentSrc || img.src; });
"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Python's file server, answering a `Range: bytes=…` request as static hosts do (206 and the
    part; Python's own sends the whole file), which protected sites' service worker relies on for
    video (RFC 9110 §14)."""
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".webp": "image/webp", ".avif": "image/avif",
                      ".js": "text/javascript", ".xml": "application/xml"}

    def send_head(self):
        asked = re.match(r"bytes=(\d*)-(\d*)$", self.headers.get("Range") or "")
        path = self.translate_path(self.path)
        if not asked or asked.group(0) == "bytes=-" or not os.path.isfile(path):
            return super().send_head()
        with open(path, "rb") as file:
            body = file.read()
        size = len(body)
        if asked.group(1) == "":
            first, last = max(0, size - int(asked.group(2))), size - 1
        else:
            first = int(asked.group(1))
            last = min(int(asked.group(2)), size - 1) if asked.group(2) else size - 1
        if first > last:
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return io.BytesIO(b"")
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", "bytes %d-%d/%d" % (first, last, size))
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        return io.BytesIO(body[first:last + 1])

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


def screenshot(driver, folder, name, url, width, height, mobile, scheme="light"):
    viewport(driver, width, height, mobile, scheme)
    driver.get(url)
    settle(driver)
    load_all_images(driver)
    path = os.path.join(folder, name + ".png")
    driver.save_screenshot(path)
    return path


# The photo page's preview: its box, the viewport, the photo's own shape and the blurred
# thumbnail under it (check_site.py and check_site_webkit.py).
PREVIEW = """
  const img = document.querySelector('.stage .main'), r = img.getBoundingClientRect();
  return {width: r.width, height: r.height, bottom: r.bottom, viewportWidth: innerWidth, viewportHeight: innerHeight,
          natural: Number(img.getAttribute('width')) / Number(img.getAttribute('height')),
          under: !!document.querySelector('.stage .under'),
          blur: getComputedStyle(document.querySelector('.stage .under')).filter};
"""


def visit_lists(driver, base, site, report, album):
    """Visits the albums index and its first album (with `album`) and the first tag page, if any."""
    if album:
        first = re.findall(r'href="\.\./(albums/[^"]+/index\.html)"', open(os.path.join(site, "albums/index.html")).read())[0]
        visit(driver, base + "albums/index.html", report, "albums")
        visit(driver, base + first, report, "album")
    if os.path.exists(os.path.join(site, "tags/index.html")):
        tag = re.findall(r'href="\.\./(tags/[^"]+/index\.html)"', open(os.path.join(site, "tags/index.html")).read())[0]
        visit(driver, base + tag, report, "tag")

