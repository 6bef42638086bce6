/* The site's service worker, published at its root as galleryssg-sw.js when an album is protected.
   protect.js hands it an album's key; it then answers the browser's requests for that album's
   pages (each published as a shell page beside its encrypted page.bin) and files (encrypted under
   their own names) with their decrypted bytes. Keys live in this worker's memory only, and no longer
   than a tab of the site is open: when the browser stops the worker, or a page is asked for with no
   tab of the site open, the keys go, and the next page of the album is the shell, which hands the key
   over again if the tab kept it (or the reader chose "remember"). It keeps no Cache Storage, and
   every decrypted response is `no-store`. A page's lock button (gallery.js) asks it to forget
   every key at once ("galleryssg-lock"), and whether a page is one it decrypts ("galleryssg-opened").
   A site with a password hands over one more key, for every path but those it lists as `except`
   (the theme's files and the protected albums, whose own keys come first).

   Files are decrypted as they download, one 64 KiB chunk at a time, into the response (a large
   zip or clip never sits whole in memory), and a request for a range (a video's, as Safari asks)
   fetches and decrypts only the chunks that hold it. */
"use strict";
self.window = self;
var vaultScript = new URL(self.location.href).searchParams.get("vault");
if (vaultScript) { importScripts(vaultScript); }
var albums = [];
var SELF = "galleryssg-sw.js";
var TYPES = {
  jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png", gif: "image/gif",
  mp4: "video/mp4", zip: "application/zip", json: "application/json", js: "text/javascript"
};

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("message", function (event) {
  var data = event.data, port = event.ports && event.ports[0];
  if (data && data.type === "galleryssg-lock") {
    albums = [];
    if (port) { port.postMessage({ ok: true }); }
    return;
  }
  if (data && data.type === "galleryssg-opened") {
    var path = sitePath(String(data.url));
    if (port) { port.postMessage({ opened: path !== null && albumOf(path) !== null }); }
    return;
  }
  if (!data || data.type !== "galleryssg-key" || !self.GalleryVault) { return; }
  event.waitUntil(self.GalleryVault.openKey(new Uint8Array(data.raw), null).then(function (key) {
    var site = Array.isArray(data.except);
    albums = albums.filter(function (album) { return site ? !album.except : album.folder !== data.folder; });
    albums.push({ folder: String(data.folder), photos: String(data.photos), key: key,
                  except: site ? data.except.map(String).concat([SELF]) : null });
    if (port) { port.postMessage({ ok: true }); }
  }, function (e) { if (port) { port.postMessage({ ok: false, error: String(e) }); } }));
});

