"""The browser half of encrypted albums (Templates/static/vault.js) in one engine, on fixtures that
Swift encrypted (VaultBrowserTests writes them: a key file at the real 600,000 PBKDF2 iterations,
a photo in several 64 KiB chunks, a changed and a cut copy, and 24 photo-sized files).

Served from a loopback http server (Web Crypto needs a secure context; http://127.0.0.1 is one in
all three engines), with vault_page.html's minimal unlock form:
- a wrong password: the form's error shows, no image;
- the right one: the photo decodes (naturalWidth > 0);
- a reload opens it again from the tab's sessionStorage without asking, and a changed key file
  drops the kept key;
- a changed byte, a cut file and a file read under another path are refused (tampered, truncated);
- the photo delivered in pieces of 7, 1000 and 65,553 bytes decrypts the same (and the cut copy is refused);
- the 24 files decrypt to the bytes Swift encrypted (SHA-256) and decode as images.
Measured: the key derivation (PBKDF2-HMAC-SHA256 at the key file's count, a fresh salt each time) and the 24 files' decryption (fetched and
decrypted to blob: URLs, and decryption alone from buffers), each the median of three runs.
Also recorded: whether a file: page is a secure context in this engine.

usage: check_vault.py --fixtures DIR --browser chromium|firefox|webkit   (prints JSON)"""
import argparse
import json
import os
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# PBKDF2-HMAC-SHA256 at the key file's count with a fresh random salt each run: Firefox (NSS)
# keeps the last derivation, so unlocking the same key file again measures nothing.
DERIVE = """var done = arguments[arguments.length - 1], password = arguments[0], iterations = arguments[1];
var salt = crypto.getRandomValues(new Uint8Array(16)), start = performance.now();
crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']).then(function (base) {
  return crypto.subtle.deriveBits({name: 'PBKDF2', hash: 'SHA-256', salt: salt, iterations: iterations}, base, 256);
}).then(function () { done({ms: performance.now() - start}); }, function (e) { done({error: String(e)}); });"""

# Every refusal: the file, the path it is read as, and the code it must give.
REFUSE = """var done = arguments[arguments.length - 1], V = window.GalleryVault, cases = arguments[0], out = {};
V.recall('test-album').then(function (key) {
  return cases.reduce(function (chain, c) {
    return chain.then(function () {
      return V.blobURL(key, c[0], c[1], 'image/jpeg').then(function () { out[c[0] + ' as ' + c[1]] = 'opened'; },
        function (e) { out[c[0] + ' as ' + c[1]] = e.code || String(e); });
    });
  }, Promise.resolve());
}).then(function () { done(out); }, function (e) { done({error: String(e)}); });"""

# The photo and the cut copy delivered in small pieces (a slow network's), through a stand-in fetch:
# fetchDecrypted must join pieces into chunks whatever their sizes.
PIECES = """var done = arguments[arguments.length - 1], V = window.GalleryVault, photo = arguments[0], cut = arguments[1], out = {};
var realFetch = window.fetch;
function hex(buffer) { return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ('0' + b.toString(16)).slice(-2); }).join(''); }
function pieces(size) {
  return function (url) {
    return realFetch(url).then(function (r) { return r.arrayBuffer(); }).then(function (buffer) {
      var bytes = new Uint8Array(buffer), at = 0;
      return new Response(new ReadableStream({ pull: function (c) {
        if (at >= bytes.length) { c.close(); return; }
        c.enqueue(bytes.slice(at, at + size));
        at += size;
      } }));
    });
  };
}
V.recall('test-album').then(function (key) {
  return [7, 1000, 65553].reduce(function (chain, size) {
    return chain.then(function () {
      window.fetch = pieces(size);
      return V.fetchDecrypted(key, photo.file, photo.path).then(function (blob) { return new Response(blob).arrayBuffer(); })
        .then(function (b) { return crypto.subtle.digest('SHA-256', b); }).then(function (d) { out[size] = hex(d); })
        .then(function () { return V.fetchDecrypted(key, cut, photo.path); })
        .then(function () { out[size + ' cut'] = 'opened'; }, function (e) { out[size + ' cut'] = e.code || String(e); });
    });
  }, Promise.resolve());
}).then(function () { window.fetch = realFetch; done(out); }, function (e) { window.fetch = realFetch; done({error: String(e)}); });"""

# The grid: fetch and decrypt 24 files to blob: URLs at once (as a page of 24 photos would), then
# decryption alone from buffers already fetched; then the bytes' SHA-256 and each image's decode.
GRID = """var done = arguments[arguments.length - 1], V = window.GalleryVault, files = arguments[0], key, result = {};
function hex(buffer) { return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ('0' + b.toString(16)).slice(-2); }).join(''); }
V.recall('test-album').then(function (k) {
  key = k;
  var start = performance.now();
  return Promise.all(files.map(function (f) { return V.fetchDecrypted(key, f.file, f.path, 'image/jpeg'); })).then(function (blobs) {
    result.fetchAndDecryptMs = performance.now() - start;
    return Promise.all(files.map(function (f) { return fetch(f.file).then(function (r) { return r.arrayBuffer(); }); }));
  });
}).then(function (buffers) {
  var start = performance.now();
  return Promise.all(buffers.map(function (b, i) { return V.decrypt(key, b, files[i].path, 'image/jpeg'); })).then(function (blobs) {
    result.decryptMs = performance.now() - start;
    result.bytes = buffers.reduce(function (n, b) { return n + b.byteLength; }, 0);
    return Promise.all(blobs.map(function (blob) {
      return new Response(blob).arrayBuffer().then(function (b) { return crypto.subtle.digest('SHA-256', b); }).then(hex);
    })).then(function (digests) {
      result.digests = digests;
      return Promise.all(blobs.map(function (blob) {
        return new Promise(function (resolve) {
          var img = new Image();
          img.onload = function () { resolve(img.naturalWidth); };
          img.onerror = function () { resolve(0); };
          img.src = URL.createObjectURL(blob);
        });
      }));
    });
  });
}).then(function (widths) { result.widths = widths; done(result); }, function (e) { done({error: e.code || String(e)}); });"""


