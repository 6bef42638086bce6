"""Zoom and pan on the photo page (issue 14, 1.): double-click, drags, Esc and the keys, a pinch,
ctrl+wheel and the full-screen button."""
import time

import viewer_support as support
from site_support import settle
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def zoom(driver, base, photo):
    """Double-click zooms and loads a larger file, a drag pans inside the frame, Esc zooms out;
    + + - 0 zoom in, in, out and back to the fit."""
    support.viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    main = driver.find_element(By.CSS_SELECTOR, ".stage img.main")
    result = {"before": support.state(driver)}
    ActionChains(driver).double_click(main).perform()
    time.sleep(0.6)
    result["afterDoubleClick"] = support.state(driver)
    support.wait(driver, "const h = document.querySelector('.stage .hires'); return h && h.complete && h.naturalWidth > 0", 15)
    result["afterLoad"] = support.state(driver)
    ActionChains(driver).move_to_element(main).click_and_hold().move_by_offset(-120, -60).move_by_offset(-60, -30).release().perform()
    time.sleep(0.3)
    result["afterDrag"] = support.state(driver)
    for _ in range(3):  # further than the photo reaches: it stops at its edges
        ActionChains(driver).move_to_element(main).click_and_hold().move_by_offset(500, 300).release().perform()
        time.sleep(0.3)
    result["afterFarDrag"] = support.state(driver)
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    time.sleep(0.6)
    result["afterEscape"] = support.state(driver)
    for name, key in (("afterPlus", "+"), ("afterPlusTwice", "+"), ("afterMinus", "-")):
        ActionChains(driver).send_keys(key).perform()
        time.sleep(0.6)
        result[name] = support.state(driver)
    ActionChains(driver).send_keys("0").perform()
    time.sleep(0.6)
    result["afterZero"] = support.state(driver)
    result["consoleErrors"] = support.console_errors(driver)
    return result


def gestures(driver, base, photo):
    """A two-finger pinch (CDP touch points), ctrl+wheel (a trackpad pinch) and the full-screen button."""
    result = {}
    support.viewport(driver, 390, 844, mobile=True)
    support.touch_emulation(driver, True)
    driver.get(base + photo)
    settle(driver)
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    support.touch(driver, "touchStart", [{"x": cx - 30, "y": cy, "id": 1}, {"x": cx + 30, "y": cy, "id": 2}])
    for i in range(1, 9):
        time.sleep(0.04)
        spread = 30 + 60 * i / 8  # the fingers end 3 times as far apart
        support.touch(driver, "touchMove", [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}])
    time.sleep(0.1)
    support.touch(driver, "touchEnd", [])
    time.sleep(0.4)
    result["pinch"] = support.state(driver)
    result["pinchPageScale"] = driver.execute_script("return visualViewport.scale")
    support.touch_emulation(driver, False)
    support.viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    for kind in ("mouseMoved", "mouseWheel"):
        driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": cx, "y": cy, "deltaX": 0, "deltaY": -100, "modifiers": 2})
    time.sleep(0.4)
    result["wheel"] = support.state(driver)
    result["wheelPageScale"] = driver.execute_script("return visualViewport.scale")
    driver.get(base + photo)
    settle(driver)
    driver.find_element(By.CSS_SELECTOR, ".viewer-tools .fullscreen").click()
    support.wait(driver, "return !!document.fullscreenElement", 5)
    result["fullscreen"] = driver.execute_script(
        "return {element: document.fullscreenElement ? document.fullscreenElement.className : null,"
        " pressed: document.querySelector('.viewer-tools .fullscreen').getAttribute('aria-pressed')}")
    driver.execute_script("if (document.fullscreenElement) { document.exitFullscreen(); }")
    result["consoleErrors"] = support.console_errors(driver)
    return result


# Every .hires image the viewer lays over the preview, in order, with its box and the frame's.
HIRES_LOG = """
window.__hires = [];
const frame = document.querySelector('.stage .full');
new MutationObserver(function (records) {
  records.forEach(r => r.addedNodes.forEach(function (n) {
    if (!n.classList || !n.classList.contains('hires')) { return; }
    const a = n.getBoundingClientRect(), b = frame.getBoundingClientRect();
    window.__hires.push({src: n.currentSrc || n.src, offset: Math.max(Math.abs(a.left - b.left), Math.abs(a.top - b.top),
                         Math.abs(a.width - b.width), Math.abs(a.height - b.height))});
  }));
}).observe(frame, {childList: true});
"""

# The photo's files: the srcset the preview came from (the <source>'s WebP or the img's own) and
# the file the viewer zooms into, with their widths; the preview's file; the frame's width.
LADDER = """
const frame = document.querySelector('.stage .full'), img = frame.querySelector('img.main');
const parse = el => (el.getAttribute('srcset') || '').split(',').map(e => e.trim().split(/\\s+/))
  .map(e => ({src: new URL(e[0], document.baseURI).href, width: parseInt(e[1], 10)}));
const lists = [img].concat(Array.from(frame.querySelectorAll('source'))).map(parse);
return {srcset: lists.find(l => l.some(c => c.src === img.currentSrc)) || lists[0], preview: img.currentSrc,
        original: {src: new URL(frame.dataset.zoom, document.baseURI).href, width: Number(frame.dataset.zoomWidth)},
        frameWidth: frame.offsetWidth, dpr: devicePixelRatio,
        fetched: performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('/photos/'))};
"""


def ladder(driver, base, photo):
    """Zooming in step by step (the + key) on a phone-sized page at DPR 1, from an empty cache:
    every file the viewer lays over the preview, with the scale it was asked at, and every image
    file the page fetched, to compare with the srcset sizes and the original."""
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    support.viewport(driver, 390, 844, mobile=True)
    try:
        driver.get(base + photo)
        settle(driver)
        driver.execute_script(HIRES_LOG)
        result = driver.execute_script(LADDER)
        result["steps"] = []
        for _ in range(8):  # 1.5 ** 8 = 25: past the original's resolution
            ActionChains(driver).send_keys("+").perform()
            time.sleep(0.4)
            # Each file is decoded before it is laid over the preview: wait until none is loading.
            support.wait(driver, "return document.getAnimations().every(a => a.playState !== 'running')", 5)
            time.sleep(1.2)
            result["steps"].append({"scale": support.state(driver)["scale"], "hires": driver.execute_script("return window.__hires.slice()")})
        result["fetched"] = driver.execute_script(LADDER)["fetched"]
        result["consoleErrors"] = support.console_errors(driver)
    finally:
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
    return result
