"""The justified grid with infinite scroll (issue 29, faults 2, 3, 4 and 8), as functions of a
selenium driver, so that Chromium, Firefox and WebKit run the same ones (check_viewer.py --only
flow,stall,pages,gridRows,plainRows). They measure and report; GridFlowBrowserTests.swift decides.

- flow: the rows once every page is in the grid, at 390, 768, 1280 and 1920 px, scrolled slowly
  or with a jump to the end: the width each row leaves free (only the last may leave room) and the
  gaps between rows and between tiles.
- stall: fresh loads whose reader is at the end of the page before the scripts start (the address
  names the footer): each must append the next page.
- pages: the page links under the grid once everything is loaded.
- rows: the row heights and the share of the first screen that is photo, on the home grid and
  every album's first page, at 390x844 and 1280x800.
- plain_rows: the phone rows of the same pages without JavaScript (the build's GridLayout).
"""
import time

import viewer_support as support

# The rows of the home grid's tiles: [top, height, right edge, left edge of the first, count] and
# the grid's own box, read in one go.
ROWS = """
const grid = document.querySelector('main div.grid'), g = grid.getBoundingClientRect();
const rows = [];
for (const t of grid.querySelectorAll(':scope > .tile')) {
  const r = t.getBoundingClientRect();
  if (getComputedStyle(t).visibility === 'hidden') { continue; }
  const row = rows.find(x => Math.abs(x.top - r.top) < 1.5);
  if (row) { row.right = Math.max(row.right, r.right); row.left = Math.min(row.left, r.left); row.count++;
             row.lefts.push(r.left); row.rights.push(r.right); row.height = Math.max(row.height, r.height); }
  else { rows.push({top: r.top, height: r.height, right: r.right, left: r.left, count: 1, lefts: [r.left], rights: [r.right]}); }
}
rows.sort((a, b) => a.top - b.top);
const gaps = [], rowGaps = [];
rows.forEach((row, i) => {
  const l = row.lefts.slice().sort((a, b) => a - b), r = row.rights.slice().sort((a, b) => a - b);
  for (let k = 1; k < l.length; k++) { gaps.push(l[k] - r[k - 1]); }
  if (i > 0) { rowGaps.push(row.top - (rows[i - 1].top + rows[i - 1].height)); }
});
return {gridLeft: g.left, gridRight: g.right, rows: rows.map(x => ({top: x.top + scrollY, height: x.height, free: g.right - x.right, count: x.count})),
        gaps: gaps, rowGaps: rowGaps, tiles: grid.querySelectorAll(':scope > .tile').length};
"""

ALL_LOADED = "return document.documentElement.classList.contains('all') && !document.querySelector('main div.grid > .tile.pending')"


def load_all(driver, url, jump):
    """Opens `url` and scrolls until html.all says no page is to come: in steps of half a screen,
    or straight to the end each time."""
    driver.get(url)
    support.settle(driver)
    for _ in range(200):
        if driver.execute_script(ALL_LOADED):
            break
        if jump:
            driver.execute_script("scrollTo(0, document.documentElement.scrollHeight)")
        else:
            driver.execute_script("scrollBy(0, innerHeight / 2)")
        time.sleep(0.15)
    support.wait(driver, ALL_LOADED, 10)
    time.sleep(0.3)


def flow(driver, base, page="index.html", widths=(390, 768, 1280, 1920)):
    """Every width, both ways of scrolling: the rows and gaps once all is loaded."""
    result = {}
    for width in widths:
        for jump in (False, True):
            support.viewport(driver, width, 844 if width <= 600 else 800, width <= 600)
            load_all(driver, base + page, jump)
            rows = driver.execute_script(ROWS)
            result["%d-%s" % (width, "jump" if jump else "slow")] = {
                "tiles": rows["tiles"], "rows": len(rows["rows"]),
                # What each row but the last leaves free at the right: 0 for a justified flow.
                "freeBeforeLast": [round(r["free"], 1) for r in rows["rows"][:-1]],
                "gaps": [round(min(rows["gaps"] or [0]), 1), round(max(rows["gaps"] or [0]), 1)],
                "rowGaps": [round(min(rows["rowGaps"] or [0]), 1), round(max(rows["rowGaps"] or [0]), 1)],
                "loaded": driver.execute_script(ALL_LOADED)}
    return result


