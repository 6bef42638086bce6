"""The phone grid at 360-430 px and DPR 3 (issue 14, 8.), the pages with JavaScript off, and axe-core."""
import os
import time

import viewer_support as support
from site_support import settle
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


PHONE = """
const vw = innerWidth, vh = innerHeight;
let covered = 0;
for (const tile of document.querySelectorAll('.grid > .tile')) {
  if (getComputedStyle(tile).visibility !== 'visible') { continue; }
  const r = tile.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
  covered += w * h;
}
const rows = [];
for (const tile of document.querySelectorAll('.grid > .tile')) {
  const r = tile.getBoundingClientRect(), row = rows.find(x => Math.abs(x.top - r.top) < 2);
  if (row) { row.count += 1; } else { rows.push({top: r.top, height: r.height, count: 1}); }
}
return {photoShare: covered / (vw * vh), rows: rows, viewport: [vw, vh, devicePixelRatio]};
"""

# Every grid image the page has drawn, with its tile's size in CSS px and the pixels of the file it
# shows (read from a fresh Image, whose natural size is the file's own), and every image file the
# page downloaded under photos/ with its bytes (a file fetched and then replaced counts too).
IMAGE_BYTES = """
const done = arguments[arguments.length - 1];
const drawn = Array.from(document.querySelectorAll('.grid > .tile img')).filter(img => img.complete && img.currentSrc).map(img => {
  const r = img.closest('.tile').getBoundingClientRect();
  return {src: img.currentSrc, width: r.width, height: r.height};
});
const fetched = performance.getEntriesByType('resource').filter(e => e.initiatorType === 'img' && new URL(e.name).pathname.includes('/photos/'))
  .map(e => ({src: e.name, bytes: e.encodedBodySize}));
Promise.all(drawn.map(d => new Promise(resolve => {
  const probe = new Image();
  probe.onload = () => resolve(Object.assign(d, {fileWidth: probe.naturalWidth, fileHeight: probe.naturalHeight}));
  probe.onerror = () => resolve(d);
  probe.src = d.src;
}))).then(images => done({images: images, fetched: fetched}));
"""


def image_bytes(driver, density):
    """The bytes of the grid images a page downloaded against the bytes it needs: for each image
    drawn, its file's bytes scaled by the pixels its tile needs at `density` over the pixels the
    file has (what a file exactly that size would weigh)."""
    driver.set_script_timeout(30)
    found = driver.execute_async_script(IMAGE_BYTES)
    needed = 0
    for image in found["images"]:
        need = density * image["width"] * density * image["height"]
        have = image.get("fileWidth", 0) * image.get("fileHeight", 0)
        image["pixelRatio"] = round(have / need, 3) if need else None
        needed += support.file_size(image["src"]) * need / have if have else 0
    loaded = sum(entry["bytes"] or support.file_size(entry["src"]) for entry in found["fetched"])
    return {"loadedBytes": loaded, "neededBytes": round(needed), "images": found["images"], "fetched": len(found["fetched"])}


def phone(driver, base):
    """The sample grid at 360, 390 and 430 px wide (844 tall, DPR 3), from an empty cache: how much
    of the first screen is photo, the rows, and the bytes of the grid images against what the drawn
    tiles need at DPR 3."""
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
        measured.update(image_bytes(driver, 3))
        result["phone-%d" % width] = measured
    # The whole grid at 390 px, scrolled to its end: the tiles infinite scroll appended too.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    driver.get(base + "index.html")
    settle(driver)
    for _ in range(100):
        driver.execute_script("window.scrollBy(0, 300)")
        time.sleep(0.15)
        if driver.execute_script("return document.documentElement.classList.contains('all') && innerHeight + scrollY >= document.documentElement.scrollHeight - 2"):
            break
    support.wait(driver, "return Array.from(document.querySelectorAll('.grid > .tile img')).every(i => i.complete)", 15)
    time.sleep(0.5)
    result["scrolled-390"] = image_bytes(driver, 3)
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    # Album captions at 390 px: nothing cut off, and the count readable on the veil over white.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    if os.path.exists(os.path.join(support.SITE, "albums/index.html")):
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
    driver = support.chromium(prefs={"profile.managed_default_content_settings.javascript": 2})
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
        support.viewport(driver, width, height, mobile=width < 600)
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
