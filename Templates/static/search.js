/* galleryssg live search. search-index.js is loaded on first use with a script element, so search
   also works from file://. A small site's index is the whole thing: each photo's title, caption,
   tags, author, camera and album, matched anywhere. A large site's is a manifest: the words'
   shards and the photos' chunks are loaded as a query needs them, and words match at their start. */
(function () {
  "use strict";
  var doc = document;
  var root = doc.documentElement.getAttribute("data-root") || "";
  var form = doc.querySelector("form.search");
  var input = doc.getElementById("search-input");
  var results = doc.getElementById("search-results");
  if (!form || !input || !results) { return; }
  var strings = { none: "No photos match.", one: "1 photo matches.", many: "{n} photos match.",
                  failed: "The search index could not be loaded.", shorter: "Type more letters." };
  try { Object.assign(strings, JSON.parse(form.getAttribute("data-strings") || "{}")); } catch (e) { /* keep English */ }

  var loaded = {}, waiting = {};
  /* Every shard calls this with its key when it has loaded. */
  window.gallerySearchData = function (key, value) {
    loaded[key] = value;
    (waiting[key] || []).forEach(function (w) { w.resolve(value); });
    delete waiting[key];
  };
  function script(src, key) {
    if (key && key in loaded) { return Promise.resolve(loaded[key]); }
    return new Promise(function (resolve, reject) {
      if (key) {
        if (waiting[key]) { waiting[key].push({ resolve: resolve }); return; }
        waiting[key] = [{ resolve: resolve }];
      }
      var element = doc.createElement("script");
      element.src = src;
      element.onload = function () { if (!key) { resolve(); } };
      element.onerror = function () { delete waiting[key]; reject(new Error(src)); };
      doc.head.appendChild(element);
    });
  }
  var indexPromise = null;
  function index() {
    if (!indexPromise) {
      indexPromise = (window.gallerySearchIndex ? Promise.resolve() : script(form.getAttribute("data-index")))
        .then(function () {
          var data = window.gallerySearchIndex || { photos: [] };
          if (data.sharded) { return data.sharded; }
          return { photos: (data.photos || []).map(function (photo) {
            photo.haystack = fold([photo.title, photo.text, (photo.tags || []).join(" "), photo.author, photo.camera, photo.album].join(" "));
            return photo;
          }) };
        });
      indexPromise.catch(function () { indexPromise = null; });
    }
    return indexPromise;
  }
  function fold(text) {
    return String(text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function words(text) { return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(function (w) { return w.slice(0, 40); }); }

  /* Sharded: the shards that can hold words starting with `term` (a whole word under 3 letters). */
  function shardsFor(manifest, term) {
    var first = manifest.shards, low = 0, high = first.length - 1;
    if (!first.length) { return []; }
    while (low < high) { var mid = (low + high + 1) >> 1; if (first[mid] <= term) { low = mid; } else { high = mid - 1; } }
    var list = [low];
    if (term.length >= 3) {
      for (var k = low + 1; k < first.length && first[k].lastIndexOf(term, 0) === 0; k++) { list.push(k); }
    }
    return list;
  }
  function decode(list, count, mark) {
    if (list.charAt(0) === "~") {
      var bits = atob(list.slice(1));
      for (var i = 0; i < count; i++) { if (bits.charCodeAt(i >> 3) & (1 << (i & 7))) { mark[i] = 1; } }
      return;
    }
    var id = 0;
    list.split(",").forEach(function (delta) { id += parseInt(delta, 36); mark[id] = 1; });
  }
  function shardedSearch(manifest, terms) {
    if (terms.some(function (t) { return shardsFor(manifest, t).length > 8; })) { return Promise.resolve(null); }
    var keys = {};
    terms.forEach(function (t) { shardsFor(manifest, t).forEach(function (k) { keys[k] = true; }); });
    return Promise.all(Object.keys(keys).map(function (k) {
      return script(root + manifest.folder + "t" + k + ".js", "t" + k);
    })).then(function () {
      var hits = new Uint8Array(manifest.count);
      terms.forEach(function (term) {
        var mark = new Uint8Array(manifest.count);
        shardsFor(manifest, term).forEach(function (k) {
          var shard = loaded["t" + k];
          for (var word in shard) {
            if (term.length >= 3 ? word.lastIndexOf(term, 0) === 0 : word === term) { decode(shard[word], manifest.count, mark); }
          }
        });
        for (var i = 0; i < manifest.count; i++) { hits[i] += mark[i]; }
      });
      var ids = [];
      for (var j = 0; j < manifest.count; j++) { if (hits[j] === terms.length) { ids.push(j); } }
      var chunks = {};
      ids.slice(0, 24).forEach(function (id) { chunks[Math.floor(id / manifest.chunk)] = true; });
      return Promise.all(Object.keys(chunks).map(function (c) {
        return script(root + manifest.folder + "d" + c + ".js", "d" + c);
      })).then(function () {
        var photos = ids.slice(0, 24).map(function (id) {
          var row = loaded["d" + Math.floor(id / manifest.chunk)][id % manifest.chunk];
          return { title: row[0], url: row[1], thumb: row[2], width: row[3], height: row[4] };
        });
        return { count: ids.length, photos: photos };
      });
    });
  }

  function element(tag, attributes, text) {
    var node = doc.createElement(tag);
    for (var name in attributes) { node.setAttribute(name, attributes[name]); }
    if (text) { node.textContent = text; }
    return node;
  }
  function show(matches, message) {
    results.textContent = "";
    results.appendChild(element("p", {}, message));
    if (matches.length) {
      var list = element("ul", {});
      matches.slice(0, 24).forEach(function (photo) {
        var link = element("a", { href: root + photo.url });
        link.appendChild(element("img", { src: root + photo.thumb, width: photo.width, height: photo.height, alt: "", loading: "lazy" }));
        link.appendChild(element("span", {}, photo.title));
        var item = element("li", {});
        item.appendChild(link);
        list.appendChild(item);
      });
      results.appendChild(list);
    }
    results.hidden = false;
  }
  function countLabel(n) { return n === 0 ? strings.none : n === 1 ? strings.one : strings.many.replace("{n}", n); }
  var generation = 0;
  function search() {
    var query = input.value, current = ++generation;
    if (!fold(query).trim()) { results.hidden = true; results.textContent = ""; return; }
    index().then(function (data) {
      if (data.photos) {
        var terms = fold(query).split(/\s+/).filter(Boolean);
        var matches = data.photos.filter(function (photo) {
          return terms.every(function (term) { return photo.haystack.indexOf(term) !== -1; });
        });
        return { count: matches.length, photos: matches.slice(0, 24) };
      }
      var list = words(query).slice(0, 10);
      return list.length ? shardedSearch(data, list) : { count: 0, photos: [] };
    }).then(function (found) {
      if (current !== generation) { return; }
      if (!found) { show([], strings.shorter); return; }
      show(found.photos, countLabel(found.count));
    }, function () {
      if (current === generation) { show([], strings.failed); }
    });
  }
  input.addEventListener("input", search);
  input.addEventListener("focus", function () { index().catch(function () {}); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; search(); input.blur(); event.preventDefault(); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = results.querySelector("a");
    if (first) { window.location.href = first.href; }
  });
  doc.addEventListener("click", function (event) {
    if (!form.contains(event.target)) { results.hidden = true; }
  });
})();
