/* galleryssg default theme script: keyboard navigation, the grids' slideshow button, live search.
   Every page works without it; it only adds to what the HTML already does. Photo pages add
   viewer.js (zoom, swipe, slideshow) and grids scroll.js (infinite scroll). */
(function () {
  "use strict";
  var doc = document;
  var root = doc.documentElement.getAttribute("data-root") || "";

  function linkHref(rel) {
    var link = doc.querySelector('link[rel="' + rel + '"]');
    return link ? link.href : null;
  }
  function go(href) { if (href) { window.location.href = href; } }
  function typing(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  /* ← and → follow rel=prev/next (photos on photo pages, pages on grids); Esc goes back to the
     grid page that holds this photo. */
  var up = doc.querySelector(".photo-nav .up");
  doc.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || typing(event.target)) { return; }
    if (event.key === "ArrowLeft") { go(linkHref("prev")); }
    else if (event.key === "ArrowRight") { go(linkHref("next")); }
    else if (event.key === "Escape" && up) { go(up.href); }
  });

  /* The slideshow button of a grid starts at its first photo; the photo page's viewer plays on. */
  var slideshow = doc.querySelector("button.slideshow[data-href]");
  if (slideshow) {
    slideshow.addEventListener("click", function () {
      try { sessionStorage.setItem("galleryssg-slideshow", "1"); } catch (e) { /* private mode: one photo */ }
      go(slideshow.getAttribute("data-href"));
    });
  }

  /* Live search over search-index.js, loaded on first use with a script element so that it also
     works from file://. */
  var form = doc.querySelector("form.search");
  var input = doc.getElementById("search-input");
  var results = doc.getElementById("search-results");
  if (!form || !input || !results) { return; }
  var index = null, loading = false, pending = null;

  function load(then) {
    if (index) { then(); return; }
    if (window.gallerySearchIndex) { index = prepare(window.gallerySearchIndex); then(); return; }
    pending = then;
    if (loading) { return; }
    loading = true;
    var script = doc.createElement("script");
    script.src = form.getAttribute("data-index");
    script.onload = function () { index = prepare(window.gallerySearchIndex || { photos: [] }); pending(); };
    script.onerror = function () { loading = false; show([], "The search index could not be loaded."); };
    doc.head.appendChild(script);
  }
  function fold(text) {
    return String(text || "").toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }
  function prepare(data) {
    return (data.photos || []).map(function (photo) {
      photo.haystack = fold([photo.title, photo.text, (photo.tags || []).join(" "), photo.author, photo.camera].join(" "));
      return photo;
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
  function search() {
    var terms = fold(input.value).split(/\s+/).filter(Boolean);
    if (!terms.length) { results.hidden = true; results.textContent = ""; return; }
    load(function () {
      var current = fold(input.value).split(/\s+/).filter(Boolean);
      if (!current.length) { return; }
      var matches = index.filter(function (photo) {
        return current.every(function (term) { return photo.haystack.indexOf(term) !== -1; });
      });
      show(matches, matches.length === 0 ? "No photos match." : matches.length === 1 ? "1 photo matches." : matches.length + " photos match.");
    });
  }
  input.addEventListener("input", search);
  input.addEventListener("focus", function () { load(function () {}); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; search(); input.blur(); event.preventDefault(); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = results.querySelector("a");
    if (first) { go(first.href); }
  });
  doc.addEventListener("click", function (event) {
    if (!form.contains(event.target)) { results.hidden = true; }
  });
})();