# A kept key is given back for the album's key file, and dropped once the key file changes (a new
# password or content key): then the reader is asked again.
STALE = """var done = arguments[arguments.length - 1], V = window.GalleryVault, out = {};
V.fetchKeyFile('key.json').then(function (file) {
  return V.recall('test-album', file).then(function (key) {
    out.sameKeyFile = !!key;
    var changed = {iterations: file.iterations, salt: file.salt, wrapped: file.wrapped.slice()};
    changed.wrapped[20] ^= 1;
    return V.recall('test-album', changed);
  });
}).then(function (key) {
  out.changedKeyFile = !!key;
  return V.recall('test-album');
}).then(function (key) { out.afterwards = !!key; done(out); }, function (e) { done({error: String(e)}); });"""


def engine(name):
    """The driver, server and console reader of one engine, from the other checks' support files."""
    sys.path.insert(0, HERE)
    if name == "firefox":
        import check_viewer_firefox as gecko
        import site_support
        return gecko.browser(), site_support.serve, gecko.console_errors
    if name == "webkit":
        import webkit_support as webkit
        return webkit.browser(), webkit.serve, webkit.console_errors
    import site_support
    return site_support.browser(), site_support.serve, site_support.console_errors


def wait_state(driver, states, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        state = driver.execute_script("return window.__vault || {}")
        if state.get("state") in states:
            return state
        time.sleep(0.05)
    return driver.execute_script("return window.__vault || {}")


def submit(driver, password):
    field = driver.find_element("id", "password")
    field.clear()
    field.send_keys(password)
    start = time.time()
    driver.find_element("css selector", "#unlock button").click()
    return start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--browser", default="chromium", choices=["chromium", "firefox", "webkit"])
    args = parser.parse_args()
    folder = os.path.abspath(args.fixtures)
    fixture = json.load(open(os.path.join(folder, "fixture.json")))
    shutil.copy(os.path.join(ROOT, "Templates", "static", "vault.js"), folder)
    shutil.copy(os.path.join(HERE, "vault_page.html"), folder)

    driver, serve, console_errors = engine(args.browser)
    server, base = serve(folder)
    report = {args.browser: driver.capabilities.get("browserVersion", "?")}
    try:
        driver.set_script_timeout(120)
        page = base + "vault_page.html"
        driver.get(page)
        report["secureContext"] = driver.execute_script("return window.isSecureContext && !!(window.crypto && crypto.subtle)")

        start = submit(driver, fixture["wrongPassword"])
        state = wait_state(driver, ["refused", "shown", "undecodable"])
        report["wrong"] = {"state": state, "seconds": round(time.time() - start, 3),
                           "error": driver.execute_script("var e = document.getElementById('error'); return e.hidden ? null : e.textContent"),
                           "images": driver.execute_script("return document.querySelectorAll('#photos img').length")}

        start = submit(driver, fixture["password"])
        state = wait_state(driver, ["refused", "shown", "undecodable"])
        report["right"] = {"state": state, "seconds": round(time.time() - start, 3),
                           "naturalWidth": driver.execute_script("var i = document.getElementById('photo'); return i ? i.naturalWidth : 0"),
                           "src": driver.execute_script("var i = document.getElementById('photo'); return i ? i.src.slice(0, 5) : null"),
                           "errorShown": driver.execute_script("return !document.getElementById('error').hidden")}

        driver.refresh()
        state = wait_state(driver, ["shown", "undecodable", "refused"], timeout=30)
        report["reload"] = {"state": state, "formHidden": driver.execute_script("return document.getElementById('unlock').hidden"),
                            "naturalWidth": driver.execute_script("var i = document.getElementById('photo'); return i ? i.naturalWidth : 0")}

        photo = fixture["photo"]
        report["refusals"] = driver.execute_async_script(REFUSE, [[fixture["tampered"], photo["path"]], [fixture["truncated"], photo["path"]],
                                                                   [photo["file"], "elsewhere/" + photo["path"]], [photo["file"], photo["path"]]])

        report["pieces"] = driver.execute_async_script(PIECES, photo, fixture["truncated"])
        derive = [driver.execute_async_script(DERIVE, fixture["password"], fixture["iterations"]) for _ in range(3)]
        grid = [driver.execute_async_script(GRID, fixture["grid"]) for _ in range(3)]
        report["derive"] = {"runs": derive, "medianMs": statistics.median([d.get("ms", -1) for d in derive])}
        report["grid"] = {"files": len(fixture["grid"]), "bytes": grid[-1].get("bytes"),
                          "fetchAndDecryptMs": statistics.median([g.get("fetchAndDecryptMs", -1) for g in grid]),
                          "decryptMs": statistics.median([g.get("decryptMs", -1) for g in grid]),
                          "runs": [{k: round(v, 1) for k, v in g.items() if k.endswith("Ms")} for g in grid],
                          "digestsMatch": grid[-1].get("digests") == [f["sha256"] for f in fixture["grid"]],
                          "decoded": sum(1 for w in grid[-1].get("widths", []) if w > 0), "error": grid[-1].get("error")}
        report["consoleErrors"] = console_errors(driver)
        report["stale"] = driver.execute_async_script(STALE)

        driver.get("file://" + os.path.join(folder, "vault_page.html"))
        report["fileSecureContext"] = driver.execute_script("return window.isSecureContext && !!(window.crypto && crypto.subtle)")
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
