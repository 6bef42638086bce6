/* galleryssg default theme script: keyboard navigation and the grids' slideshow button (search is
   search.js). Every page works without it; it only adds to what the HTML already does. Photo pages
   add viewer.js (zoom, swipe, slideshow) and grids scroll.js (infinite scroll). */
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
})();
