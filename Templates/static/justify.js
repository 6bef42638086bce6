/* galleryssg justified grid (issue 29): rows that fill the width at the grid's real width, their
   breaks chosen over the whole run of tiles (minimum total badness, as Knuth–Plass breaks lines)
   rather than greedily, so no portrait is left alone in a giant row. The rules are those of
   GridLayout.swift, which lays the phone rows out at build time for pages without JavaScript.
   Tiles get three properties: --jf (their share of the row's width less its gaps), --jg (those
   gaps) and --ja (their shape as shown, the photo's own unless a bounded crop keeps a row under
   half the screen's height). Rows are laid out again only from the trailing short row on, so
   infinite scroll (scroll.js: galleryGrid.more, .before) grows one continuous flow: the trailing
   row waits hidden while more tiles are to come, and rows above it never move. It runs before
   the first paint (a parser-blocking script right after the grid), so the rows the reader first
   sees are already its own. */
(function () {
  "use strict";
  var doc = document, html = doc.documentElement;
  var grid = doc.querySelector("main div.grid");
  if (!grid || !window.CSS || !CSS.supports || !CSS.supports("aspect-ratio", "1")) { return; }
  var CROP = 0.85;  /* a shown photo keeps at least this much of its width or height */

  /* Target row height and the most a row may be, for a grid `width` px wide in a window
     `height` px tall: phones aim at two or three photos a row, wider screens at 270 px rows. */
  function rules(width, height) {
    return { target: innerWidth <= 600 ? width * 0.4 : 270, most: height * 0.5 };
  }

  /* A row of photos whose aspect ratios add up to `sum`, `count` of them: its natural height
     (filling `width`), its height as shown and its badness. The row that ends the flow, if the
     tiles fit at the target height, stays at the target height, unstretched (`short`). */
  function row(sum, count, width, gap, r, last) {
    var natural = (width - gap * (count - 1)) / sum;
    if (last && natural >= r.target) { return { natural: natural, shown: r.target, short: true, cost: 0 }; }
    var shown = natural > r.most ? Math.max(r.most, natural * CROP) : natural;
    var off = Math.log(shown / r.target), crop = Math.log(natural / shown), over = Math.log(shown / r.most);
    return { natural: natural, shown: shown, short: false,
             cost: off * off + 2 * crop * crop + (over > 0.001 ? 10 + 100 * over * over : 0) };
  }

  /* The rows of photos with aspect ratios `aspects`: [start, end, row] each, of least total badness. */
  function breaks(aspects, width, gap, r, closed) {
    var n = aspects.length, best = [0], from = [0];
    for (var end = 1; end <= n; end++) {
      best[end] = Infinity;
      var sum = 0;
      for (var start = end - 1; start >= 0; start--) {
        sum += aspects[start];
        var line = row(sum, end - start, width, gap, r, end === n && !closed);
        if (best[start] + line.cost < best[end]) { best[end] = best[start] + line.cost; from[end] = start; }
        if (line.natural < r.target * 0.35) { break; }  /* longer rows only get flatter */
      }
    }
    var rows = [];
    for (var at = n; at > 0; at = from[at]) {
      var first = from[at], total = 0;
      for (var i = first; i < at; i++) { total += aspects[i]; }
      rows.unshift([first, at, row(total, at - first, width, gap, r, at === n && !closed)]);
    }
    return rows;
  }

  function tiles() { return grid.querySelectorAll(":scope > .tile"); }
  function aspect(tile) { return parseFloat(tile.style.getPropertyValue("--ar")) || 1; }
  function fixed(x) { return String(Math.round(x * 100000) / 100000); }
  /* A share a hair under the exact one, rounded down, so rounding never pushes a row's last tile
     down to the next row. */
  function share(x) { return String(Math.floor(x * 0.99999 * 100000) / 100000); }

  /* The start of the trailing short row (or the number of tiles), the width laid out for, and
     whether more tiles are to come (scroll.js will append them). */
  var tail = 0, laidWidth = 0, open = false;

  /* Lays out tiles `start` to `end` (the rows before and after stay as they are); `closed` fills
     their last row too. With `open` the trailing short row waits hidden for the next page. */
  function layout(start, end, closed) {
    var list = Array.prototype.slice.call(tiles(), start, end);
    var width = grid.clientWidth, gap = parseFloat(getComputedStyle(grid).columnGap) || 0;
    if (!list.length || !width) { return; }
    laidWidth = width;
    if (!closed) { tail = end; }
    breaks(list.map(aspect), width, gap, rules(width, innerHeight), closed).forEach(function (entry) {
      var line = entry[2], sum = 0, count = entry[1] - entry[0];
      for (var i = entry[0]; i < entry[1]; i++) { sum += aspect(list[i]); }
      if (line.short) { tail = start + entry[0]; }
      for (var k = entry[0]; k < entry[1]; k++) {
        var tile = list[k], a = aspect(tile), style = tile.style;
        style.setProperty("--jf", share(line.short ? a * line.shown / width : a / sum));
        style.setProperty("--jg", line.short ? "0px" : gap * (count - 1) + "px");
        style.setProperty("--ja", fixed(line.short ? a : a * line.natural / line.shown));
        tile.classList.toggle("pending", line.short && open);
      }
    });
    grid.classList.add("justified");
  }

  /* This runs right after the grid is parsed (grid.mustache), before the page links are: the
     head's link rel=next says whether a page follows. */
  open = html.classList.contains("scrolls") && /^https?:$/.test(location.protocol) &&
    !!doc.querySelector('link[rel="next"]');
  layout(0, tiles().length, false);

  window.galleryGrid = {
    /* Tiles were appended: with the trailing short row they make the next rows; `more` says
       whether still more are to come. */
    more: function (more) {
      open = more;
      layout(Math.min(tail, tiles().length), tiles().length, false);
    },
    /* `count` tiles were put before the first: they make full rows of their own. */
    before: function (count) {
      layout(0, count, true);
      tail += count;
    }
  };

  /* Without scroll.js (it found no next page, or cannot run) nothing more comes: the row waiting
     for it is shown at the load. A new width (a rotated phone, a resized window) lays the grid
     out afresh. */
  addEventListener("load", function () {
    if (open && !window.galleryScrolls) { open = false; window.galleryGrid.more(false); }
  });
  /* The new layout waits for the next frame: laid out inside the observer's callback, the grid's
     new height would be a size change in the same delivery, which browsers report as an error
     ("ResizeObserver loop completed with undelivered notifications"; WebKit's test collector sees it). */
  if (window.ResizeObserver) {
    var waiting = false;
    new ResizeObserver(function () {
      if (waiting) { return; }
      waiting = true;
      requestAnimationFrame(function () {
        waiting = false;
        var width = grid.clientWidth;
        if (Math.abs(width - laidWidth) > laidWidth * 0.03) {
          layout(0, tiles().length, false);
        }
      });
    }).observe(grid);
  }
})();
