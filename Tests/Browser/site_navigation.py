"""Getting around a site: the search box (from http and from file://), the keys on a photo page,
a touch swipe, and the view transition from a grid tile to its photo."""
import time
import unicodedata
import urllib.parse

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait
from site_support import console_errors, settle, viewport

def fold(text):
    return "".join(c for c in unicodedata.normalize("NFD", (text or "").lower()) if not unicodedata.combining(c))


def expected_matches(index, query):
    terms = fold(query).split()
    hits = []
    for photo in index["photos"]:
        haystack = fold(" ".join([photo.get("title") or "", photo.get("text") or "", " ".join(photo.get("tags") or []),
                                  photo.get("author") or "", photo.get("camera") or "", photo.get("album") or ""]))
        if all(term in haystack for term in terms):
            hits.append(photo["url"])
    return hits


def search_query(index):
    """The most common tag, cut to 5 letters, else the start of the first title: several matches."""
    tags = sorted({t for p in index["photos"] for t in p.get("tags") or []},
                  key=lambda t: (-sum(t in (p.get("tags") or []) for p in index["photos"]), t))
    return (tags[0] if tags and len(expected_matches(index, tags[0])) > 1 else index["photos"][0]["title"])[:5]


def search(driver, base, index, query):
    driver.get(base + "index.html")
    settle(driver)
    box = driver.find_element(By.ID, "search-input")
    visible = box.is_displayed()
    box.click()
    box.send_keys(query)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "search-results").is_displayed())
    time.sleep(0.3)
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#search-results a")]
    found = sorted(links)
    expected = sorted(urllib.parse.urljoin(base, url) for url in expected_matches(index, query)[:24])
    return {"query": query, "boxVisible": visible, "found": found, "expected": expected,
            "consoleErrors": console_errors(driver)}


def keyboard(driver, base, photo_path):
    """Opens a photo page, then → / ← / Esc, and records where each key led."""
    driver.get(base + photo_path)
    settle(driver)
    expected = {
        "next": driver.execute_script("var l = document.querySelector('link[rel=next]'); return l ? l.href : null"),
        "prev": driver.execute_script("var l = document.querySelector('link[rel=prev]'); return l ? l.href : null"),
        "up": driver.execute_script("return document.querySelector('.photo-nav .up').href"),
    }
    start = driver.current_url
    result = {"start": start, "expected": expected}
    press = lambda key: ActionChains(driver).send_keys(key).perform()
    if expected["next"]:
        press(Keys.ARROW_RIGHT)
        WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
        result["afterRight"] = driver.current_url
        settle(driver)
        press(Keys.ARROW_LEFT)
        WebDriverWait(driver, 10).until(lambda d: d.current_url != result["afterRight"])
        result["afterLeft"] = driver.current_url
        settle(driver)
    press(Keys.ESCAPE)
    WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
    settle(driver)
    result["afterEscape"] = driver.current_url
    photo_href = urllib.parse.urljoin(base, photo_path)
    result["gridHoldsPhoto"] = any(
        a.get_attribute("href") == photo_href for a in driver.find_elements(By.CSS_SELECTOR, ".grid .tile"))
    result["consoleErrors"] = console_errors(driver)
    return result


def view_transitions(driver, base):
    """Clicks the first grid tile and reports whether the photo page arrived through a view
    transition, with and without prefers-reduced-motion.

    Chromium gives a transition up when the machine is too busy to capture the old page in time
    (it then cuts to the new page, as the spec allows), so with motion allowed the click is tried
    up to three times and any transition counts; "attempts" says how many it took. With reduced
    motion one try is enough: nothing can make a transition appear there by chance."""
    result = {}
    for motion in ("no-preference", "reduce"):
        errors = []
        for attempt in range(1, 4 if motion == "no-preference" else 2):
            viewport(driver, 1366, 768)
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
                {"name": "prefers-reduced-motion", "value": motion}, {"name": "prefers-color-scheme", "value": "light"}]})
            driver.get(base + "index.html")
            settle(driver)
            start = driver.current_url
            driver.find_element(By.CSS_SELECTOR, ".grid .tile").click()
            WebDriverWait(driver, 10).until(lambda d: d.current_url != start)
            settle(driver)
            errors += console_errors(driver)
            result[motion] = {"url": driver.current_url, "viewTransition": driver.execute_script("return window.__viewTransition"),
                              "consoleErrors": errors, "attempts": attempt}
            if result[motion]["viewTransition"]:
                break
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return result


def swipe(driver, base, photo_path):
    """A touch swipe to the left on the photo, then to the right: next photo, then back."""
    viewport(driver, 390, 844, mobile=True)
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    driver.get(base + photo_path)
    settle(driver)
    result = {"start": driver.current_url,
              "next": driver.execute_script("var l = document.querySelector('link[rel=next]'); return l ? l.href : null")}
    for name, (x0, x1) in (("afterSwipeLeft", (300, 80)), ("afterSwipeRight", (80, 300))):
        before = driver.current_url
        box = driver.execute_script("var r = document.querySelector('.stage').getBoundingClientRect(); return [r.top, r.bottom];")
        y = (box[0] + box[1]) / 2
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": (x0 + x1) / 2, "y": y + 4}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x1, "y": y + 8}]})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        try:
            WebDriverWait(driver, 10).until(lambda d: d.current_url != before)
        except Exception:
            pass
        settle(driver)
        result[name] = driver.current_url
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
    return result

