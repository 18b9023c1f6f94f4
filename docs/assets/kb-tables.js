/* Sortable, filterable tables inside <div class="kb-table">, without a server.
   Click a header to sort (numbers and dates compare as such); type to filter rows. */
(function () {
  "use strict";
  function cellKey(cell) {
    var text = (cell.textContent || "").trim();
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
    if (!table || table.dataset.kbReady) return;
    table.dataset.kbReady = "1";
    var body = table.tBodies[0];
    var input = document.createElement("input");
    input.type = "search";
    input.className = "kb-table-filter";
    input.placeholder = "筛选…";
    input.setAttribute("aria-label", "筛选表格");
    box.insertBefore(input, box.firstChild);
    input.addEventListener("input", function () {
      var q = input.value.trim().toLowerCase();
      Array.prototype.forEach.call(body.rows, function (row) {
        row.hidden = q !== "" && row.textContent.toLowerCase().indexOf(q) === -1;
      });
    });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.setAttribute("role", "button");
      th.tabIndex = 0;
      function sort() {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(th.parentNode.cells, function (c) { c.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (r1, r2) {
          var d = compare(cellKey(r1.cells[col]), cellKey(r2.cells[col]));
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
  }
  function init() { document.querySelectorAll(".kb-table").forEach(setup); }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
