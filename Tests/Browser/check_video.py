#!/usr/bin/env python3
"""Checks the video clips of a built galleryssg site (issue 28) in headless Chromium or Firefox ESR
and prints one JSON object; VideoBrowserTests.swift asserts on it, this script only measures.

For every clip page (a `photos/<id>/` folder with a video.mp4, whatever the ids are):
- the <video>'s attributes (poster, width, height, preload, controls, playsinline, its <source>)
  and the poster file's own size;
- its box and the stage's, at load and again once playback has started;
- videoWidth/videoHeight and duration once the metadata is there (a rotated clip reports its
  shown, turned size), and whether the page fetched video.mp4 before play() (preload=none);
- play() (muted: see below): its promise, whether currentTime passed 0.3 s (or the clip, if
  shorter, ended) and how long that took, the element's `error` and networkState;
- CLS from a buffered layout-shift PerformanceObserver set up before the page's own scripts
  (site_support.CLS_OBSERVER), read after playback started. Chromium only: Firefox has no
  layout-shift entries, so it is null there;
- console and script errors.
Then the slideshow over a clip: on the shortest clip with a next page (of a second or more
where there is one), sessionStorage "galleryssg-slideshow" = "1" and a reload; the URL before and
after, the seconds from the reload to the next page, and what the clip did meanwhile. And the home
grid: its tiles, and the .badge of each clip tile with its text. Then every Live Photo's page (a
motion.mp4 beside it): LIVE pressed shows and plays the motion (muted) over the still, and it ends
hidden; and a touch swipe of 40 % of the width over a clip's picture on a 390 px screen goes to the
next photo.

Browser flags: Chromium runs with site_support.browser()'s flags (--headless=new, --no-sandbox,
--disable-dev-shm-usage, --disable-gpu, --hide-scrollbars, --force-color-profile=srgb,
--window-size=1366,768) and nothing for autoplay: no --autoplay-policy=no-user-gesture-required.
Muted play() is allowed without a user gesture in headless Chromium and Firefox as they come, and
leaving the default policy in place means the slideshow's reload is refused sound (as for a
reader whose page was opened by the previous one's script), so its muted fallback is what is
exercised. Firefox runs as check_viewer_firefox.browser() makes it ($GECKODRIVER, BiDi on).

usage: check_video.py --site DIR [--browser chromium|firefox] [--screenshots DIR]
"""
import argparse
import glob
import json
import os
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repository
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import viewer_support as support  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

# The clip page as loaded: the element's attributes, boxes and state before anything is played.
AT_LOAD = """
const v = document.querySelector('.stage video.main'), stage = document.querySelector('.stage');
if (!v) { return null; }
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
const source = v.querySelector('source');
return {attributes: {poster: v.getAttribute('poster'), width: v.getAttribute('width'), height: v.getAttribute('height'),
                     preload: v.getAttribute('preload'), controls: v.hasAttribute('controls'), playsinline: v.hasAttribute('playsinline'),
                     source: source ? source.getAttribute('src') : null, type: source ? source.getAttribute('type') : null},
        posterURL: v.poster, rect: box(v), stage: box(stage), stageRatio: parseFloat(stage.style.getPropertyValue('--ar')) || null,
        clipTools: stage.classList.contains('clip-tools'),
        toolbar: Array.from(document.querySelectorAll('.viewer-tools button')).map(b => b.className),
        toolbarShown: getComputedStyle(document.querySelector('.viewer-tools')).display !== 'none',
        readyState: v.readyState, networkState: v.networkState,
        next: (document.querySelector('.photo-nav a[rel=next]') || {}).href || null,
        seconds: parseFloat((document.querySelector('.viewer-tools .play') || {getAttribute: () => null}).getAttribute('data-seconds')) || null};
"""

# Loads the poster as an image of its own: its natural size.
POSTER_SIZE = """
const done = arguments[arguments.length - 1], img = new Image();
img.onload = () => done([img.naturalWidth, img.naturalHeight]);
img.onerror = () => done(null);
img.src = arguments[0];
"""

# Muted play(); the promise's outcome lands in window.__play, the events in window.__events.
PLAY = """
const v = document.querySelector('.stage video.main');
window.__events = [];
['loadedmetadata', 'playing', 'ended', 'error', 'stalled'].forEach(t => v.addEventListener(t, () => window.__events.push(t)));
v.querySelectorAll('source').forEach(s => s.addEventListener('error', () => window.__events.push('source-error')));
window.__play = null;
v.muted = true;
v.play().then(() => { window.__play = 'resolved'; }, e => { window.__play = String(e); });
"""

STATE = """
const v = document.querySelector('.stage video.main'), r = v.getBoundingClientRect(), s = document.querySelector('.stage').getBoundingClientRect();
return {currentTime: v.currentTime, duration: isFinite(v.duration) ? v.duration : null, videoWidth: v.videoWidth, videoHeight: v.videoHeight,
        paused: v.paused, ended: v.ended, muted: v.muted, readyState: v.readyState, networkState: v.networkState,
        error: v.error ? {code: v.error.code, message: v.error.message} : null, currentSrc: v.currentSrc,
        play: window.__play, events: window.__events, rect: [r.left, r.top, r.width, r.height], stage: [s.left, s.top, s.width, s.height]};
"""

