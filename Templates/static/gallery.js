/* galleryssg default theme script: keyboard navigation, the grids' slideshow button and protected
   pages' lock button (search is search.js). Every page works without it; it only adds to what the HTML already does. Photo pages
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

  /* The lock button, shown on the pages the site's service worker decrypts (protect-sw.js): it makes
     the worker forget every key it holds, removes the keys kept in this tab and on this device
     (vault.js's "galleryssg-vault:" entries, and protect.js's note of its last try), tells the
     site's other tabs to do the same, and reloads, which shows the password form. */
  var lock = doc.querySelector("button.vault-lock");
  var worker = navigator.serviceWorker && navigator.serviceWorker.controller;
  var tabs = worker && window.BroadcastChannel ? new BroadcastChannel("galleryssg-vault") : null;
  function forgetKept() {
    ["sessionStorage", "localStorage"].forEach(function (name) {
      try {
        var store = window[name];
        for (var i = store.length - 1; i >= 0; i -= 1) {
          if (String(store.key(i)).indexOf("galleryssg-vault") === 0) { store.removeItem(store.key(i)); }
        }
      } catch (e) { /* storage turned off: nothing kept */ }
    });
  }
  function ask(message) {
    return new Promise(function (resolve) {
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) { resolve(event.data || {}); };
      worker.postMessage(message, [channel.port2]);
      setTimeout(function () { resolve({}); }, 3000);
    });
  }
  if (tabs) {
    tabs.onmessage = function (event) {
      if (event.data !== "lock") { return; }
      forgetKept();
      if (lock && !lock.hidden) { window.location.reload(); }
    };
  }
  if (lock && worker && window.MessageChannel) {
    ask({ type: "galleryssg-opened", url: window.location.href }).then(function (answer) { lock.hidden = !answer.opened; });
    lock.addEventListener("click", function () {
      lock.disabled = true;
      ask({ type: "galleryssg-lock" }).then(function () {
        forgetKept();
        if (tabs) { tabs.postMessage("lock"); }
        window.location.reload();
      });
    });
  }
})();
