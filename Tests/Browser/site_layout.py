"""The grid's shape, weight and colours: justified rows on desktop and phones, a run of panoramas,
the bytes a fresh grid load fetches, the gzipped HTML, CSS and JS, and the lowest text contrast."""
import gzip
import os
import re
import time

from site_support import settle, viewport

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
                natural: Number(img.getAttribute('height')) ? Number(img.getAttribute('width')) / Number(img.getAttribute('height')) : 0,
                shown: 0};
  // The shape justify.js (--ja) or the build's phone rows (--pa) gave the tile: the photo's own, or
  // a bounded crop of it that keeps a row under half the screen's height.
  const style = getComputedStyle(tile);
  const shape = grid.classList.contains('justified') ? '--ja' : innerWidth <= 600 ? '--pa' : null;
  item.shown = (shape && parseFloat(style.getPropertyValue(shape))) || item.natural;
  if (row) { row.tiles.push(item); } else { rows.push({top: r.top, tiles: [item]}); }
}
return {containerRight: box.right, rows: rows.map(function (row) {
  const heights = row.tiles.map(function (t) { return t.height; });
  return {count: row.tiles.length, seamed: row.tiles.some(function (t) { return t.seam; }),
          right: Math.max.apply(null, row.tiles.map(function (t) { return t.right; })),
          heightSpread: Math.max.apply(null, heights) - Math.min.apply(null, heights),
          worstAspectError: Math.max.apply(null, row.tiles.map(function (t) { return Math.abs(t.ratio - t.shown) / t.shown; })),
          worstCrop: Math.max.apply(null, row.tiles.map(function (t) { return Math.abs(t.shown - t.natural) / t.natural; }))};
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
        if (/\\.(jpe?g|png|webp|avif)$/.test(new URL(e.name).pathname)) { sizes[e.name] = e.encodedBodySize; }
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


def contrast(driver, base, photo_path):
    """The lowest text contrast of the grid and a photo page, in the light and the dark scheme."""
    result = {}
    for scheme in ("light", "dark"):
        viewport(driver, 1366, 768, scheme=scheme)
        for name, path in (("grid", "index.html"), ("photo", photo_path)):
            driver.get(base + path)
            settle(driver)
            result["%s-%s" % (name, scheme)] = driver.execute_script(CONTRAST)
    return result
