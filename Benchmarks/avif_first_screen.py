#!/usr/bin/env python3
"""avif_first_screen.py SITE...: image bytes of each built site's home page in headless Chromium at
1366x768 (a fresh load, cache off), total and on the first screen, as check_site.py's imageBytes
measures them (Tests/Browser/site_layout.py). Benchmarks/avif.sh runs it on the sample built with
and without images.avif; needs the test venv (selenium) and chromium-driver."""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import site_layout  # noqa: E402
from site_support import browser, serve  # noqa: E402

for site in sys.argv[1:]:
    server, base = serve(os.path.abspath(site))
    driver = browser()
    try:
        print(json.dumps({"site": site, **site_layout.image_bytes(driver, base)}))
    finally:
        driver.quit()
        server.shutdown()
