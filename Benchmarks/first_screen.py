#!/usr/bin/env python3
"""What a visitor's first screen costs and shows, in headless Chromium: for each built site given and
each page, at a phone profile (390x844, DPR 3, Lighthouse's "Slow 4G": 150 ms, 1.6 Mbit/s down,
0.75 up, CPU 4x slower) and a desktop one (1280x800, unthrottled):

- the grid's row heights over the whole page (every page appended) and the share above half the
  screen's height;
- the first screen's photo share: the area of the images inside the viewport over its area;
- the bytes the first screen fetched before the reader does anything (the page, its styles and
  scripts, its images), with the cache off;
- First Contentful Paint and Largest Contentful Paint, the median of RUNS loads;
- the cumulative layout shift of the load (the page's first 1.5 s on the phone, 0.5 s on the
  desktop), the worst of RUNS loads and how many shifted at all: a grid laid out after its first
  paint shows here.

  python3 Benchmarks/first_screen.py --site LABEL=FOLDER [--site ...] [--page /albums/x/] [--runs 3]

Prints a Markdown table. Needs the test venv's selenium, Chromium and chromium-driver
(Scripts/setup.sh test); Benchmarks/first-screen.sh builds the sites and runs it.
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
from site_support import browser, serve  # noqa: E402

PROFILES = {
    "phone": {"width": 390, "height": 844, "scale": 3, "mobile": True,
              "network": {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8, "uploadThroughput": 0.75e6 / 8},
              "cpu": 4},
    "desktop": {"width": 1280, "height": 800, "scale": 1, "mobile": False, "network": None, "cpu": 1},
}

# window.__cls: the layout-shift observer that site_support.browser() installs on every page.
PAINTS = """
window.__lcp = 0; window.__fcp = 0;
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__lcp = Math.max(window.__lcp, e.startTime); });
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { if (e.name === 'first-contentful-paint') { window.__fcp = e.startTime; } });
}).observe({type: 'paint', buffered: true});
"""

FIRST_SCREEN = """
var w = innerWidth, h = innerHeight, area = 0;
Array.prototype.forEach.call(document.querySelectorAll('main img, main video'), function (img) {
  var r = img.getBoundingClientRect();
  var x = Math.max(0, Math.min(w, r.right) - Math.max(0, r.left)), y = Math.max(0, Math.min(h, r.bottom) - Math.max(0, r.top));
  area += x * y;
});
var bytes = {images: 0, other: 0};
performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation')).forEach(function (e) {
  var size = e.encodedBodySize || e.transferSize || 0;
  if (e.initiatorType === 'img' || /\\.(avif|webp|jpe?g|png|gif)(\\?|$)/.test(e.name)) { bytes.images += size; } else { bytes.other += size; }
});
return {share: area / (w * h), bytes: bytes};
"""

ROWS = """
var rows = {};
Array.prototype.forEach.call(document.querySelectorAll('main .grid > .tile'), function (t) {
  var r = t.getBoundingClientRect(); if (!r.height) { return; }
  var top = Math.round(r.top + scrollY); rows[top] = Math.max(rows[top] || 0, r.height);
});
return Object.keys(rows).map(function (k) { return rows[k]; });
"""


def configure(driver, profile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": profile["width"], "height": profile["height"], "deviceScaleFactor": profile["scale"], "mobile": profile["mobile"]})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    if profile["network"]:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", profile["network"])
    else:
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": profile["cpu"]})


def measure(driver, url, profile, runs):
    configure(driver, profile)
    lcps, fcps, shifts, first = [], [], [], None
    for _ in range(runs):
        driver.get("about:blank")
        driver.get(url)
        time.sleep(1.5 if profile["network"] else 0.5)
        paints = driver.execute_script("return [window.__lcp, window.__fcp, window.__cls]")
        lcps.append(paints[0])
        fcps.append(paints[1])
        shifts.append(paints[2])
        if first is None:
            first = driver.execute_script(FIRST_SCREEN)
    # Rows over the whole page: scroll to the end until infinite scroll has appended everything.
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 1})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    for _ in range(30):
        driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        time.sleep(0.3)
        if not driver.execute_script("var c = document.documentElement.classList; return c.contains('scrolls') && !c.contains('all')"):
            break
    rows = driver.execute_script(ROWS) or [0]
    body = sorted(rows[:-1]) or rows  # the last row of a flow may be short on purpose
    return {"lcp": statistics.median(lcps), "fcp": statistics.median(fcps), "cls": max(shifts),
            "shifted": sum(1 for s in shifts if s > 0), "share": first["share"], "images": first["bytes"]["images"],
            "other": first["bytes"]["other"], "rows": (min(body), max(body)),
            "tall": sum(1 for r in rows if r > profile["height"] / 2), "count": len(rows)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", action="append", required=True, help="LABEL=FOLDER of a built site")
    parser.add_argument("--page", action="append", default=None, help="path of a page, default / and the first album")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    driver = browser()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": PAINTS})
    print("| site | page | profile | rows (px, all but the last) | rows > ½ screen | photo share of first screen | first screen: images / other (KB) | FCP / LCP (ms, median of %d) | CLS (worst; loads that shifted) |" % options.runs)
    print("|---|---|---|---|---|---|---|---|---|")
    try:
        for item in options.site:
            label, folder = item.split("=", 1)
            server, root = serve(folder)
            albums = sorted(name for name in os.listdir(os.path.join(folder, "albums")) if os.path.isdir(os.path.join(folder, "albums", name)))
            pages = options.page or ["/"] + ["/albums/%s/" % albums[0]]
            for page in pages:
                for name, profile in PROFILES.items():
                    m = measure(driver, root + page.lstrip("/"), profile, options.runs)
                    print("| %s | `%s` | %s | %d–%d | %d of %d | %.0f %% | %.0f / %.0f | %.0f / %.0f | %.3f (%d of %d) |" % (
                        label, page, name, m["rows"][0], m["rows"][1], m["tall"], m["count"], 100 * m["share"],
                        m["images"] / 1024, m["other"] / 1024, m["fcp"], m["lcp"], m["cls"],
                        m["shifted"], options.runs), flush=True)
            server.shutdown()
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
