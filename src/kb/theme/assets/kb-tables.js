/* Sortable, filterable tables inside <div class="kb-table">, without a server.
   Each header cell holds a <button> (keyboard and screen readers reach it as a button); the sorted
   column carries aria-sort on its <th>.  Numbers and dates compare as such.  Typing in the filter
   box hides the rows that do not contain the text; how many rows are shown is announced in an
   aria-live region, and a row says so when none matches.  Dates and ids in any table (and in the
   article's text) stay on one line;
   a table that scrolls sideways says so and can be scrolled from the keyboard. */
(function () {
  "use strict";
  // A cell's sort key: the rank the page gives it (data-kb-sort: credibility levels), stars, a date,
  // a number, or its text.  An empty cell ("—") has none and goes last in either direction.
  function cellKey(cell) {
    var ranked = cell ? cell.querySelector("[data-kb-sort]") : null;
    if (ranked) return { n: Number(ranked.getAttribute("data-kb-sort")) };
    var text = cell ? (cell.textContent || "").trim() : "";
    if (text === "" || text === "—") return { empty: true };
    var stars = (text.match(/⭐/g) || []).length;
    if (stars) return { n: stars };
    if (/^\d{4}-\d{2}-\d{2}/.test(text)) return { s: text };
    var num = parseFloat(text.replace(/[^\d.\-]/g, ""));
    if (/^[-+]?\d/.test(text) && !isNaN(num)) return { n: num };
    return { s: text.toLowerCase() };
  }
  function compare(a, b) {
    if (a.n !== undefined && b.n !== undefined) return a.n - b.n;
    var x = a.s !== undefined ? a.s : String(a.n), y = b.s !== undefined ? b.s : String(b.n);
    return x.localeCompare(y, "zh", { numeric: true });
  }
  function setup(box) {
    var table = box.querySelector("table");
    if (!table || table.dataset.kbReady || !table.tHead || !table.tBodies.length) return;
    table.dataset.kbReady = "1";
    var body = table.tBodies[0];
    var heads = table.tHead.rows[0].cells;
    var rows = Array.prototype.slice.call(body.rows);  // the data rows (the empty-state row is not one)

    var input = document.createElement("input");
    input.type = "search";
    input.className = "kb-table-filter";
    input.placeholder = kbWord("tables.filter");
    input.setAttribute("aria-label", kbWord("tables.filter_label"));
    var status = document.createElement("p");
    status.className = "kb-table-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var empty = document.createElement("tr");
    empty.className = "kb-table-empty";
    empty.hidden = true;
    var emptyCell = document.createElement("td");
    emptyCell.colSpan = heads.length;
    emptyCell.textContent = kbWord("tables.empty");
    empty.appendChild(emptyCell);
    body.appendChild(empty);
    box.insertBefore(status, box.firstChild);
    box.insertBefore(input, status);
    if (!input.id) input.id = "kb-filter-" + (box.getAttribute("data-kb-table") || Math.random().toString(36).slice(2));
    table.setAttribute("aria-describedby", status.id = input.id + "-status");

    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase(), shown = 0;
      rows.forEach(function (row) {
        row.hidden = q !== "" && row.textContent.toLowerCase().indexOf(q) === -1;
        if (!row.hidden) shown += 1;
      });
      empty.hidden = shown !== 0;
      status.textContent = q === "" ? "" : kbWord("tables.shown", { shown: shown, total: rows.length });
    });

    Array.prototype.forEach.call(heads, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kb-sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      button.setAttribute("title", kbWord("tables.sort"));
      th.appendChild(button);
      th.setAttribute("aria-sort", "none");
      button.addEventListener("click", function () {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (c) { c.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        rows.sort(function (r1, r2) {
          var k1 = cellKey(r1.cells[col]), k2 = cellKey(r2.cells[col]);
          if (k1.empty || k2.empty) return (k1.empty ? 1 : 0) - (k2.empty ? 1 : 0);
          var d = compare(k1, k2);
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        body.appendChild(empty);
      });
      // the whole cell sorts (kb.css gives it the pointer), not only the words of the button in it
      th.addEventListener("click", function (event) { if (event.target === th) button.click(); });
    });
  }
  // Dates (2026-09-03, and 09-03 in a list of one year's briefs) and arXiv ids (2505.02922v2) in
  // table cells never break across lines: each is wrapped in <span class="kb-nowrap"> (white-space:
  // nowrap, kb.css).  Nor do they in the rest of the article's text (TEXT_TOKEN: a date, with its
  // time of day, and an id; not inside a name such as a brief's key, 2026-09-03-e1): a browser
  // breaks a line at a hyphen, and on a phone "生成时间：2026-" ended a line.  Done here, where a
  // page is read, and not in every page's HTML (a fifth of the build's page walk, and bytes).
  var TOKEN = /\d{4}-\d{2}-\d{2}|\d{4}\.\d{4,5}(?:v\d+)?|\b\d{2}-\d{2}\b/g;
  var TEXT_TOKEN = /(?<![\w-])(?:\d{4}-\d{2}-\d{2}(?: \d{2}:\d{2}(?![\w:]))?|\d{4}\.\d{4,5}(?:v\d+)?)(?![\w-])/g;
  function keepTokens(root, pattern) {
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), found = [];
    for (var n = walker.nextNode(); n; n = walker.nextNode()) {
      pattern.lastIndex = 0;
      var skip = n.parentNode.closest(".kb-nowrap, code, pre, svg, script, style, textarea, select, [hidden]");
      if (skip === null && pattern.test(n.nodeValue)) found.push(n);
    }
    found.forEach(function (node) {
      var text = node.nodeValue, frag = document.createDocumentFragment(), last = 0, m;
      pattern.lastIndex = 0;
      while ((m = pattern.exec(text)) !== null) {
        if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
        var span = document.createElement("span");
        span.className = "kb-nowrap";
        span.textContent = m[0];
        frag.appendChild(span);
        last = m.index + m[0].length;
      }
      if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
      node.parentNode.replaceChild(frag, node);
    });
  }
  // A table wider than its column scrolls inside Material's wrapper: the wrapper is made
  // keyboard-focusable (a named region) and a hint above it says that it scrolls sideways.
  var HINT = kbWord("tables.wide");
  function affordance(wrap) {
    var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
    var hint = wrap.previousElementSibling;
    var has = hint && hint.classList.contains("kb-scroll-hint");
    wrap.classList.toggle("kb-scrolls", scrolls);
    if (scrolls) {
      wrap.setAttribute("tabindex", "0");
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", HINT.replace(" →", ""));
      if (!has) {
        hint = document.createElement("p");
        hint.className = "kb-scroll-hint";
        hint.setAttribute("aria-hidden", "true");
        hint.textContent = HINT;
        wrap.parentNode.insertBefore(hint, wrap);
      }
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (a) { wrap.removeAttribute(a); });
      if (has) hint.parentNode.removeChild(hint);
    }
  }
  function affordances() { document.querySelectorAll("article .md-typeset__scrollwrap").forEach(affordance); }
  var pending = null;
  window.addEventListener("resize", function () {
    if (pending) clearTimeout(pending);
    pending = setTimeout(affordances, 150);
  });
  // A table marked data-kb-cards reads as one card per row on a phone (kb.css): each cell gets its
  // column's name to show before it, and the table, rows and cells their table roles back.
  function cards(table) {
    if (table.dataset.kbCardsReady || !table.tHead || !table.tBodies.length) return;
    table.dataset.kbCardsReady = "1";
    // (no role on the header cells: Material styles th[role=columnheader] as its own sortable tables')
    var names = Array.prototype.map.call(table.tHead.rows[0].cells, function (th) {
      return (th.textContent || "").replace(/\s+/g, " ").trim();
    });
    table.setAttribute("role", "table");
    table.tHead.setAttribute("role", "rowgroup");
    table.tHead.rows[0].setAttribute("role", "row");
    table.tHead.rows[0].setAttribute("data-label", kbWord("tables.sort_by"));  // shown when the header sorts
    table.tBodies[0].setAttribute("role", "rowgroup");
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      row.setAttribute("role", "row");
      Array.prototype.forEach.call(row.cells, function (cell, col) {
        cell.setAttribute("role", "cell");
        if (names[col] && !row.classList.contains("kb-table-empty")) cell.setAttribute("data-label", names[col]);
      });
    });
  }
  function init() {
    document.querySelectorAll("article table[data-kb-cards]").forEach(cards);
    document.querySelectorAll(".kb-table").forEach(setup);
    document.querySelectorAll("article table").forEach(function (table) { keepTokens(table, TOKEN); });
    document.querySelectorAll("article").forEach(function (article) { keepTokens(article, TEXT_TOKEN); });
    affordances();
  }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