/* The request's path from the site root, or null outside it. */
function sitePath(url) {
  var scope = self.registration.scope;
  return url.indexOf(scope) === 0 ? url.slice(scope.length).split(/[?#]/)[0] : null;
}
function starts(path, prefix) { return path.indexOf(prefix) === 0; }
function albumOf(path) {
  var site = null;
  for (var i = 0; i < albums.length; i += 1) {
    if (albums[i].except) { site = albums[i]; } else if (starts(path, albums[i].folder) || starts(path, albums[i].photos)) { return albums[i]; }
  }
  return site && !site.except.some(function (prefix) { return starts(path, prefix); }) ? site : null;
}

/* A response body read a piece at a time: `fill(n)` until n bytes wait (or the body ends), `take(n)`. */
function Source(body) {
  var reader = body.getReader(), pending = new Uint8Array(0), pieces = [], waiting = 0;
  var source = { done: false, length: function () { return pending.length + waiting; } };
  source.fill = function (need) {
    if (source.done || source.length() >= need) { return Promise.resolve(); }
    return reader.read().then(function (step) {
      if (step.done) { source.done = true; } else { pieces.push(step.value); waiting += step.value.length; }
      return source.fill(need);
    });
  };
  source.take = function (size) {
    if (pieces.length) { pending = self.GalleryVault.concat([pending].concat(pieces)); pieces = []; waiting = 0; }
    var part = pending.slice(0, size);
    pending = pending.slice(size);
    return part;
  };
  source.cancel = function () { return reader.cancel(); };
  return source;
}

/* The plaintext size of an encrypted file of `bytes`, its chunks `block` bytes with their tags. */
function plainSize(bytes, block) {
  var sealed = bytes - self.GalleryVault.HEADER;
  return sealed - Math.max(1, Math.ceil(sealed / block)) * self.GalleryVault.TAG;
}

/* The file decrypted as it downloads: a chunk is known not to be the last once a byte after it has come. */
function streamed(album, path, response) {
  var V = self.GalleryVault, source = Source(response.body), index = 0;
  return source.fill(V.HEADER).then(function () { return V.opener(album.key, source.take(V.HEADER), path); }).then(function (o) {
    var length = response.headers.get("Content-Encoding") ? null : Number(response.headers.get("Content-Length")) || null;
    var body = new ReadableStream({
      pull: function (controller) {
        return source.fill(o.block + 1).then(function () {
          var final = source.done && source.length() <= o.block;
          return o.open(source.take(final ? source.length() : o.block), index++, final);
        }).then(function (plain) {
          controller.enqueue(new Uint8Array(plain));
          if (source.done && source.length() === 0) { controller.close(); }
        });
      },
      cancel: function () { return source.cancel(); }
    });
    return { body: body, size: length === null ? null : plainSize(length, o.block) };
  });
}

/* `bytes=a-b` (or `a-`, or `-n`) of a file of `size` bytes: [first, last], or null. */
function parseRange(header, size) {
  var m = /^bytes=(\d*)-(\d*)$/.exec(header || "");
  if (!m || (m[1] === "" && m[2] === "")) { return null; }
  var first = m[1] === "" ? Math.max(0, size - Number(m[2])) : Number(m[1]);
  var last = m[1] === "" || m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return first <= last ? [first, last] : null;
}

/* A range of the file: its header first (for the chunk size and the file's size), then only the
   chunks that hold the range. A host that answers ranges with the whole file gets it decrypted whole. */
function ranged(album, path, url, header, type) {
  var V = self.GalleryVault;
  return fetch(url, { headers: { Range: "bytes=0-" + (V.HEADER - 1) } }).then(function (head) {
    var total = Number((/\/(\d+)$/.exec(head.headers.get("Content-Range") || "") || [])[1]);
    if (head.status !== 206 || !total) {
      if (head.body) { head.body.cancel(); }
      return null;
    }
    return head.arrayBuffer().then(function (bytes) { return V.opener(album.key, new Uint8Array(bytes), path); }).then(function (o) {
      var plain = o.block - V.TAG, size = plainSize(total, o.block), range = parseRange(header, size);
      if (!range) { return new Response(null, { status: 416, headers: { "Content-Range": "bytes */" + size } }); }
      var chunks = Math.max(1, Math.ceil((total - V.HEADER) / o.block));
      var first = Math.floor(range[0] / plain), last = Math.min(Math.floor(range[1] / plain), chunks - 1);
      var from = V.HEADER + first * o.block, to = Math.min(V.HEADER + (last + 1) * o.block, total) - 1;
      return fetch(url, { headers: { Range: "bytes=" + from + "-" + to } }).then(function (part) {
        if (part.status !== 206) { throw new Error(url + ": the host sent no range"); }
        return part.arrayBuffer();
      }).then(function (buffer) {
        var bytes = new Uint8Array(buffer), jobs = [];
        for (var i = first, at = 0; i <= last; i += 1, at += o.block) {
          jobs.push(o.open(bytes.subarray(at, Math.min(at + o.block, bytes.length)), i, i === chunks - 1));
        }
        return Promise.all(jobs);
      }).then(function (parts) {
        var joined = V.concat(parts.map(function (p) { return new Uint8Array(p); }));
        var start = range[0] - first * plain;
        return new Response(joined.slice(start, start + range[1] - range[0] + 1), { status: 206, headers: {
          "Content-Type": type, "Content-Range": "bytes " + range[0] + "-" + range[1] + "/" + size, "Accept-Ranges": "bytes",
          "Content-Length": String(range[1] - range[0] + 1), "Cache-Control": "private, no-store" } });
      });
    });
  });
}

/* The decrypted file as a response: a page (no request) whole, so that one that does not decrypt
   is refused before anything is sent; any other file streamed, or the range asked for. */
function decrypted(album, path, type, request) {
  var url = self.registration.scope + path, range = request && request.headers.get("Range");
  var whole = function () {
    return fetch(url).then(function (response) {
      if (!response.ok) { throw new Error(url + ": HTTP " + response.status); }
      var headers = { "Content-Type": type, "Cache-Control": "private, no-store", "Accept-Ranges": "bytes" };
      if (!request || !response.body || typeof ReadableStream === "undefined") {
        return response.arrayBuffer().then(function (buffer) { return self.GalleryVault.decrypt(album.key, buffer, path, type); })
          .then(function (blob) { return new Response(blob, { headers: headers }); });
      }
      return streamed(album, path, response).then(function (made) {
        if (made.size !== null) { headers["Content-Length"] = String(made.size); }
        return new Response(made.body, { headers: headers });
      });
    });
  };
  return range ? ranged(album, path, url, range, type).then(function (answer) { return answer || whole(); }) : whole();
}

/* Whether a window of the site is open: the tab navigating is, unless it is a new one. */
function tabOpen() {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (open) { return open.length > 0; });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, path = sitePath(request.url), album = path === null ? null : albumOf(path);
  if (request.method !== "GET" || !album) { return; }
  if (request.mode === "navigate" || /(^|\/)$/.test(path) || /\.html$/.test(path)) {
    var sealed = path.replace(/[^\/]*$/, "") + "page.bin";
    /* A page that does not decrypt (a key that no longer fits) falls back to its shell, which asks
       again; so does a page asked for once every tab of the site is closed (the keys go with them). */
    event.respondWith(tabOpen().then(function (open) {
      if (!open) { albums = []; }
      return open ? decrypted(album, sealed, "text/html; charset=utf-8", null) : fetch(request);
    }).then(null, function () { return fetch(request); }));
    return;
  }
  var extension = (path.match(/\.([a-z0-9]+)$/) || [])[1] || "";
  event.respondWith(decrypted(album, path, TYPES[extension] || "application/octet-stream", request));
});
