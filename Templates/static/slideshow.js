/* galleryssg slideshow and preloading, for photo pages (with viewer.js): ▶ shows each photo for
   viewer.slideshowSeconds and goes on to the next; after load, the next photo's preview and page are
   fetched unless the reader saves data. Without it the page works as before. */
(function () {
  "use strict";
  var doc = document;
  var link = function (rel) { return doc.querySelector('.photo-nav a[rel="' + rel + '"]'); };
  var go = function (a) { if (a) { location.href = a.href; } };
  var play = doc.querySelector(".viewer-tools .play");
  /* A clip's page: the slideshow plays it and moves on when it ends. */
  var clip = doc.querySelector(".stage video.main");
  if (clip) { clip.closest(".stage").classList.add("clip-tools"); }
  /* On a clip's page a horizontal swipe over the picture (not over the controls at its foot) goes
     to the previous or next photo, as viewer.js does on a photo's page. */
  if (clip) {
    /* Touch events, not pointer events: Firefox gives a video's controls the pointerdown of a touch. */
    var touch = null;
    clip.addEventListener("touchstart", function (e) {
      var box = clip.getBoundingClientRect(), t = e.touches[0];
      touch = e.touches.length === 1 && t.clientY < box.bottom - 56 ? { x: t.clientX, y: t.clientY, width: box.width } : null;
    }, { passive: true });
    clip.addEventListener("touchend", function (e) {
      var start = touch, t = e.changedTouches[0];
      touch = null;
      if (!start || !t) { return; }
      var dx = t.clientX - start.x, dy = t.clientY - start.y;
      if (Math.abs(dx) > start.width / 4 && Math.abs(dy) < Math.abs(dx) / 2) { go(link(dx > 0 ? "prev" : "next")); }
    }, { passive: true });
  }
  var connection = navigator.connection || {};
  /* Save-Data, a 2G link or a cellular (metered) one: nothing is fetched before it is asked for. */
  var frugal = !!(connection.saveData || /2g$/.test(connection.effectiveType || "") || connection.type === "cellular");

  /* ---- Slideshow: sessionStorage carries "playing" from page to page. ---- */
  var KEY = "galleryssg-slideshow", timer = null;
  var seconds = parseFloat(play && play.getAttribute("data-seconds")) || 5;
  /* The button's words in the site's language: its own text, and data-pause while it plays. */
  var label = play && play.querySelector(".label");
  var words = { play: label ? label.textContent : "", pause: (play && play.getAttribute("data-pause")) || "" };
  function playing() { try { return sessionStorage.getItem(KEY) === "1"; } catch (e) { return false; } }
  function setPlaying(on) {
    try { if (on) { sessionStorage.setItem(KEY, "1"); } else { sessionStorage.removeItem(KEY); } } catch (e) { /* private mode */ }
    if (play) {
      play.setAttribute("aria-pressed", String(on));
      if (label) { label.textContent = on ? words.pause || words.play : words.play; }
    }
    clearTimeout(timer);
    timer = null;
    if (on) { schedule(); }
  }
  function schedule() {
    clearTimeout(timer);
    if (doc.hidden) { return; }
    var advance = function () {
      var next = link("next");
      if (next) { go(next); } else { setPlaying(false); }
    };
    if (clip) {
      clip.onended = function () { if (playing()) { advance(); } };
      /* With sound if the browser lets a page play it unasked, else muted; failing both, the photo's time. */
      var started = clip.play();
      if (started && started.catch) {
        started.catch(function () {
          clip.muted = true;
          clip.play().catch(function () { timer = setTimeout(advance, seconds * 1000); });
        });
      }
      return;
    }
    timer = setTimeout(advance, seconds * 1000);
  }
  doc.addEventListener("visibilitychange", function () {
    if (!playing()) { return; }
    if (doc.hidden) { clearTimeout(timer); timer = null; } else { schedule(); }
  });
  /* Any input stops it, except pressing the slideshow button itself (which toggles it). */
  ["keydown", "pointerdown", "wheel", "touchstart"].forEach(function (type) {
    addEventListener(type, function (e) {
      if (playing() && !(play && play.contains(e.target))) { setPlaying(false); }
    }, { capture: true, passive: true });
  });
  if (play) { play.addEventListener("click", function () { setPlaying(!playing()); }); }
  if (playing()) { setPlaying(true); }

  /* ---- After load: the next photo's preview in the size this screen uses, and its page; not on
     Save-Data or metered connections, unless the slideshow needs it next. ---- */
  addEventListener("load", function () {
    var next = link("next");
    if (!next || (frugal && !playing())) { return; }
    var image = new Image();
    image.sizes = next.getAttribute("data-sizes");
    image.srcset = next.getAttribute("data-srcset");
    if (!frugal) {
      var hint = doc.createElement("link");
      hint.rel = "prefetch";
      hint.href = next.href;
      doc.head.appendChild(hint);
    }
  });
})();
