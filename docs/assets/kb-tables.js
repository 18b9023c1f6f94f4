/* Sortable, filterable tables inside <div class="kb-table">, without a server.
   Each header cell holds a <button> (keyboard and screen readers reach it as a button); the sorted
   column carries aria-sort on its <th>.  Numbers and dates compare as such.  Typing in the filter
   box hides the rows that do not contain the text; how many rows are shown is announced in an
   aria-live region, and a row says so when none matches. */
(function () {
  "use strict";
  function cellKey(cell) {
    var text = cell ? (cell.textContent || "").trim() : "";
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
    input.placeholder = "筛选…";
    input.setAttribute("aria-label", "筛选表格");
    var status = document.createElement("p");
    status.className = "kb-table-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    var empty = document.createElement("tr");
    empty.className = "kb-table-empty";
    empty.hidden = true;
    var emptyCell = document.createElement("td");
    emptyCell.colSpan = heads.length;
    emptyCell.textContent = "没有符合筛选条件的行。";
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
      status.textContent = q === "" ? "" : "显示 " + shown + " / " + rows.length + " 行";
    });

    Array.prototype.forEach.call(heads, function (th, col) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kb-sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      button.setAttribute("title", "按此列排序");
      th.appendChild(button);
      th.setAttribute("aria-sort", "none");
      button.addEventListener("click", function () {
        var asc = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (c) { c.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", asc ? "ascending" : "descending");
        rows.sort(function (r1, r2) {
          var d = compare(cellKey(r1.cells[col]), cellKey(r2.cells[col]));
          return asc ? d : -d;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        body.appendChild(empty);
      });
    });
  }
  function init() { document.querySelectorAll(".kb-table").forEach(setup); }
  if (window.document$ && window.document$.subscribe) { window.document$.subscribe(init); }
  else if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); }
  else { init(); }
})();
