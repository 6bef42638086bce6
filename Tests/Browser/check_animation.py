#!/usr/bin/env python3
"""Checks the animations of a built galleryssg site (issue 46) in headless Chromium and prints one
JSON object; AnimationBrowserTests.swift asserts on it, this script only measures.

For every photo page with a motion (a `photos/<id>/motion.*` file): the motion element's tag,
`loop` and `hidden` at load; LIVE (the ANIMATION button) pressed: shown, and for a video playing;
then, after `--wait` seconds (past the animation's length), whether it is still shown and playing
(it loops) and the video's currentTime; LIVE pressed again: hidden and paused; console errors.

usage: check_animation.py --site DIR [--wait SECONDS]
"""
import argparse
import glob
import json
import os
import time

import site_support as support
from selenium.webdriver.common.by import By

STATE = """const m = document.querySelector('.stage .motion'), l = document.querySelector('.viewer-tools .live');
return m && {tag: m.tagName, hidden: m.hidden, loop: m.loop === true, time: m.currentTime === undefined ? null : m.currentTime,
             paused: m.paused === undefined ? null : m.paused, pressed: l && l.getAttribute('aria-pressed'),
             label: l && l.textContent.trim()};"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--wait", type=float, default=1.6)
    arguments = parser.parse_args()
    server, base = support.serve(arguments.site)
    driver = support.browser()
    report = {}
    try:
        for motion in sorted(glob.glob(os.path.join(arguments.site, "photos", "*", "motion.*"))):
            photo = os.path.basename(os.path.dirname(motion))
            driver.get(base + "photos/%s/" % photo)
            support.settle(driver)
            result = {"file": os.path.basename(motion), "load": driver.execute_script(STATE)}
            live = driver.find_element(By.CSS_SELECTOR, ".viewer-tools .live")
            live.click()
            time.sleep(0.3)
            result["pressed"] = driver.execute_script(STATE)
            time.sleep(arguments.wait)
            result["later"] = driver.execute_script(STATE)
            live.click()
            time.sleep(0.2)
            result["pressedAgain"] = driver.execute_script(STATE)
            result["errors"] = support.console_errors(driver)
            report[photo] = result
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(report, sort_keys=True))


if __name__ == "__main__":
    main()