# Played far enough: past 0.3 s, or to its end when the clip is shorter; or failed.
PLAYED = """
const v = document.querySelector('.stage video.main');
return v.currentTime > 0.3 || (v.ended && v.currentTime > 0) || !!v.error || (window.__play !== null && window.__play !== 'resolved');
"""

GRID = """
const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
const tiles = Array.from(document.querySelectorAll('.grid .tile'));
return {tiles: tiles.length, badges: tiles.filter(t => t.querySelector('.badge')).map(t => {
  const b = t.querySelector('.badge'), br = b.getBoundingClientRect(), tr = t.getBoundingClientRect();
  return {href: t.getAttribute('href'), text: b.textContent.replace(/\\s+/g, ' ').trim(),
          hidden: Array.from(b.querySelectorAll('.visually-hidden')).map(h => h.textContent),
          inside: br.width > 0 && br.left >= tr.left && br.right <= tr.right && br.top >= tr.top && br.bottom <= tr.bottom,
          box: box(b)};
})};
"""


def clip_pages(site):
    """Every clip's photo page: the folders under photos/ that hold a video.mp4."""
    return sorted("photos/%s/index.html" % os.path.basename(os.path.dirname(path))
                  for path in glob.glob(os.path.join(site, "photos", "*", "video.mp4")))


def fetched(requests, page, name):
    folder = "/" + page.rsplit("/", 1)[0] + "/"
    return any(path.split("?")[0] == folder + name for path in requests)


def measure(driver, base, page, requests, firefox, screenshots):
    """One clip page: loaded, its metadata and a muted play()."""
    support.viewport(driver, 1366, 768)
    del requests[:]
    driver.get(base + page)
    support.settle(driver)
    result = driver.execute_script(AT_LOAD)
    if result is None:
        return {"video": False, "consoleErrors": support.console_errors(driver)}
    result["video"] = True
    result["fetchedBeforePlay"] = fetched(requests, page, "video.mp4")
    result["posterFile"] = driver.execute_async_script(POSTER_SIZE, result["posterURL"])
    driver.execute_script(PLAY)
    began = time.time()
    result["advanced"] = support.wait(driver, PLAYED, 10)
    result["secondsToAdvance"] = round(time.time() - began, 2)
    time.sleep(0.3)  # a frame or two more, for a shift that follows the first frame
    result["playback"] = driver.execute_script(STATE)
    result["fetchedAfterPlay"] = fetched(requests, page, "video.mp4")
    result["cls"] = None if firefox else driver.execute_script("return window.__cls")
    result["shifts"] = None if firefox else driver.execute_script("return window.__shifts")
    if screenshots:
        result["screenshot"] = os.path.join(screenshots, page.split("/")[1] + ("-firefox" if firefox else "") + ".png")
        driver.save_screenshot(result["screenshot"])
    driver.execute_script("document.querySelector('.stage video.main').pause()")
    result["consoleErrors"] = support.console_errors(driver)
    return result


def slideshow(driver, base, pages):
    """The slideshow on the shortest clip that has a next page: a reload with it playing plays the
    clip (muted, the default autoplay policy refusing sound) and moves on when it ends. Clips under
    a second are passed over while a longer one has a next page: a one-frame clip ends before
    the reload returns, which shows no playback and no wait for the end."""
    candidates = sorted((p["playback"]["duration"], page) for page, p in pages.items()
                        if p.get("video") and p.get("next") and p.get("playback", {}).get("duration"))
    if not candidates:
        return None
    duration, page = ([c for c in candidates if c[0] >= 1] or candidates)[0]
    support.viewport(driver, 1366, 768)
    driver.get(base + page)
    support.settle(driver)
    start = driver.current_url
    expected = driver.execute_script("return document.querySelector('.photo-nav a[rel=next]').href")
    seconds = driver.execute_script("return parseFloat(document.querySelector('.viewer-tools .play').getAttribute('data-seconds'))")
    driver.execute_script("sessionStorage.setItem('galleryssg-slideshow', '1')")
    began = time.time()
    driver.refresh()
    seen = {"maxTime": 0, "muted": None, "pressed": None}
    url = start
    while time.time() - began < duration + seconds + 15:
        try:
            state = driver.execute_script(
                "const v = document.querySelector('.stage video.main'), p = document.querySelector('.viewer-tools .play');"
                " return {url: location.href, t: v ? v.currentTime : null, muted: v ? v.muted : null,"
                " pressed: p ? p.getAttribute('aria-pressed') : null}")
        except Exception:  # the page is being replaced under the script
            state = None
        if not state:  # (Firefox may also answer null then)
            time.sleep(0.05)
            continue
        url = state["url"]
        # Firefox shows the next document's initial about:blank for a moment on the way.
        if url != start and not url.startswith("about:"):
            break
        if state["t"] is not None:
            seen["maxTime"] = max(seen["maxTime"], state["t"])
            seen["muted"], seen["pressed"] = state["muted"], state["pressed"]
        time.sleep(0.05)
    waited = round(time.time() - began, 2)
    result = {"clip": page, "duration": duration, "dataSeconds": seconds, "start": start, "expectedNext": expected,
              "after": url, "advanced": url != start and not url.startswith("about:"), "waited": waited, **seen}
    # Still playing on the next page (informative: a short last clip may have ended it already).
    support.wait(driver, "return document.readyState === 'complete'", 10)
    result["playingOnNext"] = driver.execute_script(
        "const p = document.querySelector('.viewer-tools .play'); return p ? p.getAttribute('aria-pressed') === 'true' : null")
    support.settle(driver)
    ActionChains(driver).send_keys(Keys.SHIFT).perform()  # any key stops the slideshow
    driver.execute_script("sessionStorage.clear()")
    result["consoleErrors"] = support.console_errors(driver)
    return result


