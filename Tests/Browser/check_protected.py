"""A protected album of a built site in one engine (ProtectedBrowserTests builds the site): its
shell page asks for the password; a wrong one shows the error and nothing of the album; the right
one (PBKDF2 at the real 600,000 iterations) opens the album through the site's service worker,
whose photos decode; the photo page (the viewer) decodes its photo, zooms into a larger file, and
the slideshow moves on to the next photo, decrypted too; a reload in the tab does not ask again.
The right password is given with "remember on this device" ticked; then the page's lock button,
pressed from the keyboard, forgets the key (the worker's, the tab's and the device's): the password
form comes back, and again after a reload.

With --album "" it opens a site whose whole content has a password (the same shell at its root),
and --search WORD searches its encrypted index.

usage: check_protected.py --site DIR --album PATH --password PW --browser chromium|firefox|webkit [--search WORD]
(prints JSON)"""
import argparse
import json
import os
import sys
import time

from check_vault import engine
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

DECODED = """return Array.from(document.querySelectorAll(arguments[0])).map(function (i) {
  return {src: (i.currentSrc || i.src).split('/').slice(-2).join('/'), complete: i.complete, width: i.naturalWidth}; });"""


# The photo's original through the service worker, whole (decrypted as it downloads) and a range
# across chunk boundaries (fetched and decrypted alone), compared byte for byte.
STREAM = """var url = arguments[0], done = arguments[arguments.length - 1];
Promise.all([fetch(url).then(function (r) { return r.arrayBuffer().then(function (b) {
    return {length: r.headers.get('Content-Length'), bytes: new Uint8Array(b)}; }); }),
  fetch(url, {headers: {Range: 'bytes=70000-200000'}}).then(function (r) { return r.arrayBuffer().then(function (b) {
    return {status: r.status, range: r.headers.get('Content-Range'), bytes: new Uint8Array(b)}; }); })
]).then(function (got) {
  var full = got[0], part = got[1];
  done({bytes: full.bytes.length, contentLength: full.length, jpeg: full.bytes[0] === 0xFF && full.bytes[1] === 0xD8,
        rangeStatus: part.status, contentRange: part.range, rangeBytes: part.bytes.length,
        rangeMatches: part.bytes.every(function (v, i) { return v === full.bytes[70000 + i]; })});
}, function (e) { done({error: String(e)}); });"""


def wait(driver, script, timeout=20, *args):
    end = time.time() + timeout
    while time.time() < end:
        try:
            if driver.execute_script(script, *args):
                return True
        except Exception:
            pass
        time.sleep(0.2)
    return False


def images(driver, selector):
    wait(driver, "return Array.from(document.querySelectorAll(arguments[0])).every(function (i) { return i.complete; })", 20, selector)
    return driver.execute_script(DECODED, selector)


def submit(driver, password, remember=False):
    field = driver.find_element("id", "protected-password")
    field.clear()
    field.send_keys(password)
    if remember:
        driver.find_element("id", "protected-remember").click()
    driver.find_element("css selector", ".protected-form button").click()


FORM = "var f = document.querySelector('.protected-form'); return !!f && !f.hidden && !document.querySelector('.stage img.main')"
KEPT = """return [sessionStorage, localStorage].reduce(function (n, s) {
  for (var i = 0; i < s.length; i += 1) { if (s.key(i).indexOf('galleryssg-vault:') === 0) { n += 1; } } return n; }, 0)"""