def stall(driver, base, loads=20, page="index.html"):
    """Fresh loads at 1366x768 whose view is at the end of the page before the scripts start (the
    address names the footer): how many of them appended the next page."""
    support.viewport(driver, 1366, 768)
    appended = 0
    for _ in range(loads):
        driver.get("about:blank")
        driver.get(base + page + "#site-footer")
        before = len(driver.execute_script("return Array.from(document.querySelectorAll('main div.grid > .tile[data-page=\"0\"]'))"))
        if support.wait(driver, "return document.querySelectorAll('main div.grid > .tile').length > arguments[0]", 4, before):
            appended += 1
    return {"loads": loads, "appended": appended}


PAGE_LINKS = """
const nav = document.querySelector('main nav.pagination');
if (!nav) { return null; }
const current = nav.querySelector('[aria-current="page"]'), next = nav.querySelector('a[rel="next"]');
const pages = new Set(Array.from(document.querySelectorAll('main div.grid > .tile')).map(t => t.getAttribute('data-page')));
return {current: current ? current.textContent.trim() : null, next: next ? next.href : null,
        visible: getComputedStyle(nav).visibility !== 'hidden', numbers: Array.from(nav.querySelectorAll('li')).map(l => l.textContent.trim()),
        pagesInGrid: pages.size};
"""


def pages(driver, base, page="index.html"):
    """The page links once every page is in the grid."""
    support.viewport(driver, 1280, 800)
    load_all(driver, base + page, True)
    return driver.execute_script(PAGE_LINKS)


# The row heights of the grid's visible tiles and the share of the first screen covered by photos.
FIRST_SCREEN = """
const tiles = Array.from(document.querySelectorAll('main div.grid > .tile, main .grid.albums > .tile'));
let area = 0;
for (const t of tiles) {
  const r = t.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  area += w * h;
}
const heights = [];
for (const t of document.querySelectorAll('main div.grid > .tile')) {
  if (getComputedStyle(t).visibility === 'hidden') { continue; }
  const r = t.getBoundingClientRect();
  if (!heights.some(h => Math.abs(h.top - r.top) < 1.5)) { heights.push({top: r.top, height: r.height}); }
}
return {photoShare: area / (innerWidth * innerHeight), heights: heights.map(h => Math.round(h.height))};
"""


def rows(driver, base, pages_to_check, sizes=((390, 844), (1280, 800))):
    """Row heights (all rows once every page is loaded) and the first screen's photo share."""
    result = {}
    for width, height in sizes:
        for page in pages_to_check:
            support.viewport(driver, width, height, width <= 600)
            # From elsewhere: loading the address in view again would be a reload, which keeps
            # the history state and so the place scroll.js remembered.
            driver.get("about:blank")
            driver.get(base + page)
            support.settle(driver)
            first = driver.execute_script(FIRST_SCREEN)
            load_all(driver, base + page, False)
            every = driver.execute_script(FIRST_SCREEN)
            result["%dx%d %s" % (width, height, page)] = {
                "photoShare": round(first["photoShare"], 3), "heights": every["heights"][:-1],
                "lastRow": every["heights"][-1:], "screenHeight": height}
    return result


def plain_rows(driver, base, pages_to_check):
    """The phone rows of pages read without JavaScript (`driver` has it off): the build's own
    layout (GridLayout.swift), at 390x844."""
    support.viewport(driver, 390, 844, True)
    result = {}
    for page in pages_to_check:
        driver.get("about:blank")
        driver.get(base + page)
        measured = driver.execute_script("return (function () {" + FIRST_SCREEN + "})()")
        rows = driver.execute_script("return (function () {" + ROWS + "})()")
        result[page] = {"heights": measured["heights"][:-1], "lastRow": measured["heights"][-1:],
                        "freeBeforeLast": [round(r["free"], 1) for r in rows["rows"][:-1]],
                        "photoShare": round(measured["photoShare"], 3)}
    return result
