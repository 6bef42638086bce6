/* galleryssg infinite scroll for grid, album and tag pages. Near the end of the grid it fetches the
   next page's own HTML and appends its tiles; the address follows the page in view (replaceState),
   so Back, Forward and reload come back to the same photo at the same place, fetching the pages
   before it again when the browser loads its page afresh. Without it, or on file://, the page
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

  /* The pages in the grid by number: 0 is this one, later ones count up and earlier ones down. */
  var pages = { 0: { url: location.href.split("#")[0] } }, first = 0, last = 0;
  Array.prototype.forEach.call(grid.children, function (tile) { tile.setAttribute("data-page", "0"); });
  var link = function (rel) { return nav && nav.querySelector('a[rel="' + rel + '"]'); };
  var nextURL = link("next") ? link("next").href : null, prevURL = link("prev") ? link("prev").href : null;
  var busy = false, error = null;
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

  /* The tiles of a fetched page, with their links resolved against its address. */
  function adopt(fetched, from, page, fragment) {
    Array.prototype.forEach.call(fetched.querySelectorAll("main div.grid > .tile"), function (tile) {
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
    return fragment;
  }

  /* justify.js lays the trailing row (hidden while it waited for them) and the new tiles out
     together, the rows above staying where they are: one flow, nothing visible moves. */
  function append(fetched, from, page, more) {
    grid.appendChild(adopt(fetched, from, page, doc.createDocumentFragment()));
    if (window.galleryGrid) { window.galleryGrid.more(more); }
  }

  /* The page links follow what is loaded: those of the last page in the grid (it is marked, its
     Next goes past what is on screen, and there is none once everything is), less its Previous
     when the first page is in the grid too. */
  function follow(fetched, from) {
    var links = fetched.querySelector("main nav.pagination");
    if (!nav || !links) { return; }
    nav.innerHTML = links.innerHTML;
    Array.prototype.forEach.call(nav.querySelectorAll("a[href]"), function (a) { rebase(a, "href", from); });
    var previous = nav.querySelector('a[rel="prev"]');
    if (previous && !prevURL) { previous.remove(); }
  }

  /* An earlier page's tiles go before the first, in full rows of their own (justify.js) so that
     the rows below keep their shape, and the view is scrolled by the height they add: nothing on
     screen moves. */
  function prepend(fetched, from, page) {
    var fragment = adopt(fetched, from, page, doc.createDocumentFragment()), count = fragment.childNodes.length;
    var held = tiles()[0], top = held.getBoundingClientRect().top;
    html.style.overflowAnchor = "none";  /* this does what scroll anchoring would, once */
    grid.insertBefore(fragment, grid.firstChild);
    if (window.galleryGrid) { window.galleryGrid.before(count); }
    scrollBy(0, held.getBoundingClientRect().top - top);
    html.style.overflowAnchor = "";
  }

  /* A page's HTML, parsed; then `use` runs with it just before the next frame is drawn. */
  function load(url, use) {
    busy = true;
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error(response.status + " " + response.statusText); }
      return response.text();
    }).then(function (text) {
      var fetched = new DOMParser().parseFromString(text, "text/html");
      return new Promise(function (resolve) {
        requestAnimationFrame(function () {
          use(fetched, function (rel) {
            var a = fetched.querySelector('main nav.pagination a[rel="' + rel + '"]');
            return a ? new URL(a.getAttribute("href"), url).href : null;
          });
          busy = false;
          resolve();
        });
      });
    });
  }

  function more() {
    if (busy || !nextURL || error) { return; }
    var url = nextURL;
    load(url, function (fetched, linked) {
      pages[++last] = { url: url };
      nextURL = linked("next");
      /* A Next that leads back to a page in the grid (a broken site) ends the pages there. */
      for (var n = first; nextURL && n <= last; n++) { if (pages[n].url === nextURL) { nextURL = null; } }
      append(fetched, url, last, !!nextURL);
      follow(fetched, url);
      if (!nextURL) { html.classList.add("all"); }
      restore();
    }).then(check, function () {
      busy = false;
      failed(url);
    });
  }

  /* The page before the first in the grid, to bring a remembered tile back to its place. */
  function earlier() {
    if (busy || !prevURL) { return; }
    var url = prevURL;
    load(url, function (fetched, linked) {
      pages[--first] = { url: url };
      prepend(fetched, url, first);
      prevURL = linked("prev");
    }).then(function () {
      requestAnimationFrame(restore);
    }, function () {
      busy = false;
      prevURL = null;  /* as near as this page alone allows */
      restore();
    });
  }

  /* An error shows the page links again and a retry link, as the seed apps' error cells did. */
  function failed(url) {
    html.classList.add("all");
    if (window.galleryGrid) { window.galleryGrid.more(false); }
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
      if (window.galleryGrid) { window.galleryGrid.more(true); }
      more();
    });
    error.appendChild(retry);
    grid.after(error);
  }

  /* The bottom of the grid's last row on show: the trailing short row (justify.js's .pending)
     waits hidden while more tiles are to come, so it is blank on screen and does not count. */
  function shownBottom() {
    var list = tiles();
    for (var i = list.length - 1; i >= 0; i--) {
      if (!list[i].classList.contains("pending")) { return list[i].getBoundingClientRect().bottom; }
    }
    return grid.getBoundingClientRect().top;
  }

  /* Fetch while the rows on show end above the bottom of the window (a first screen half empty,
     whatever the page size and the screen, or a window made taller), and once the reader has
     scrolled, while the end of the grid is within a screen and a half of the view. One page at a
     time, each fetched once; a failed one stops it (failed: the page links and a retry link). */
  var started = false, scrolled = false;
  function check() {
    if (!started || !nextURL || busy || error) { return; }
    if (shownBottom() < innerHeight || (scrolled && grid.getBoundingClientRect().bottom < innerHeight * 2.5)) { more(); }
  }
  new IntersectionObserver(function (entries) {
    if (entries.some(function (e) { return e.isIntersecting; })) { check(); }
  }, { rootMargin: "0px 0px 150% 0px" }).observe(nav || grid);
  /* A larger window may leave the rows short of its bottom: checked again once the resizing
     stops and justify.js has laid the rows out at the new width. */
  var resized = null;
  addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(check, 200);
  });

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
  /* Back or Forward to this very document (the back/forward cache): the browser restores nothing
     under "manual", and WebKit shows such a page at the top (then the address would follow the
     top to page 1), so the place it was left at is put back before anything is drawn. */
  var left = null;
  addEventListener("pagehide", function () {
    remember();
    left = [scrollX, scrollY];
  });
  addEventListener("pageshow", function (e) {
    var place = left;
    left = null;
    if (!e.persisted || !place) { return; }
    function put() { if (scrollX !== place[0] || scrollY !== place[1]) { scrollTo(place[0], place[1]); } }
    put();
    requestAnimationFrame(put);
  });

  /* Back to the remembered tile, until the reader does anything: if the page is not tall enough
     below it yet, again after the next page arrives; if there is not enough above it (the browser
     loaded its page afresh, without the pages before it), once the page before is back. */
  function restore() {
    if (!saved) { return; }
    var tile = null;
    Array.prototype.some.call(tiles(), function (t) { return t.href === saved.anchor && (tile = t); });
    if (!tile) { return; }
    var target = scrollY + tile.getBoundingClientRect().top - saved.offset;
    if (target < 0 && prevURL) { earlier(); return; }
    scrollTo(scrollX, target);
    if (Math.abs(tile.getBoundingClientRect().top - saved.offset) < 2) { saved = null; }
  }
  ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (type) {
    addEventListener(type, function () { saved = null; }, { capture: true, passive: true });
  });
  /* A grid whose rows on show leave the window short fetches the next pages at once, until they
     reach its bottom; a longer one waits until the reader scrolls, so a full first screen costs
     only this page's images. */
  requestAnimationFrame(function () {
    requestAnimationFrame(function () {
      started = true;
      restore();
      /* The reader may have scrolled before this: its scroll event and the observer's first
         callback came while `started` was false, and may never come again at the end. */
      if (scrollY > 0) { scrolled = true; }
      check();
    });
  });
})();