def lock(driver, report):
    """Presses the lock button from the keyboard; reports what the key's places hold after."""
    report["keptBeforeLock"] = driver.execute_script(KEPT)
    report["lockShown"] = wait(driver, "var b = document.querySelector('button.vault-lock'); return !!b && !b.hidden && b.offsetWidth > 0")
    report["lockName"] = driver.execute_script("var b = document.querySelector('button.vault-lock'); return b && b.textContent.trim()")
    driver.execute_script("document.querySelector('button.vault-lock').focus()")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    report["lockedForm"] = wait(driver, FORM, 30)
    report["keptAfterLock"] = driver.execute_script(KEPT)
    driver.refresh()
    report["lockedReloadForm"] = wait(driver, FORM, 30)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--site", "--album", "--password"):
        parser.add_argument(name, required=True)
    parser.add_argument("--browser", default="chromium", choices=["chromium", "firefox", "webkit"])
    parser.add_argument("--search", help="a word to search for once the site is open (its index is encrypted too); "
                        "the first photo found is fetched whole and in a range through the service worker")
    args = parser.parse_args()
    driver, serve, console_errors = engine(args.browser)
    server, base = serve(os.path.abspath(args.site))
    report = {"browser": args.browser}
    try:
        driver.get(base + args.album)
        report["formShown"] = wait(driver, "return !document.querySelector('.protected-form').hidden")
        report["shellTitle"] = driver.title
        report["shellImages"] = len(driver.find_elements("css selector", "img"))
        submit(driver, args.password + "-wrong")
        wait(driver, "return !document.querySelector('.protected-error').hidden", 30)
        report["wrongError"] = driver.execute_script("return document.querySelector('.protected-error').textContent")
        report["wrongTitle"] = driver.title
        submit(driver, args.password, remember=True)
        report["opened"] = wait(driver, "return !document.getElementById('protected')", 60)
        report["albumTitle"] = driver.title
        report["gridImages"] = images(driver, "main img")
        first = driver.execute_script("var t = document.querySelector('main .grid a.tile'); return t && t.href")
        report["photoHref"] = first
        if args.search:
            field = driver.find_element("id", "search-input")
            field.send_keys(args.search)
            wait(driver, "return document.querySelectorAll('#search-results img').length > 0", 20)
            report["searchLinks"] = driver.execute_script("return Array.from(document.querySelectorAll('#search-results a')).map(a => a.textContent.trim())")
            report["searchImages"] = images(driver, "#search-results img")
            driver.get(driver.execute_script("return document.querySelector('#search-results a').href"))
            wait(driver, "return !document.getElementById('protected') && document.querySelector('.full-size a')")
            driver.set_script_timeout(60)
            report["stream"] = driver.execute_async_script(STREAM, driver.execute_script("return document.querySelector('.full-size a').href"))
        driver.get(first)
        report["photoOpened"] = wait(driver, "return !document.getElementById('protected') && document.querySelector('.stage img.main')")
        report["photoTitle"] = driver.title
        report["photoImages"] = images(driver, ".stage img.main")
        # The viewer's zoom: a double-click zooms in and loads the larger file into the frame.
        ActionChains(driver).double_click(driver.find_element("css selector", ".stage img.main")).perform()
        report["zoomed"] = wait(driver, "var h = document.querySelector('.stage .hires'); return h && h.complete && h.naturalWidth > 0", 20)
        report["zoomImage"] = images(driver, ".stage .hires")
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        time.sleep(0.6)
        # The slideshow goes on to the next photo, which decrypts too.
        start = driver.current_url
        play = driver.find_elements("css selector", ".viewer-tools .play")
        if play:
            play[0].click()
            report["slideshowAdvanced"] = wait(driver, "return location.href !== arguments[0]", 30, start)
            wait(driver, "return document.querySelector('.stage img.main')")
            report["slideshowImages"] = images(driver, ".stage img.main")
            ActionChains(driver).send_keys(Keys.SHIFT).perform()  # a key stops it
        driver.refresh()
        report["reloadOpened"] = wait(driver, "return !document.getElementById('protected') && document.querySelector('.stage img.main')")
        report["reloadTitle"] = driver.title
        lock(driver, report)
        report["consoleErrors"] = console_errors(driver)
    except Exception as error:  # what was seen so far is reported with the failure
        report["error"] = repr(error)[:2000]
        report["url"] = driver.current_url
        report["consoleErrors"] = console_errors(driver)
    finally:
        driver.quit()
        server.shutdown()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    main()
