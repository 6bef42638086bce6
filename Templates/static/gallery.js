/* galleryssg default theme script: keyboard and swipe navigation, preloading (search is search.js).
   Every page works without it; it only adds to what the HTML already does. */
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

  /* Swipe on the photo: left for the next photo, right for the previous one. */
  var stage = doc.querySelector(".stage");
  if (stage) {
    var startX = 0, startY = 0, tracking = false;
    stage.addEventListener("touchstart", function (event) {
      tracking = event.touches.length === 1;
      if (tracking) { startX = event.touches[0].clientX; startY = event.touches[0].clientY; }
    }, { passive: true });
    stage.addEventListener("touchend", function (event) {
      if (!tracking || event.changedTouches.length !== 1) { return; }
      tracking = false;
      var dx = event.changedTouches[0].clientX - startX;
      var dy = event.changedTouches[0].clientY - startY;
      if (Math.abs(dx) > 50 && Math.abs(dx) > 1.5 * Math.abs(dy)) { go(linkHref(dx < 0 ? "next" : "prev")); }
    }, { passive: true });
  }

  /* Preload the next photo's preview once this page has loaded, in the size this screen will use. */
  var next = doc.querySelector(".photo-nav .next[data-srcset]");
  if (next) {
    window.addEventListener("load", function () {
      var image = new Image();
      image.sizes = next.getAttribute("data-sizes");
      image.srcset = next.getAttribute("data-srcset");
    });
  }
})();
