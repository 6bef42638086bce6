"""Zoom and pan on the photo page (issue 14, 1.): double-click, drags, Esc and the keys, a pinch,
ctrl+wheel and the full-screen button."""
import time

import viewer_support as support
from check_site import settle
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys


def zoom(driver, base, photo):
    """Double-click zooms and loads a larger file, a drag pans inside the frame, Esc zooms out."""
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
    ActionChains(driver).send_keys("+").perform()
    time.sleep(0.6)
    result["afterPlus"] = support.state(driver)
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
