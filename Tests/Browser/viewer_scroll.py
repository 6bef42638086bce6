"""Infinite scroll on grids (issue 14, 3.): the whole grid in one document, the address following
the page in view, Back, and the retry link."""
import os
import re
import time
import urllib.parse

import viewer_support as support
from site_support import CLS_OBSERVER, settle
from selenium.webdriver.common.by import By


def grid_pages():
    """The home grid's pages, in order."""
    return ["index.html"] + ["page/%d/index.html" % n for n in range(2, 1000) if os.path.exists(support.site_path("page/%d/index.html" % n))]


TILE_TOP = "const a = Array.from(document.querySelectorAll('.grid > .tile')).find(t => t.href === arguments[0]); return a ? a.getBoundingClientRect().top : null;"


def scroll_to_end(driver):
    """Scrolls down 250 px at a time until every page is in and the end is in view; returns the
    addresses the page had on the way."""
    urls = []
    for _ in range(200):
        driver.execute_script("window.scrollBy(0, 250)")
        time.sleep(0.12)
        if driver.current_url not in urls:
            urls.append(driver.current_url)
        if driver.execute_script("return document.documentElement.classList.contains('all') && innerHeight + scrollY >= document.documentElement.scrollHeight - 2"):
            break
    time.sleep(0.5)
    return urls


def centre_row_start(driver, base, page):
    """Scrolls the first tile of grid page `page` that starts a row to the middle of the view and
    returns its address."""
    tiles = [urllib.parse.urljoin(base + page, href) for href in re.findall(r'class="tile" href="([^"]+)"', support.read(page))]
    return driver.execute_script("""
      const tiles = Array.from(document.querySelectorAll('.grid > .tile'));
      const start = tiles.find((t, i) => arguments[0].includes(t.href) && i > 0 &&
                               Math.abs(tiles[i - 1].getBoundingClientRect().top - t.getBoundingClientRect().top) > 2);
      scrollTo(0, scrollY + start.getBoundingClientRect().top - innerHeight / 2 + 5);
      return start.href;""", tiles)


def infinite(driver, base):
    """Scrolls the sample grid to the end: later pages' tiles join it, the address follows, Back returns."""
    support.viewport(driver, 390, 844, mobile=True)
    driver.get(base + "index.html")
    settle(driver)
    driver.execute_script("window.__sameDocument = true")
    pages = grid_pages()
    expected = sum(len(re.findall(r'<a class="tile"', support.read(p))) for p in pages)
    result = {"tilesAtStart": driver.execute_script("return document.querySelectorAll('.grid > .tile').length"),
              "expectedTiles": expected, "pageSize": len(re.findall(r'<a class="tile"', support.read("index.html")))}
    result["urls"] = scroll_to_end(driver)
    result["tilesAtEnd"] = driver.execute_script("return document.querySelectorAll('.grid > .tile').length")
    result["sameDocument"] = driver.execute_script("return window.__sameDocument === true")
    result["cls"] = driver.execute_script("return window.__cls")
    result["shifts"] = driver.execute_script("return window.__shifts")
    result["footerVisible"] = driver.execute_script("return getComputedStyle(document.querySelector('.site-footer')).visibility === 'visible'")
    result["urlAtEnd"] = driver.current_url
    # A tile of page 2 that starts its row, at the middle of the view: the address becomes page/2/.
    anchor = centre_row_start(driver, base, "page/2/index.html")
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


def back_and_forward(base, photo):
    """Forward after Back, and Back again, where the browser keeps no page whole for them (its
    back/forward cache off, as when it has evicted the page): the grid is loaded afresh each time
    and scroll.js alone brings the view back.

    From a photo page to the grid, scrolled to a row of its last page (coming back needs every
    page before it fetched again); Back to the photo page, then Forward: the same photo is at the
    same place, with the address of its page. Then a photo page from there, and Back."""
    driver = support.chromium("--disable-back-forward-cache")
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CLS_OBSERVER})
    try:
        support.viewport(driver, 390, 844, mobile=True)
        driver.get(base + photo)
        settle(driver)
        driver.get(base + "index.html")
        settle(driver)
        scroll_to_end(driver)
        last = grid_pages()[-1]
        anchor = centre_row_start(driver, base, last)
        time.sleep(0.8)
        result = {"lastPage": last, "anchor": anchor, "urlBefore": driver.current_url, "anchorTopBefore": driver.execute_script(TILE_TOP, anchor)}
        driver.execute_script("window.__sameDocument = true")
        driver.back()
        settle(driver)
        result["urlAfterBack"] = driver.current_url
        driver.forward()
        result["forward"] = arrival(driver, anchor, result["anchorTopBefore"])
        driver.execute_script("window.__sameDocument = true")
        driver.get(anchor)
        settle(driver)
        driver.back()
        result["back"] = arrival(driver, anchor, result["anchorTopBefore"])
        result["consoleErrors"] = support.console_errors(driver)
        return result
    finally:
        driver.quit()


def arrival(driver, anchor, top):
    """Where the grid's `anchor` tile is once the view has come back to it: the pages before the
    remembered one arrive one by one, and the view follows them."""
    settle(driver)
    support.wait(driver, "const t = Array.from(document.querySelectorAll('.grid > .tile')).find(a => a.href === arguments[0]);"
                 " return t && Math.abs(t.getBoundingClientRect().top - arguments[1]) < 3", 10, anchor, top)
    time.sleep(0.5)
    return {"url": driver.current_url, "anchorTop": driver.execute_script(TILE_TOP, anchor),
            "reloaded": driver.execute_script("return window.__sameDocument !== true"),
            "cls": driver.execute_script("return window.__cls"), "shifts": driver.execute_script("return window.__shifts"),
            "navigationType": driver.execute_script("return performance.getEntriesByType('navigation')[0].type")}
