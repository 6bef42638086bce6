/* The site's service worker, published at its root as galleryssg-sw.js when an album is protected.
   protect.js hands it an album's key; it then answers the browser's requests for that album's
   pages (each published as a shell page beside its encrypted page.bin) and files (encrypted under
   their own names) with their decrypted bytes. Keys live in this worker's memory only: when the
   browser stops the worker, the next page of the album is the shell, which hands the key over again.
   A site with a password hands over one more key, for every path but those it lists as `except`
   (the theme's files and the protected albums, whose own keys come first). */
"use strict";
self.window = self;
var vaultScript = new URL(self.location.href).searchParams.get("vault");
if (vaultScript) { importScripts(vaultScript); }
var albums = [];
var TYPES = {
  jpg: "image/jpeg", jpeg: "image/jpeg", webp: "image/webp", avif: "image/avif", png: "image/png", gif: "image/gif",
  mp4: "video/mp4", zip: "application/zip", json: "application/json", js: "text/javascript"
};

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("message", function (event) {
  var data = event.data, port = event.ports && event.ports[0];
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
var SELF = "galleryssg-sw.js";
function starts(path, prefix) { return path.indexOf(prefix) === 0; }
function albumOf(path) {
  var site = null;
  for (var i = 0; i < albums.length; i += 1) {
    if (albums[i].except) { site = albums[i]; } else if (starts(path, albums[i].folder) || starts(path, albums[i].photos)) { return albums[i]; }
  }
  return site && !site.except.some(function (prefix) { return starts(path, prefix); }) ? site : null;
}
function decrypted(album, path, type) {
  return self.GalleryVault.fetchDecrypted(album.key, self.registration.scope + path, path, type).then(function (blob) {
    return new Response(blob, { headers: { "Content-Type": type, "Cache-Control": "private, no-store" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, path = sitePath(request.url), album = path === null ? null : albumOf(path);
  if (request.method !== "GET" || !album) { return; }
  if (request.mode === "navigate" || /(^|\/)$/.test(path) || /\.html$/.test(path)) {
    var sealed = path.replace(/[^\/]*$/, "") + "page.bin";
    /* A page that does not decrypt (a key that no longer fits) falls back to its shell, which asks again. */
    event.respondWith(decrypted(album, sealed, "text/html; charset=utf-8").then(null, function () { return fetch(request); }));
    return;
  }
  var extension = (path.match(/\.([a-z0-9]+)$/) || [])[1] || "";
  event.respondWith(decrypted(album, path, TYPES[extension] || "application/octet-stream"));
});
