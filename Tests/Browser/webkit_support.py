"""WebKitGTK (the engine of Safari) for the browser checks: Debian's MiniBrowser driven by
WebKitWebDriver (webkit2gtk-driver). Only the browser-specific pieces are here; the checks
measure with their own code, as check_viewer_firefox.py does for Firefox.

- The driver: MiniBrowser in automation mode. It is a GTK window, so it needs a display: without
  $DISPLAY (CI, a server) a private Xvfb is started for it and stopped with the driver.
- The viewport: the window's size, plus MiniBrowser's toolbar. GTK keeps the window at least as
  wide as the toolbar's natural width (447 px here), so a gtk.css in a private XDG_CONFIG_HOME lets
  its widgets shrink; innerWidth is then exactly what was asked for (390 px included).
- Console errors: WebKitWebDriver has no log endpoint and no BiDi, and MiniBrowser's setting that
  writes console messages to stdout does not reach the automation window; so serve() puts a small
  collector first in every page's <head> and console_errors() reads what it kept.
- The back/forward cache ("page cache" in WebKit) can be turned off by a WebKitSettings property.

What WebKit cannot run: anything through CDP (device metrics and DPR 3, touch emulation and CDP
touch input, network blocking and throttling, Save-Data, clearing the cache, scripts added before
a document starts, prefers-color-scheme and prefers-reduced-motion emulation), and layout-shift
entries (WebKit has no layout-shift PerformanceObserver, so no CLS)."""
import functools
import http.server
import io
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.webkitgtk.service import Service
from site_support import QuietHandler

MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"

# `swift test` starts the checks with most signals blocked, and children inherit the mask: Xvfb and
# WebKitWebDriver would ignore the SIGTERM that stops them. Unblocked before any is started.
signal.pthread_sigmask(signal.SIG_SETMASK, [])

# MiniBrowser's toolbar (buttons, address entry) decides its window's minimum width; this lets it
# shrink so that a 390 px viewport is possible. It styles MiniBrowser's own widgets only, never
# the page (WebKitGTK draws form controls itself).
GTK_CSS = "* { min-width: 0; min-height: 0; padding: 0; margin: 0; font-size: 1px; }\n"


def _display(scratch):
    """A private Xvfb when there is no display: returns its display name and process, else the
    display there is and None."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return os.environ.get("DISPLAY"), None
    read, write = os.pipe()
    # -displayfd: Xvfb picks a free display number and writes it to the pipe once it is ready.
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=open(os.path.join(scratch, "xvfb.log"), "w"))
    os.close(write)
    number = b""
    with os.fdopen(read, "rb") as pipe:
        while not number.endswith(b"\n"):
            chunk = pipe.read(1)
            if not chunk:
                raise RuntimeError("Xvfb did not start: see %s" % os.path.join(scratch, "xvfb.log"))
            number += chunk
    return ":" + number.decode().strip(), xvfb


def browser(page_cache=True):
    """MiniBrowser through WebKitWebDriver, at 1366x768, with the back/forward cache on or off."""
    scratch = tempfile.mkdtemp(prefix="galleryssg-webkit-")
    display, xvfb = _display(scratch)
    os.makedirs(os.path.join(scratch, "gtk-3.0"))
    with open(os.path.join(scratch, "gtk-3.0", "gtk.css"), "w") as file:
        file.write(GTK_CSS)
    # WebKitWebDriver passes its environment on to MiniBrowser, which reads the gtk.css there.
    env = dict(os.environ, XDG_CONFIG_HOME=scratch, **({"DISPLAY": display} if display else {}))
    options = webdriver.WebKitGTKOptions()
    options.binary_location = os.environ.get("MINIBROWSER", MINIBROWSER)
    for flag in ("--automation", "--enable-page-cache=%s" % ("true" if page_cache else "false")):
        options.add_argument(flag)
    service = Service(os.environ.get("WEBKITWEBDRIVER", "/usr/bin/WebKitWebDriver"),
                      log_output=os.path.join(scratch, "webdriver.log"), env=env)
    try:
        driver = webdriver.WebKitGTK(options=options, service=service)
    except Exception:
        if xvfb:
            xvfb.terminate()
        raise
    driver.set_page_load_timeout(30)
    quit = driver.quit

    def quit_all():
        try:
            quit()
        finally:
            if xvfb:
                xvfb.terminate()
                xvfb.wait()
            shutil.rmtree(scratch, ignore_errors=True)
    driver.quit = quit_all
    viewport(driver, 1366, 768)
    return driver


def viewport(driver, width, height, mobile=False, scheme="light"):
    """Sizes the window so that the page's viewport is exactly width x height (the toolbar's
    height added), or fails saying what it got."""
    outer = [width, height]
    for _ in range(5):
        driver.set_window_size(max(outer[0], 100), max(outer[1], 100))
        time.sleep(0.2)
        inner = driver.execute_script("return [innerWidth, innerHeight]")
        if inner == [width, height]:
            return
        outer = [outer[0] + width - inner[0], outer[1] + height - inner[1]]
    raise RuntimeError("WebKit viewport %r, asked for %dx%d" % (inner, width, height))


# What stands in for a console log: every page the local server sends gets this first in its
# <head>, and it keeps uncaught errors, rejected promises and console.error calls in the tab's
# sessionStorage, so that those of a page already left are read too.
ERROR_COLLECTOR = b"""<script>(function () {
  function keep(text) {
    try { var list = JSON.parse(sessionStorage.getItem('__errors') || '[]'); list.push(String(text));
          sessionStorage.setItem('__errors', JSON.stringify(list)); } catch (e) {}
  }
  addEventListener('error', function (e) { keep('script: ' + e.message + ' ' + (e.filename || '') + ':' + (e.lineno || '')); });
  addEventListener('unhandledrejection', function (e) { keep('promise: ' + (e.reason && e.reason.message || e.reason)); });
  var error = console.error;
  console.error = function () { keep('console: ' + Array.prototype.join.call(arguments, ' ')); return error.apply(console, arguments); };
})();</script>"""


class CollectingHandler(QuietHandler):
    """The local server's handler with ERROR_COLLECTOR put into every HTML page it sends."""

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        if not path.endswith(".html") or not os.path.isfile(path):
            return super().send_head()
        with open(path, "rb") as file:
            body = file.read()
        at = body.find(b"<head>")
        at = at + len(b"<head>") if at >= 0 else 0
        body = body[:at] + ERROR_COLLECTOR + body[at:]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(folder):
    """site_support.serve with CollectingHandler."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CollectingHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def console_errors(driver):
    """The errors ERROR_COLLECTOR has kept in this tab since the last call (none on a page the
    server did not send, such as a data: URL)."""
    try:
        return driver.execute_script(
            "var l = JSON.parse(sessionStorage.getItem('__errors') || '[]'); sessionStorage.removeItem('__errors'); return l;")
    except Exception:
        return []
