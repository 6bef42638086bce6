"""What the viewer checks (check_viewer.py and its viewer_*.py parts) share: the site being checked,
waiting, the photo page's zoom state, and CDP touch input.

The four browser-specific helpers (viewport, console_errors, drag, touch_emulation) are module
attributes that the parts look up at call time (`support.viewport(...)`), so that
check_viewer.py --browser firefox can put check_viewer_firefox.py's in their place (and --browser
webkit webkit_support.py's, with its server)."""
import functools
import http.server
import os
import threading
import time
import urllib.parse

from site_support import QuietHandler, browser, console_errors, serve, settle, viewport  # noqa: F401 (re-exported)
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

# The built site's folder (check_viewer.py sets it from --site).
SITE = None

ZOOM_STATE = """
const stage = document.querySelector('.stage'), frame = stage.querySelector('.full'), img = frame.querySelector('img.main');
const s = stage.getBoundingClientRect(), f = frame.getBoundingClientRect(), hires = frame.querySelector('.hires');
return {scale: f.width / s.width, covers: f.left <= s.left + 0.5 && f.top <= s.top + 0.5 && f.right >= s.right - 0.5 && f.bottom >= s.bottom - 0.5,
        left: f.left - s.left, top: f.top - s.top,
        mainFile: (img.getAttribute('srcset') || '').split(',').map(e => e.trim().split(/\\s+/)).filter(e => new URL(e[0], document.baseURI).href === img.currentSrc).map(e => parseInt(e[1], 10))[0] || img.naturalWidth,
        hiresNatural: hires && hires.complete ? hires.naturalWidth : 0, hiresSrc: hires ? hires.currentSrc : null, url: location.href};
"""

STAGE_BOX = "const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"


def site_path(*parts):
    return os.path.join(SITE, *parts)


def read(path):
    with open(site_path(path), encoding="utf-8") as file:
        return file.read()


def file_size(url):
    """The size on disk of the site file that a URL of the local server names."""
    return os.path.getsize(site_path(urllib.parse.unquote(urllib.parse.urlparse(url).path).lstrip("/")))


def chromium(*flags, prefs=None):
    """A headless Chromium of its own beside site_support.browser()'s, with more command-line flags
    or profile preferences (JavaScript off, say)."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1366,768") + flags:
        options.add_argument(flag)
    if prefs:
        options.add_experimental_option("prefs", prefs)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")))
    driver.set_page_load_timeout(30)
    return driver


def serve_recording(folder):
    """Serves `folder` like site_support.serve, and lists the path of every request as it arrives
    (a request still under way counts, where the page's resource timing lists only finished ones)."""
    requests = []

    class Recording(QuietHandler):
        def do_GET(self):
            requests.append(urllib.parse.unquote(self.path))
            super().do_GET()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Recording, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1], requests


def state(driver):
    """The zoom state once the zoom's transition has ended."""
    wait(driver, "return document.getAnimations().every(a => a.playState !== 'running')", 5)
    return driver.execute_script(ZOOM_STATE)


def wait(driver, script, timeout=10, *args):
    try:
        WebDriverWait(driver, timeout).until(lambda d: d.execute_script(script, *args))
        return True
    except Exception:
        return False


def stage_box(driver):
    return driver.execute_script(STAGE_BOX)


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


def use_firefox():
    """Puts check_viewer_firefox.py's driver-specific helpers in place of the Chromium ones."""
    import check_viewer_firefox as gecko
    global viewport, console_errors, drag, touch_emulation
    viewport, console_errors, drag = gecko.viewport, gecko.console_errors, gecko.touch_drag
    touch_emulation = lambda driver, on: None  # noqa: E731 (WebDriver touch actions need no switch)
    return gecko.browser()


def use_webkit():
    """Puts webkit_support.py's helpers and server in place of the Chromium ones; the touch drag
    is WebDriver's touch actions, as in Firefox."""
    import check_viewer_firefox as gecko
    import webkit_support as webkit
    global viewport, console_errors, drag, touch_emulation, serve, webkit_browser
    viewport, console_errors, serve, drag = webkit.viewport, webkit.console_errors, webkit.serve, gecko.touch_drag
    touch_emulation = lambda driver, on: None  # noqa: E731
    webkit_browser = webkit.browser
