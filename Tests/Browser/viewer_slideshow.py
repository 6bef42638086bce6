"""The slideshow (issue 14, 4.) and what a photo page fetches after load (8.: Save-Data)."""
import json
import time

import viewer_support as support
from check_site import settle
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


def save_data(driver, base, photo):
    """After load, a photo page preloads the next preview and prefetches its page, but not with
    Save-Data on (CDP's data saver override sets navigator.connection.saveData)."""
    support.viewport(driver, 390, 844, mobile=True)
    result = {}
    for name, on in (("saveData", True), ("normal", False)):
        driver.execute_cdp_cmd("Emulation.setDataSaverOverride", {"dataSaverEnabled": on})
        driver.get(base + photo)
        settle(driver)
        time.sleep(1)
        next_page = driver.execute_script("return document.querySelector('.photo-nav a[rel=next]').href")
        folder = next_page.rsplit("/", 1)[0] + "/"
        result[name] = driver.execute_script("""
          return {saveData: navigator.connection ? navigator.connection.saveData : null,
                  prefetch: Array.from(document.querySelectorAll('link[rel=prefetch]')).map(l => l.href),
                  requested: performance.getEntriesByType('resource').map(e => e.name).filter(n => n.startsWith(arguments[0]))};
        """, folder)
        result[name]["nextPage"] = next_page
    driver.execute_cdp_cmd("Emulation.setDataSaverOverride", {})
    return result
