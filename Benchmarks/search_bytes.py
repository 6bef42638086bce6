#!/usr/bin/env python3
"""Bytes one query loads, galleryssg's search box beside Pagefind's JS API, on the same site in
headless Chromium; run by search-vs-pagefind.sh. usage: search_bytes.py SITE QUERIES.json"""
import json
import os
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Browser"))
import check_site  # noqa: E402  (its loopback server and Chromium set-up)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

SERVED = []   # (path, bytes) of every file the server sent, in order


class CountingHandler(check_site.QuietHandler):
    """Counts what the server sends: Pagefind fetches from places the page's Resource Timing does not
    list (its WebAssembly and worker-side requests), so bytes are counted where they leave."""
    def do_GET(self):
        path = urllib.parse.urlparse(self.path).path
        local = self.translate_path(self.path)
        before = len(SERVED)
        super().do_GET()
        if len(SERVED) == before and os.path.isfile(local):
            SERVED.append((path, os.path.getsize(local)))


def serve(folder):
    import functools
    import http.server
    import threading
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def loaded(prefixes):
    files = [(path, size) for path, size in SERVED if path.startswith(prefixes)]
    return {"bytes": sum(size for _, size in files), "files": len(files)}


def fresh(driver, base):
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.get(base + "404.html")
    check_site.settle(driver)
    del SERVED[:]


def galleryssg(driver, base, query):
    fresh(driver, base)
    box = driver.find_element(By.ID, "search-input")
    box.click()
    box.send_keys(query)
    WebDriverWait(driver, 60).until(lambda d: d.execute_script(
        "var r = document.getElementById('search-results'); return !r.hidden && r.querySelector('p') && "
        "Array.from(r.querySelectorAll('img')).length === Math.min(24, r.querySelectorAll('li').length);"))
    time.sleep(0.5)
    return dict(loaded(("/search-index.js", "/search/")), found=driver.find_element(By.CSS_SELECTOR, "#search-results p").text)


def pagefind(driver, base, query):
    fresh(driver, base)
    driver.set_script_timeout(120)
    count = driver.execute_async_script("""
      var done = arguments[arguments.length - 1];
      import('/pagefind/pagefind.js').then(async function (pf) {
        const search = await pf.search(arguments[0]);
        await Promise.all(search.results.slice(0, 24).map(function (r) { return r.data(); }));
        done(search.results.length);
      }).catch(function (e) { done('error: ' + e); });
    """.replace("arguments[0]", json.dumps(query)))
    time.sleep(0.5)
    return dict(loaded(("/pagefind/",)), found=count)


def main():
    site, queries = sys.argv[1], json.load(open(sys.argv[2]))
    server, base = serve(site)
    driver = check_site.browser()
    rows = []
    try:
        for name, query in queries.items():
            rows.append((name, query, galleryssg(driver, base, query), pagefind(driver, base, query)))
    finally:
        driver.quit()
        server.shutdown()
    print("| query | galleryssg: bytes (files), result | Pagefind: bytes (files), results |")
    print("|---|---|---|")
    for name, query, ours, theirs in rows:
        print("| %s `%s` | %.1f KB (%d), %s | %.1f KB (%d), %s |" % (
            name, query, ours["bytes"] / 1024, ours["files"], ours["found"],
            theirs["bytes"] / 1024, theirs["files"], theirs["found"]))


if __name__ == "__main__":
    main()
