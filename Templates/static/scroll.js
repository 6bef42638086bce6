/* galleryssg infinite scroll for grid, album and tag pages. Near the end of the grid it fetches the
   next page's own HTML and appends its tiles; the address follows the page in view (replaceState),
   so Back, Forward and reload come back to the same photo. Without it, or on file://, the page
   links do the same job; they stay in the HTML for crawlers. */
(function () {
  "use strict";
  var doc = document, html = doc.documentElement;
  var grid = doc.querySelector("main div.grid"), nav = doc.querySelector("main nav.pagination");
  if (!grid || !/^https?:$/.test(location.protocol) || !window.fetch || !window.IntersectionObserver ||
      !window.DOMParser || !history.replaceState) { return; }
  var STATE = "galleryScroll";
  var saved = history.state && history.state[STATE];
  if ("scrollRestoration" in history) { history.scrollRestoration = "manual"; }

  /* Links and images keep resolving against this page's own address after replaceState changes it. */
  if (!doc.querySelector("base")) {
    var base = doc.createElement("base");
    base.href = location.href.split("#")[0];
    doc.head.insertBefore(base, doc.head.firstChild);
    doc.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest('a[href^="#"]');
      var target = a && doc.getElementById(a.getAttribute("href").slice(1));
      if (target) { e.preventDefault(); target.scrollIntoView(); target.focus(); }
    });
  }

  var pages = [{ url: location.href.split("#")[0] }];
  Array.prototype.forEach.call(grid.children, function (tile) { tile.setAttribute("data-page", "0"); });
  var nextLink = nav && nav.querySelector('a[rel="next"]');
  var nextURL = nextLink ? nextLink.href : null, busy = false, error = null;
  if (nextURL) { window.galleryScrolls = true; } else { html.classList.add("all"); }

  function tiles() { return grid.querySelectorAll(":scope > .tile"); }
  /* The first tile whose bottom is below the middle of the screen (binary search: tiles are in
     rows); its page is the page in view, even at the end of a short grid. */
  function anchor() {
    var list = tiles(), low = 0, high = list.length - 1, middle = innerHeight / 2;
    if (high < 0) { return null; }
    while (low < high) {
      var mid = (low + high) >> 1;
      if (list[mid].getBoundingClientRect().bottom <= middle) { low = mid + 1; } else { high = mid; }
    }
    return list[low];
  }

  function rebase(node, attribute, from) {
    var value = node.getAttribute(attribute);
    if (!value) { return; }
    if (attribute === "srcset") {
      node.setAttribute(attribute, value.split(",").map(function (entry) {
        var parts = entry.trim().split(/\s+/);
        parts[0] = new URL(parts[0], from).href;
        return parts.join(" ");
      }).join(", "));
    } else {
      node.setAttribute(attribute, new URL(value, from).href);
    }
  }

  function append(fetched, from, page) {
    var incoming = fetched.querySelectorAll("main div.grid > .tile");
    var fragment = doc.createDocumentFragment();
    /* The last row is re-justified when tiles join it. Below the screen that moves nothing anyone
       sees; on screen, a seam keeps it as it is (a spacer takes its free room and a break starts
       the next row), so nothing visible moves. */
    var list = tiles(), last = list[list.length - 1], r = last && last.getBoundingClientRect();
    if (r && r.bottom > 0 && r.top < innerHeight) {
      ["seam", "seam-break"].forEach(function (name) {
        var spacer = doc.createElement("i");
        spacer.className = name;
        spacer.setAttribute("aria-hidden", "true");
        fragment.appendChild(spacer);
      });
    }
    Array.prototype.forEach.call(incoming, function (tile) {
      var copy = doc.importNode(tile, true);
      copy.setAttribute("data-page", String(page));
      rebase(copy, "href", from);
      Array.prototype.forEach.call(copy.querySelectorAll("img, source"), function (node) {
        rebase(node, "src", from);
        rebase(node, "srcset", from);
        if (node.tagName === "IMG") { node.setAttribute("loading", "lazy"); }
      });
      fragment.appendChild(copy);
    });
    grid.appendChild(fragment);
  }

  function more() {
    if (busy || !nextURL || error) { return; }
    busy = true;
    var url = nextURL;
    fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(response.status + " " + response.statusText); }
      return response.text();
    }).then(function (text) {
      var fetched = new DOMParser().parseFromString(text, "text/html");
      /* Added just before the next frame is drawn, so the seam is decided by what that frame shows. */
      return new Promise(function (resolve) {
        requestAnimationFrame(function () {
          pages.push({ url: url });
          append(fetched, url, pages.length - 1);
          var next = fetched.querySelector('main nav.pagination a[rel="next"]');
          nextURL = next ? new URL(next.getAttribute("href"), url).href : null;
          busy = false;
          if (!nextURL) { html.classList.add("all"); }
          restore();
          resolve();
        });
      });
    }).then(check, function () {
      busy = false;
      failed(url);
    });
  }

  /* An error shows the page links again and a retry link, as the seed apps' error cells did. */
  function failed(url) {
    html.classList.add("all");
    error = doc.createElement("p");
    error.className = "more-error";
    error.setAttribute("role", "alert");
    var words = function (name, english) { return (nav && nav.getAttribute("data-" + name)) || english; };
    error.appendChild(doc.createTextNode(words("failed", "More photos could not be loaded.") + " "));
    var retry = doc.createElement("a");
    retry.href = url;
    retry.textContent = words("retry", "Try again");
    retry.addEventListener("click", function (e) {
      e.preventDefault();
      error.remove();
      error = null;
      html.classList.remove("all");
      more();
    });
    error.appendChild(retry);
    grid.after(error);
  }

  /* Fetch while the end of the grid is within a screen and a half of the view. */
  var started = false, scrolled = false;
  function check() {
    if (started && scrolled && nextURL && !busy && !error && grid.getBoundingClientRect().bottom < innerHeight * 2.5) { more(); }
  }
  new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) { check(); }
  }, { rootMargin: "0px 0px 150% 0px" }).observe(nav || grid);

  /* The address follows the page whose tile is at the middle of the view; the state remembers
     that tile and where it was, for Back, Forward and reload. */
  var lastState = "", timer = null;
  function remember() {
    timer = null;
    var tile = anchor();
    if (!tile) { return; }
    var page = pages[Number(tile.getAttribute("data-page")) || 0];
    var state = {};
    state[STATE] = { anchor: tile.href, offset: Math.round(tile.getBoundingClientRect().top) };
    var key = page.url + " " + state[STATE].anchor + " " + state[STATE].offset;
    if (key === lastState) { return; }
    lastState = key;
    try { history.replaceState(state, "", page.url); } catch (e) { /* throttled: the next scroll tries again */ }
  }
  addEventListener("scroll", function () {
    if (!timer) { timer = setTimeout(remember, 200); }
    scrolled = true;
    check();
  }, { passive: true });
  addEventListener("pagehide", remember);

  /* Back to the remembered tile; if the page is not tall enough yet, again after the next page
     arrives, until the reader does anything. */
  function restore() {
    if (!saved) { return; }
    var tile = null;
    Array.prototype.some.call(tiles(), function (t) { return t.href === saved.anchor && (tile = t); });
    if (!tile) { return; }
    scrollTo(scrollX, scrollY + tile.getBoundingClientRect().top - saved.offset);
    if (Math.abs(tile.getBoundingClientRect().top - saved.offset) < 2) { saved = null; }
  }
  ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (type) {
    addEventListener(type, function () { saved = null; }, { capture: true, passive: true });
  });
  /* A page too short to scroll fetches the next one at once, a longer one once the reader
     scrolls, so the first screen costs only this page's images. */
  requestAnimationFrame(function () {
    requestAnimationFrame(function () {
      started = true;
      restore();
      if (doc.documentElement.scrollHeight <= innerHeight + 1) { more(); }
    });
  });
})();
