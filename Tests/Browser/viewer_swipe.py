"""The swipe that follows the finger on the photo page (issue 14, 2.): touch drags sideways and down."""
import json
import time

import viewer_support as support
from site_support import settle


SWIPE_PROBE = """
const stage = document.querySelector('.stage'), s = stage.getBoundingClientRect();
const main = stage.querySelector('img.main').getBoundingClientRect(), side = stage.querySelector('.side.next');
const r = side ? side.getBoundingClientRect() : null;
return {photoLeft: main.left - s.left, neighbourLeft: r ? r.left - s.left : null, stageWidth: s.width};
"""


def swipes(driver, base, photo):
    """Touch drags of 40 % and 10 % of the width, and one downwards."""
    support.viewport(driver, 390, 844, mobile=True)
    support.touch_emulation(driver, True)
    result = {}
    for name, share in (("long", 0.4), ("short", 0.1)):
        driver.get(base + photo)
        settle(driver)
        start = driver.current_url
        expected = driver.execute_script("var a = document.querySelector('.photo-nav a[rel=next]'); return a ? a.href : null")
        box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
        y = box[1] + box[3] / 2
        x0 = box[0] + box[2] * 0.75
        steps = 8 if share > 0.2 else 6
        seen = support.drag(driver, x0, y, x0 - box[2] * share, y + 3, steps, 0.05, hold=0.3, probe=SWIPE_PROBE)
        moved = support.wait(driver, "return location.href !== %s" % json.dumps(start), 4)
        if moved:
            settle(driver)
        time.sleep(0.5)
        result[name] = {"start": start, "end": driver.current_url, "next": expected, "navigated": moved, "duringDrag": seen,
                        "dragged": box[2] * share,
                        "offsetAfter": driver.execute_script(
                            "return document.querySelector('.stage img.main').getBoundingClientRect().left - document.querySelector('.stage').getBoundingClientRect().left")}
    driver.get(base + photo)
    settle(driver)
    start = driver.current_url
    up = driver.execute_script("return document.querySelector('.photo-nav .up').href")
    box = driver.execute_script("const r = document.querySelector('.stage').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];")
    support.drag(driver, box[0] + box[2] / 2, box[1] + box[3] / 2, box[0] + box[2] / 2 + 4, box[1] + box[3] * 0.9, 8, 0.04)
    support.wait(driver, "return location.href !== %s" % json.dumps(start), 4)
    settle(driver)  # Firefox reports about:blank as the address while the next page loads
    result["down"] = {"end": driver.current_url, "up": up}
    support.touch_emulation(driver, False)
    result["consoleErrors"] = support.console_errors(driver)
    return result


def fling(driver, base, photo):
    """The same short drag sideways (18 % of the width, under the quarter that navigates by
    distance) twice: flung (three moves with no pause, lifted at once) it navigates; slowly (moves
    80 ms apart, held 0.3 s before lifting) it springs back."""
    support.viewport(driver, 390, 844, mobile=True)
    support.touch_emulation(driver, True)
    result = {"share": 0.18}
    for name, pause, hold in (("fast", 0.0, 0.0), ("slow", 0.08, 0.3)):
        driver.get(base + photo)
        settle(driver)
        start = driver.current_url
        expected = driver.execute_script("var a = document.querySelector('.photo-nav a[rel=next]'); return a ? a.href : null")
        box = support.stage_box(driver)
        x0, y = box[0] + box[2] * 0.6, box[1] + box[3] / 2
        began = time.time()
        support.drag(driver, x0, y, x0 - box[2] * result["share"], y + 2, 3, pause, hold=hold)
        took = time.time() - began
        moved = support.wait(driver, "return location.href !== %s" % json.dumps(start), 4)
        if moved:
            settle(driver)
        result[name] = {"start": start, "end": driver.current_url, "next": expected, "navigated": moved, "seconds": round(took, 3)}
    support.touch_emulation(driver, False)
    result["consoleErrors"] = support.console_errors(driver)
    return result
