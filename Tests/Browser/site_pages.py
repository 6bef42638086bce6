"""The photo page and the album cards on screen (issue 29, faults 5-7), for check_site.py --only:
where the photo, its title and its previous / next links fall in the first screen, how much of the
photo the viewer's buttons cover, whether a link's arrow ever sits alone on a line, the share of an
album card its caption takes, and every arrow or close drawn as a character instead of an icon.

Each function takes a selenium driver and only measures (the Swift suite decides), and uses no
Chromium-only tool, so the same checks run in Firefox and WebKit."""
import json
import os
import time

from selenium.webdriver.support.ui import WebDriverWait
from site_support import browser, serve

# Arrows, chevrons, close crosses and media symbols: the characters a reader's fonts may lack (⛶
# was an empty box in every engine). "×" counts only as a control's whole text (a close button);
# in "1600 × 1067" it is a multiplication sign.
GLYPHS = r"""
const glyph = /[\u2190-\u21ff\u2039\u203a\u00ab\u00bb\u2794-\u27bf\u25b6\u25c0\u25b8\u25c2\u23e9-\u23fa\u26f6\u2715-\u2717\u2a2f\u2b05-\u2b07]/;
const found = [];
document.querySelectorAll('a, button, nav li, [role=button]').forEach(function (e) {
  if (!e.getClientRects().length) { return; }  // not rendered; hidden page links (infinite scroll) still count
  let text = '';
  const walk = function (n) {
    if (n.nodeType === 3) { text += n.nodeValue; return; }
    if (n.nodeType !== 1 || n.matches('svg, .visually-hidden')) { return; }
    n.childNodes.forEach(walk);
  };
  walk(e);
  ['::before', '::after'].forEach(function (p) {
    const c = getComputedStyle(e, p).content;
    if (c && c !== 'none' && c !== 'normal' && c.charAt(0) === '"') { text += c.slice(1, -1); }
  });
  if (glyph.test(text) || text.trim() === '\u00d7') { found.push(e.tagName.toLowerCase() + '.' + e.className + ': ' + text.trim().slice(0, 60)); }
});
return found;
"""

# The photo page's first screen: rectangles in CSS pixels, from the top of the page.
PHOTO = r"""
const r = function (e) { if (!e) { return null; } const b = e.getBoundingClientRect();
  return {top: Math.round(b.top + scrollY), bottom: Math.round(b.bottom + scrollY), left: Math.round(b.left), right: Math.round(b.right)}; };
const img = document.querySelector('.stage .main'), stage = document.querySelector('.stage');
const area = function (b) { return Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top); };
const photo = img.getBoundingClientRect();
// The share of the photo under the viewer's (visible) buttons.
let covered = 0;
document.querySelectorAll('.viewer-tools button').forEach(function (button) {
  const b = button.getBoundingClientRect();
  if (!b.width || getComputedStyle(button).visibility === 'hidden' || getComputedStyle(button).opacity === '0') { return; }
  covered += area({left: Math.max(b.left, photo.left), right: Math.min(b.right, photo.right),
                   top: Math.max(b.top, photo.top), bottom: Math.min(b.bottom, photo.bottom)});
});
// A link's arrow is alone on a line when no line of its text shares the arrow's height.
const links = Array.from(document.querySelectorAll('.photo-nav a[rel]')).map(function (a) {
  const icon = a.querySelector('[aria-hidden="true"]'), range = document.createRange(), lines = [];
  a.childNodes.forEach(function (n) {
    const nodes = n.nodeType === 3 ? [n] : (n.nodeType === 1 && n !== icon ? Array.from(n.childNodes).filter(function (c) { return c.nodeType === 3; }) : []);
    nodes.forEach(function (t) { if (!t.nodeValue.trim()) { return; } range.selectNodeContents(t); Array.from(range.getClientRects()).forEach(function (q) { lines.push(q); }); });
  });
  const i = icon && icon.getBoundingClientRect();
  const alone = !!i && !lines.some(function (q) { return q.bottom > i.top + 1 && q.top < i.bottom - 1; });
  return {rel: a.rel, box: r(a), alone: alone, textLines: new Set(lines.map(function (q) { return Math.round(q.top); })).size};
});
return {viewport: [innerWidth, innerHeight], photo: r(img), stage: r(stage), title: r(document.querySelector('.details h1')),
        nav: r(document.querySelector('.photo-nav')), links: links,
        buttonsOverPhoto: area(photo) ? covered / area(photo) : 0,
        natural: Number(img.getAttribute('width')) / Number(img.getAttribute('height'))};
"""