LIVE_STATE = """
const motion = document.querySelector(".stage video.motion"), live = document.querySelector(".viewer-tools .live");
return motion && {hidden: motion.hidden, currentTime: motion.currentTime, ended: motion.ended, muted: motion.muted,
                  error: motion.error && motion.error.code, pressed: live && live.getAttribute("aria-pressed"),
                  src: motion.currentSrc || motion.getAttribute("src")};
"""


def live_photos(driver, base, site):
    """Each Live Photo's page (a photos/<id>/ folder with a motion.mp4): LIVE pressed plays the
    motion over the still (shown, muted, currentTime advancing), and it ends hidden on the still."""
    results = {}
    for folder in sorted(glob.glob(os.path.join(site, "photos", "*", "motion.mp4"))):
        page = "photos/%s/index.html" % os.path.basename(os.path.dirname(folder))
        support.viewport(driver, 1366, 768)
        driver.get(base + page)
        support.settle(driver)
        result = {"before": driver.execute_script(LIVE_STATE)}
        button = driver.find_elements(By.CSS_SELECTOR, ".viewer-tools .live")
        result["button"] = bool(button)
        if button:
            button[0].click()
            result["played"] = support.wait(driver, "const m = document.querySelector('.stage video.motion');"
                                            " return !!m && !m.hidden && m.currentTime > 0.3;", 10)
            result["playing"] = driver.execute_script(LIVE_STATE)
            result["endedOnStill"] = support.wait(driver, "const m = document.querySelector('.stage video.motion');"
                                                  " return !!m && m.hidden;", 15)
            result["after"] = driver.execute_script(LIVE_STATE)
        result["consoleErrors"] = support.console_errors(driver)
        results[page] = result
    return results


def swipe(driver, base, pages):
    """A touch drag of 40 % of the width leftwards over a clip's picture (above its controls), on a
    phone-sized screen: the page goes to the next photo, as on a photo's page."""
    page = next((name for name, result in sorted(pages.items()) if result.get("next")), None)
    if page is None:
        return None
    support.viewport(driver, 390, 844, mobile=True)
    support.touch_emulation(driver, True)
    driver.get(base + page)
    support.settle(driver)
    start = driver.current_url
    expected = driver.execute_script("var a = document.querySelector('.photo-nav a[rel=next]'); return a ? a.href : null")
    box = driver.execute_script("const r = document.querySelector('.stage video.main').getBoundingClientRect();"
                                " return [r.left, r.top, r.width, r.height];")
    y = box[1] + box[3] * 0.35
    x0 = box[0] + box[2] * 0.75
    support.drag(driver, x0, y, x0 - box[2] * 0.4, y + 3, 8, 0.05)
    moved = support.wait(driver, "return location.href !== %s" % json.dumps(start), 4)
    if moved:
        support.settle(driver)
    result = {"page": page, "start": start, "next": expected, "navigated": moved, "end": driver.current_url}
    support.touch_emulation(driver, False)
    result["consoleErrors"] = support.console_errors(driver)
    return result


def grid(driver, base):
    support.viewport(driver, 1366, 768)
    driver.get(base + "index.html")
    support.settle(driver)
    result = driver.execute_script(GRID)
    result["consoleErrors"] = support.console_errors(driver)
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--browser", choices=("chromium", "firefox"), default="chromium")
    parser.add_argument("--screenshots", help="a folder for a screenshot of each clip page after play()")
    args = parser.parse_args()
    support.SITE = os.path.abspath(args.site)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)
    server, base, requests = support.serve_recording(support.SITE)
    firefox = args.browser == "firefox"
    driver = support.use_firefox() if firefox else support.browser()
    pages = clip_pages(support.SITE)
    report = {"browser": args.browser, "clipPages": pages, "pages": {}}
    try:
        report[args.browser] = driver.capabilities.get("browserVersion")
        for page in pages:
            report["pages"][page] = measure(driver, base, page, requests, firefox, args.screenshots)
        report["slideshow"] = slideshow(driver, base, report["pages"])
        report["grid"] = grid(driver, base)
        report["live"] = live_photos(driver, base, support.SITE)
        report["swipe"] = swipe(driver, base, report["pages"])
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(report))


if __name__ == "__main__":
    main()
