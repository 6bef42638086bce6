"""The slideshow (issue 14, 4.), its pause while the tab is hidden, and what a photo page fetches
after load (8.: Save-Data, 2G and cellular links)."""
import json
import time
import urllib.parse

import viewer_support as support
from site_support import settle
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def slideshow(driver, base, photo):
    """Play on a photo page: it advances by itself; a key press stops it. The grid's button starts it."""
    support.viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    seconds = float(driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('data-seconds')"))
    start = driver.current_url
    driver.find_element(By.CSS_SELECTOR, ".viewer-tools .play").click()
    began = time.time()
    advanced = support.wait(driver, "return location.href !== %s" % json.dumps(start), seconds * 3 + 5)
    result = {"seconds": seconds, "start": start, "advanced": advanced, "after": driver.current_url,
              "waited": round(time.time() - began, 2)}
    settle(driver)
    result["stillPlaying"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')") == "true"
    result["labelPlaying"], result["pauseWords"] = driver.execute_script(
        "const p = document.querySelector('.viewer-tools .play'); return [p.querySelector('.label').textContent, p.getAttribute('data-pause')]")
    second = driver.current_url
    ActionChains(driver).send_keys(Keys.SHIFT).perform()
    time.sleep(seconds * 1.5 + 1)
    result["afterKey"] = driver.current_url
    result["stoppedAt"] = second
    result["pressedAfterKey"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')")
    result["labelAfterKey"] = driver.execute_script("return document.querySelector('.viewer-tools .play .label').textContent")
    driver.get(base + "index.html")
    settle(driver)
    first = driver.execute_script("return document.querySelector('.grid > .tile').href")
    driver.find_element(By.CSS_SELECTOR, "button.slideshow").click()
    support.wait(driver, "return location.href === %s" % json.dumps(first), 10)
    settle(driver)
    result["gridStartsAt"] = driver.current_url
    result["gridFirst"] = first
    result["gridPlaying"] = driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')") == "true"
    ActionChains(driver).send_keys(Keys.SHIFT).perform()
    result["consoleErrors"] = support.console_errors(driver)
    return result


def hidden(driver, base, photo):
    """Playing, the tab goes behind a new one (document.hidden, a real visibilitychange) for twice
    a photo's time, and comes back: it was still on its photo, still playing, and went on to the
    next photo a photo's time after it was shown again."""
    support.viewport(driver, 1366, 768)
    driver.get(base + photo)
    settle(driver)
    seconds = float(driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('data-seconds')"))
    start = driver.current_url
    driver.execute_script("window.__samePage = true; window.__visibility = [];"
                          " document.addEventListener('visibilitychange', () => window.__visibility.push(document.visibilityState))")
    driver.find_element(By.CSS_SELECTOR, ".viewer-tools .play").click()
    tab = driver.current_window_handle
    driver.switch_to.new_window("tab")
    time.sleep(seconds * 2 + 1)
    driver.close()
    driver.switch_to.window(tab)
    shown = time.time()
    result = {"seconds": seconds, "start": start, "urlWhenShown": driver.current_url,
              "samePage": driver.execute_script("return window.__samePage === true"),
              "visibility": driver.execute_script("return window.__visibility"),
              "playing": driver.execute_script("return document.querySelector('.viewer-tools .play').getAttribute('aria-pressed')")}
    result["advanced"] = support.wait(driver, "return location.href !== %s" % json.dumps(start), seconds * 3 + 5)
    result.update({"after": driver.current_url, "secondsAfterShown": round(time.time() - shown, 2)})
    settle(driver)
    ActionChains(driver).send_keys(Keys.SHIFT).perform()
    result["consoleErrors"] = support.console_errors(driver)
    return result


# What a photo page holds after load, with the connection it saw.
AFTER_LOAD = """
const c = navigator.connection || {};
return {saveData: c.saveData === undefined ? null : c.saveData, effectiveType: c.effectiveType || null, type: c.type || null,
        prefetch: Array.from(document.querySelectorAll('link[rel=prefetch]')).map(l => l.href),
        next: document.querySelector('.photo-nav a[rel=next]').getAttribute('href')};
"""

# Chromium on Linux does not have navigator.connection.type (Android and ChromeOS do; CDP's
# connectionType changes only effectiveType's inputs), so a cellular link is this getter.
CELLULAR = "Object.defineProperty(NetworkInformation.prototype, 'type', {get: () => 'cellular', configurable: true});"


def save_data(driver, base, photo):
    """After load, a photo page preloads the next preview and prefetches its page, but not with
    Save-Data on (CDP's data saver override sets navigator.connection.saveData), on a 2G link (CDP
    network conditions with 1.5 s of latency: effectiveType 2g) or on a cellular one. The
    requests are counted where they arrive, at a server of their own: one still on its way over
    the slow link counts too."""
    support.viewport(driver, 390, 844, mobile=True)
    server, base, requests = support.serve_recording(support.SITE)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    result = {}
    cases = (("saveData", {"dataSaverEnabled": True}, None, None), ("2g", {}, {"latency": 1500, "connectionType": "cellular2g"}, None),
             ("cellular", {}, {"latency": 0, "connectionType": "cellular4g"}, CELLULAR), ("normal", {}, None, None))
    try:
        for name, saver, network, script in cases:
            driver.execute_cdp_cmd("Emulation.setDataSaverOverride", saver)
            conditions = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
            driver.execute_cdp_cmd("Network.emulateNetworkConditions", dict(conditions, **(network or {})))
            added = script and driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": script})["identifier"]
            driver.get(base + photo)
            settle(driver)
            time.sleep(5 if network and network["latency"] else 1.5)
            result[name] = driver.execute_script(AFTER_LOAD)
            next_page = urllib.parse.urljoin(base + photo, result[name]["next"])
            folder = urllib.parse.urlparse(next_page).path.rsplit("/", 1)[0] + "/"
            result[name].update({"nextPage": next_page, "requested": [path for path in requests if path.startswith(folder)]})
            del requests[:]
            if added:
                driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": added})
    finally:
        driver.execute_cdp_cmd("Emulation.setDataSaverOverride", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": False})
        server.shutdown()
    return result