# Every album card: the caption's share of the card, the lines of its name and count, and whether a
# name cut short (line-clamp) is still there whole for the reader (a title or the link's name).
CARDS = r"""
const lines = function (e) { const s = getComputedStyle(e), h = parseFloat(s.lineHeight) || parseFloat(s.fontSize) * 1.2;
  return Math.round(e.getBoundingClientRect().height / h * 10) / 10; };
return Array.from(document.querySelectorAll('.tile.album')).map(function (card) {
  const a = card.querySelector('a'), caption = card.querySelector('.caption'), name = card.querySelector('.name'), count = card.querySelector('.count');
  const c = card.getBoundingClientRect(), k = caption.getBoundingClientRect(), full = name.textContent.trim();
  const clamped = name.scrollHeight > name.clientHeight + 1 || name.scrollWidth > name.clientWidth + 1;
  return {name: full, card: [Math.round(c.width), Math.round(c.height)], captionShare: k.height / c.height,
          nameLines: lines(name), countLines: lines(count), clamped: clamped,
          fullNameShown: !clamped || (a.getAttribute('title') || '').trim() === full || (a.getAttribute('aria-label') || '').trim() === full};
});
"""


def resize(driver, width, height):
    """Sets the viewport (not the window) to width x height in any engine: sets the window, then
    corrects it by the difference the browser's frame makes."""
    driver.set_window_size(width, height)
    for _ in range(3):
        inner = driver.execute_script("return [innerWidth, innerHeight]")
        if inner == [width, height]:
            return
        size = driver.get_window_size()
        driver.set_window_size(size["width"] + width - inner[0], size["height"] + height - inner[1])


def load(driver, url):
    driver.get(url)
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    WebDriverWait(driver, 20).until(lambda d: d.execute_script(
        "return Array.from(document.images).every(function (i) { return i.complete || i.getBoundingClientRect().top > innerHeight; })"))
    time.sleep(0.3)


def glyphs(driver, base, paths):
    """The arrows and crosses drawn as characters on each page, by page."""
    found = {}
    for width, height in ((1280, 800), (390, 844)):
        resize(driver, width, height)
        for path in paths:
            load(driver, base + path)
            found["%s@%d" % (path, width)] = driver.execute_script(GLYPHS)
    return found


def photo_pages(driver, base, paths):
    """The first screen of each photo page at 1280x800 and 390x844."""
    result = {}
    for width, height in ((1280, 800), (390, 844)):
        resize(driver, width, height)
        for path in paths:
            load(driver, base + path)
            result["%s@%d" % (path, width)] = driver.execute_script(PHOTO)
    return result


def album_cards(driver, base, paths):
    """The album cards of each page at 390x844 and 1280x800."""
    result = {}
    for width, height in ((390, 844), (1280, 800)):
        resize(driver, width, height)
        for path in paths:
            load(driver, base + path)
            result["%s@%d" % (path, width)] = driver.execute_script(CARDS)
    return result


def choose(site):
    """The pages to look at: the widest, the tallest and a middling photo (by search.json), the
    grid pages that have page links, the albums page and the deepest album page."""
    photos = json.load(open(os.path.join(site, "search.json"), encoding="utf-8"))["photos"]
    by_shape = sorted(photos, key=lambda p: p["width"] / p["height"])
    middle = min(photos, key=lambda p: abs(p["width"] / p["height"] - 1.5))
    chosen = [by_shape[-1]["url"], by_shape[0]["url"], middle["url"]]
    grids = ["index.html"] + (["page/2/index.html"] if os.path.exists(os.path.join(site, "page/2/index.html")) else [])
    # The albums page, then album pages, the deepest (with a breadcrumb) first.
    folders = [os.path.relpath(d, site) for d, _, files in os.walk(os.path.join(site, "albums")) if "index.html" in files]
    albums = sorted((f + "/index.html" for f in folders), key=lambda f: (f != "albums/index.html", -f.count("/"), f))
    return list(dict.fromkeys(chosen)), grids, albums


# What --only can name.
PARTS = ("glyphs", "photoPages", "albumCards")


def only(site, parts, browser_name):
    photos, grids, albums = choose(site)
    server, base = serve(site)
    if browser_name == "firefox":
        import check_viewer_firefox as gecko
        driver = gecko.browser()
    elif browser_name == "webkit":
        import webkit_support  # MiniBrowser through WebKitWebDriver, under a private Xvfb if need be
        driver = webkit_support.browser()
    else:
        driver = browser()
    report = {"browser": browser_name, "version": driver.capabilities.get("browserVersion")}
    try:
        if "glyphs" in parts:
            report["glyphs"] = glyphs(driver, base, grids + photos[:1] + albums[:2])
        if "photoPages" in parts:
            report["photoPages"] = photo_pages(driver, base, photos)
        if "albumCards" in parts:
            # The albums page, and any album page with albums in it.
            nested = [a for a in albums[1:] if 'class="tile album"' in open(os.path.join(site, a), encoding="utf-8").read()]
            report["albumCards"] = album_cards(driver, base, albums[:1] + nested)
    finally:
        driver.quit()
        server.shutdown()
    return report
