/* galleryssg photo viewer: zoom and pan, a swipe that follows the finger, full screen (the
   slideshow and preloading are in slideshow.js). Loaded only on photo pages; without it the photo
   is a link to the full-size file and the page works as before. Gestures follow PhotoSwipe 5's documented
   behaviour (double-tap and click zoom, pinch, ctrl+wheel, drag to pan, swipe, drag down to close). */
(function () {
  "use strict";
  var doc = document, html = doc.documentElement;
  var stage = doc.querySelector(".stage"), frame = stage && stage.querySelector(".full");
  var main = frame && frame.querySelector("img.main");
  if (!main || !window.PointerEvent) { return; }
  var still = matchMedia("(prefers-reduced-motion: reduce)");
  var link = function (rel) { return doc.querySelector('.photo-nav a[rel="' + rel + '"]'); };
  var up = doc.querySelector(".photo-nav .up");
  var go = function (a) { if (a) { location.href = a.href; } };
  html.classList.add("viewer");

  /* ---- Zoom and pan: `frame` is transformed with its origin at the top left; scale 1 fits. ---- */
  var scale = 1, tx = 0, ty = 0, pointerAt = null;
  function box() { return stage.getBoundingClientRect(); }
  function native() { return Number(frame.getAttribute("data-zoom-width")) / frame.offsetWidth; }
  function maxScale() { return Math.max(4, native()); }
  function clampAxis(t, offset, size, scaled, room) {
    return scaled <= room ? (room - scaled) / 2 - offset : Math.min(-offset, Math.max(room - offset - scaled, t));
  }
  function apply(animate) {
    var r = box(), w = frame.offsetWidth, h = frame.offsetHeight;
    if (scale <= 1.001) { scale = 1; tx = 0; ty = 0; } else {
      tx = clampAxis(tx, frame.offsetLeft, w, w * scale, r.width);
      ty = clampAxis(ty, frame.offsetTop, h, h * scale, r.height);
    }
    frame.style.transition = animate && !still.matches ? "transform .25s ease, translate .25s ease" : "";
    frame.style.transform = scale === 1 ? "" : "translate(" + tx + "px," + ty + "px) scale(" + scale + ")";
    stage.classList.toggle("zoomed", scale > 1);
    if (scale > 1) { sharpen(); }
  }
  /* Zooms to `next` keeping the point (x, y) of the screen (or the stage's centre) still. */
  function zoomTo(next, x, y, animate) {
    var r = box();
    if (x === undefined) { x = r.left + r.width / 2; y = r.top + r.height / 2; }
    next = Math.min(maxScale(), Math.max(1, next));
    var px = x - r.left - frame.offsetLeft, py = y - r.top - frame.offsetTop;
    tx = px - (px - tx) * next / scale;
    ty = py - (py - ty) * next / scale;
    scale = next;
    apply(animate);
  }
  /* The double-tap level: the original at 1:1 when that is 1.5 to 2.5 times the fit, else 2.5. */
  function toggle(x, y) {
    var n = native();
    if (scale > 1) { zoomTo(1, x, y, true); } else { zoomTo(n >= 1.5 && n < 2.5 ? n : 2.5, x, y, true); }
  }

  /* Past the preview's resolution, the smallest srcset size that is sharp at this zoom, and past
     the largest the original, is loaded and laid over the preview once decoded, in the same box,
     so nothing moves. The sizes come from the srcset the browser took the preview from: the
     <source>'s AVIF or WebP files (whichever it chose), or the img's own. */
  function candidates(element) {
    return (element.getAttribute("srcset") || "").split(",").map(function (entry) {
      var parts = entry.trim().split(/\s+/);
      return { src: parts[0] && new URL(parts[0], doc.baseURI).href, width: parseInt(parts[1], 10) || 0 };
    }).filter(function (c) { return c.src; });
  }
  function ladder() {
    var lists = [main].concat(Array.prototype.slice.call(frame.querySelectorAll("source"))).map(candidates);
    var list = lists.filter(function (l) { return l.some(function (c) { return c.src === main.currentSrc; }); })[0] || lists[0];
    return list.concat([{ src: new URL(frame.getAttribute("data-zoom"), doc.baseURI).href, width: Number(frame.getAttribute("data-zoom-width")) }]);
  }
  var shown = 0, loading = null, hires = null;
  function sharpen() {
    var need = frame.offsetWidth * scale * (window.devicePixelRatio || 1);
    var have = shown, steps = ladder();
    steps.forEach(function (c) { if (c.src === main.currentSrc) { have = Math.max(have, c.width); } });
    if (loading || have >= need) { return; }
    var larger = steps.filter(function (c) { return c.width > have; }).sort(function (a, b) { return a.width - b.width; });
    var step = larger.filter(function (c) { return c.width >= need; })[0] || larger[larger.length - 1];
    if (!step) { return; }
    loading = new Image();
    loading.alt = "";
    loading.className = "hires";
    loading.src = step.src;
    var done = function () {
      if (hires) { hires.remove(); }
      hires = loading; loading = null; shown = step.width;
      frame.appendChild(hires);
      if (scale > 1) { sharpen(); }
    };
    (loading.decode ? loading.decode() : Promise.resolve()).then(done, function () { shown = step.width; loading = null; });
  }

  /* ---- Pointers: tap and double-tap zoom, pinch, pan, swipe, drag down to close. ---- */
  var pointers = {}, gesture = null, lastTap = null;
  function count() { return Object.keys(pointers).length; }
  function pinchState() {
    var p = Object.keys(pointers).map(function (k) { return pointers[k]; });
    return { d: Math.hypot(p[0].x - p[1].x, p[0].y - p[1].y) || 1, x: (p[0].x + p[1].x) / 2, y: (p[0].y + p[1].y) / 2 };
  }
  stage.addEventListener("dragstart", function (e) { e.preventDefault(); });
  stage.addEventListener("pointerdown", function (e) {
    if (e.target.closest("button") || (e.pointerType === "mouse" && e.button !== 0)) { return; }
    pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    try { stage.setPointerCapture(e.pointerId); } catch (ignored) { /* an untrusted event */ }
    if (count() === 2) {
      var p = pinchState();
      gesture = { kind: "pinch", d: p.d, x: p.x, y: p.y, scale: scale };
    } else if (count() === 1) {
      gesture = { kind: null, x: e.clientX, y: e.clientY, t: e.timeStamp, tx: tx, ty: ty, trail: [[e.timeStamp, e.clientX, e.clientY]], scrollY: scrollY };
    }
  });
  stage.addEventListener("pointermove", function (e) {
    pointerAt = [e.clientX, e.clientY];
    if (!pointers[e.pointerId] || !gesture) { return; }
    pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
    if (gesture.kind === "pinch") {
      if (count() < 2) { return; }
      var p = pinchState();
      zoomTo(gesture.scale * p.d / gesture.d, p.x, p.y);
      tx += p.x - gesture.x; ty += p.y - gesture.y; gesture.x = p.x; gesture.y = p.y;
      apply();
      return;
    }
    var dx = e.clientX - gesture.x, dy = e.clientY - gesture.y;
    gesture.trail.push([e.timeStamp, e.clientX, e.clientY]);
    if (gesture.trail.length > 8) { gesture.trail.shift(); }
    if (!gesture.kind) {
      if (Math.hypot(dx, dy) < 10) { return; }
      gesture.kind = scale > 1 ? "pan" : Math.abs(dx) > Math.abs(dy) ? "swipe" : dy > 0 && scrollY <= 0 ? "close" : "scroll";
    }
    if (gesture.kind === "pan") { tx = gesture.tx + dx; ty = gesture.ty + dy; apply(); }
    else if (gesture.kind === "swipe") { slide(dx); }
    else if (gesture.kind === "close") { lift(Math.max(0, dy)); }
    else { scrollTo(scrollX, gesture.scrollY - dy); }
  });
  function release(e) {
    if (!pointers[e.pointerId]) { return; }
    delete pointers[e.pointerId];
    var g = gesture;
    if (!g || count() > 0) { if (g && g.kind === "pinch") { gesture = null; } return; }
    gesture = null;
    if (e.type === "pointercancel") { settle(); return; }
    var dx = e.clientX - g.x, dy = e.clientY - g.y, first = g.trail[0], v = 0;
    var span = e.timeStamp - first[0];
    if (span > 0 && span < 250) { v = (g.kind === "close" ? e.clientY - first[2] : e.clientX - first[1]) / span; }
    var r = box();
    if (!g.kind) { tap(e); }
    else if (g.kind === "swipe") {
      var target = link(dx < 0 ? "next" : "prev");
      var flung = Math.abs(v) > 0.5 && Math.abs(dx) > 20 && (v < 0) === (dx < 0);
      if (target && (Math.abs(dx) > r.width * 0.25 || flung)) { leave(target, dx < 0 ? -1 : 1); } else { settle(); }
    } else if (g.kind === "close") {
      if (up && (dy > r.height * 0.2 || (v > 0.5 && dy > 20))) { go(up); } else { settle(); }
    }
  }
  stage.addEventListener("pointerup", release);
  stage.addEventListener("pointercancel", release);
  function tap(e) {
    if (e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) { return; }
    var now = e.timeStamp, twice = lastTap && now - lastTap.t < 350 && Math.hypot(e.clientX - lastTap.x, e.clientY - lastTap.y) < 40;
    lastTap = twice ? null : { t: now, x: e.clientX, y: e.clientY };
    /* The first tap zooms (or zooms out); a second tap straight after belongs to the same double tap. */
    if (!twice) { toggle(e.clientX, e.clientY); }
  }
  /* The photo is a link to the full-size file for readers without the script; here a click zooms.
     Keyboard activation and modified clicks (new tab) still follow the link. */
  frame.addEventListener("click", function (e) {
    if (e.detail > 0 && !(e.ctrlKey || e.metaKey || e.shiftKey || e.button)) { e.preventDefault(); }
  });
  stage.addEventListener("wheel", function (e) {
    if (!e.ctrlKey) { return; }
    e.preventDefault();
    zoomTo(scale * Math.exp(-e.deltaY * (e.deltaMode ? 0.05 : 0.01)), e.clientX, e.clientY);
  }, { passive: false });

  /* ---- The swipe: the photo follows the finger and its neighbour slides in beside it. ---- */
  var sides = {};
  function neighbour(rel) {
    var a = link(rel);
    if (!a || !a.getAttribute("data-srcset")) { return null; }
    if (!sides[rel]) {
      var img = doc.createElement("img");
      img.className = "side " + rel;
      img.alt = "";
      img.sizes = a.getAttribute("data-sizes");
      img.srcset = a.getAttribute("data-srcset");
      stage.appendChild(img);
      sides[rel] = img;
    }
    return sides[rel];
  }
  function slide(dx) {
    var side = neighbour(dx < 0 ? "next" : "prev");
    stage.style.transition = "";
    stage.style.setProperty("--dx", (side ? dx : dx * 0.3) + "px");
  }
  function lift(dy) {
    stage.style.transition = "";
    stage.style.setProperty("--dy", dy + "px");
    stage.style.setProperty("--fade", String(Math.max(0.4, 1 - dy / box().height)));
  }
  function settle() {
    stage.classList.add("settling");
    stage.style.setProperty("--dx", "0px");
    stage.style.setProperty("--dy", "0px");
    stage.style.setProperty("--fade", "1");
    setTimeout(function () { stage.classList.remove("settling"); }, 300);
  }
  function leave(target, direction) {
    if (still.matches) { go(target); return; }
    stage.classList.add("settling");
    stage.style.setProperty("--dx", direction * (box().width + 16) + "px");
    setTimeout(function () { go(target); }, 200);
  }

  /* ---- Keys: + - 0 zoom about the pointer; Esc zooms out before it goes back to the grid. ---- */
  addEventListener("keydown", function (e) {
    if (e.altKey || e.metaKey || /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) { return; }
    var r = box(), over = pointerAt && pointerAt[0] >= r.left && pointerAt[0] <= r.right && pointerAt[1] >= r.top && pointerAt[1] <= r.bottom;
    var x = over ? pointerAt[0] : undefined, y = over ? pointerAt[1] : undefined;
    if (e.ctrlKey) { return; }
    if (e.key === "+" || e.key === "=") { zoomTo(scale * 1.5, x, y, true); }
    else if (e.key === "-" || e.key === "_") { zoomTo(scale / 1.5, x, y, true); }
    else if (e.key === "0") { zoomTo(1, x, y, true); }
    else if (e.key === "Escape" && scale > 1) { zoomTo(1, x, y, true); }
    else { return; }
    e.preventDefault();
  }, true);

  /* ---- Toolbar: zoom buttons and full screen (where the Fullscreen API exists). ---- */
  var tools = stage.querySelector(".viewer-tools");
  function button(name) { return tools && tools.querySelector("." + name); }
  var zoomIn = button("zoom-in"), zoomOut = button("zoom-out"), full = button("fullscreen");
  if (zoomIn) { zoomIn.addEventListener("click", function () { zoomTo(scale * 1.5, undefined, undefined, true); }); }
  if (zoomOut) { zoomOut.addEventListener("click", function () { zoomTo(scale / 1.5, undefined, undefined, true); }); }
  if (full) {
    if (!doc.fullscreenEnabled || !stage.requestFullscreen) { full.remove(); } else {
      full.addEventListener("click", function () {
        if (doc.fullscreenElement) { doc.exitFullscreen(); } else { stage.requestFullscreen().catch(function () {}); }
      });
      doc.addEventListener("fullscreenchange", function () {
        full.setAttribute("aria-pressed", String(doc.fullscreenElement === stage));
        scale = 1; apply();
      });
    }
  }

  /* ---- Live Photo: its motion plays over the still, muted and once, on LIVE or when a mouse
     comes over the photo; it ends on the still (Esc or a zoom do not wait for it). An animation
     (a GIF or WebP: a looping video, or the file itself as an image) plays the same way and loops
     until LIVE is pressed again or the mouse that started it leaves. ---- */
  var motion = stage.querySelector(".motion"), live = button("live");
  var loops = !!motion && (motion.loop || motion.tagName === "IMG"), byMouse = false;
  function stopMotion() {
    if (!motion) { return; }
    if (motion.pause) { motion.pause(); }
    motion.hidden = true;
    byMouse = false;
    live.setAttribute("aria-pressed", "false");
  }
  function playMotion() {
    if (!motion.hidden && !motion.paused) { return; }   /* already playing (a mouse over the photo started it) */
    motion.hidden = false;
    live.setAttribute("aria-pressed", "true");
    if (!motion.play) { motion.src = motion.src; return; }   /* an image: shown again, it starts from its first frame */
    motion.currentTime = 0;
    var started = motion.play();
    /* A play() cut short by another (AbortError) is no failure; anything else ends on the still. */
    if (started && started.catch) { started.catch(function (e) { if (!e || e.name !== "AbortError") { stopMotion(); } }); }
  }
  if (motion && live) {
    /* LIVE plays it from the start, even when a mouse passing over the photo on its way to the
       button has just started it: a toggle would stop what the reader asked for. A looping
       animation started by LIVE stops on LIVE, since it never ends by itself. */
    live.addEventListener("click", function () {
      if (loops && !byMouse && live.getAttribute("aria-pressed") === "true") { stopMotion(); return; }
      byMouse = false;
      playMotion();
    });
    stage.addEventListener("pointerenter", function (e) {
      if (e.pointerType === "mouse" && scale === 1 && motion.hidden) { byMouse = true; playMotion(); }
    });
    stage.addEventListener("pointerleave", function (e) { if (loops && byMouse && e.pointerType === "mouse") { stopMotion(); } });
    motion.addEventListener("ended", stopMotion);
  }
})();
