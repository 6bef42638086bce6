"""Infinite scroll on grids (issue 14, 3.): the whole grid in one document, the address following
the page in view, Back, and the retry link."""
import os
import re
import time
import urllib.parse

import viewer_support as support
from check_site import settle
from selenium.webdriver.common.by import By


TILE_TOP = "const a = Array.from(document.querySelectorAll('.grid > .tile')).find(t => t.href === arguments[0]); return a ? a.getBoundingClientRect().top : null;"


def infinite(driver, base):
    """Scrolls the sample grid to the end: later pages' tiles join it, the address follows, Back returns."""
    support.viewport(driver, 390, 844, mobile=True)
    driver.get(base + "index.html")
    settle(driver)
    driver.execute_script("window.__sameDocument = true")
    pages = ["index.html"] + ["page/%d/index.html" % n for n in range(2, 1000) if os.path.exists(os.path.join(support.SITE, "page/%d/index.html" % n))]
    expected = sum(len(re.findall(r'<a class="tile"', open(os.path.join(support.SITE, p), encoding="utf-8").read())) for p in pages)
    result = {"tilesAtStart": driver.execute_script("return document.querySelectorAll('.grid > .tile').length"),
              "expectedTiles": expected, "pageSize": len(re.findall(r'<a class="tile"', open(os.path.join(support.SITE, "index.html"), encoding="utf-8").read())),
              "urls": []}
    for _ in range(200):
        driver.execute_script("window.scrollBy(0, 250)")
        time.sleep(0.12)
        url = driver.current_url
        if url not in result["urls"]:
            result["urls"].append(url)
        if driver.execute_script("return document.documentElement.classList.contains('all') && innerHeight + scrollY >= document.documentElement.scrollHeight - 2"):
            break
    time.sleep(0.5)
    result["tilesAtEnd"] = driver.execute_script("return document.querySelectorAll('.grid > .tile').length")
    result["sameDocument"] = driver.execute_script("return window.__sameDocument === true")
    result["cls"] = driver.execute_script("return window.__cls")
    result["shifts"] = driver.execute_script("return window.__shifts")
    result["footerVisible"] = driver.execute_script("return getComputedStyle(document.querySelector('.site-footer')).visibility === 'visible'")
    result["urlAtEnd"] = driver.current_url
    # A tile of page 2 that starts its row, at the middle of the view: the address becomes page/2/.
    page2 = [urllib.parse.urljoin(base + "page/2/index.html", href) for href in
             re.findall(r'class="tile" href="([^"]+)"', open(os.path.join(support.SITE, "page/2/index.html"), encoding="utf-8").read())]
    anchor = driver.execute_script("""
      const tiles = Array.from(document.querySelectorAll('.grid > .tile'));
      const start = tiles.find((t, i) => arguments[0].includes(t.href) && i > 0 &&
                               Math.abs(tiles[i - 1].getBoundingClientRect().top - t.getBoundingClientRect().top) > 2);
      scrollTo(0, scrollY + start.getBoundingClientRect().top - innerHeight / 2 + 5);
      return start.href;""", page2)
    time.sleep(0.8)
    result["urlWithPage2InView"] = driver.current_url
    result["anchor"] = anchor
    result["anchorTopBefore"] = driver.execute_script(TILE_TOP, anchor)
    driver.get(anchor)
    settle(driver)
    driver.back()
    settle(driver)
    time.sleep(0.5)
    result["urlAfterBack"] = driver.current_url
    result["anchorTopAfterBack"] = driver.execute_script(TILE_TOP, anchor)
    result["consoleErrors"] = support.console_errors(driver)
    return result


def retry(driver, base):
    """A next page that cannot be fetched: the page links and footer come back with a retry link,
    which appends the tiles once the page can be fetched again."""
    support.viewport(driver, 390, 844, mobile=True)
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/page/2/index.html"]})
    driver.get(base + "index.html")
    settle(driver)
    driver.execute_script("window.scrollBy(0, 200)")
    shown = support.wait(driver, "return !!document.querySelector('.more-error a')", 10)
    visible = lambda css: driver.execute_script("return getComputedStyle(document.querySelector(arguments[0])).visibility", css)
    result = {"errorShown": shown, "pagination": visible("nav.pagination"), "footer": visible(".site-footer"),
              "tilesBefore": driver.execute_script("return document.querySelectorAll('.grid > .tile').length")}
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    if shown:
        driver.find_element(By.CSS_SELECTOR, ".more-error a").click()
        support.wait(driver, "return document.querySelectorAll('.grid > .tile').length > arguments[0]".replace("arguments[0]", str(result["tilesBefore"])), 10)
    result["tilesAfter"] = driver.execute_script("return document.querySelectorAll('.grid > .tile').length")
    result["errorGone"] = driver.execute_script("return !document.querySelector('.more-error')")
    result["url"] = driver.current_url
    support.console_errors(driver)  # the blocked request's own message, expected here
    return result
