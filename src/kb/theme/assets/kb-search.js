/* Header search over the Pagefind index (pagefind/, built after the site by the kb plugin).
 *
 * Material's search dialog (overrides/partials/search.html) with Material's result markup:
 * the page (title, type, date, topic, excerpt with the words marked) and its best sections.
 * Keys: "/", "s" or "f" open it, Esc closes it, arrows move through the results, Enter opens
 * the first, Tab goes round the open dialog once a query is typed (before, it closes the dialog and
 * goes on: a keyboard reader passing the box is not held).  The address carries the query (?q=…), so a search can
 * be shared.  An arXiv id no page holds answers so, with its page on arXiv; a round's name (E1)
 * lists the briefs first, newest first.  Filters by type and topic come from the index, each
 * value with how many results of the query it has.  Excerpts say where they are cut (…).
 * Pagefind downloads only the index
 * chunks a query needs; nothing is loaded before the search box has the focus.  Bytes per query
 * (scripts/bench_search.py): Pagefind runs on the page, not in its web worker (one copy of its
 * code, not two), and a result's fragment (the page's text: excerpt and sections) is fetched when
 * the result is shown: the first few at once, the next batch when the list is scrolled to its end
 * or "more" is pressed.
 * What a result shows is made by assets/kb-search-results.js (loaded first).  Result pages open with
 * ?highlight=<words>, which this script marks on the page (pagefind-highlight.js). */
(function () {
  "use strict";

  var form = document.querySelector("form[name='kb-search']");
  if (!form || !window.kbSearchResults) return;
  var dialog = form.closest(".kb-search");
  // The page holds the dialog with its form, empty: its inside is the same in every page, made once
  // by the build (partials/kb-search-dialog.html) and carried by assets/kb-words.js.  The page's
  // form keeps its action (the index, relative to the page; an edition's names latest/'s).
  var inside = window.kbWords("search.dialog");
  if (!form.elements.length && inside) {
    var made = document.createElement("div");
    made.innerHTML = inside;
    made.querySelector("form").setAttribute("action", form.getAttribute("action"));
    dialog.textContent = "";
    while (made.firstChild) dialog.appendChild(made.firstChild);
    form = dialog.querySelector("form[name='kb-search']");
  }
  var input = form.querySelector("input[name='query']");
  var toggle = document.getElementById("__search");
  var box = dialog.querySelector(".md-search-result");
  var meta = box.querySelector(".md-search-result__meta");
  var list = dialog.querySelector(".md-search-result__list");
  var filterBar = dialog.querySelector(".kb-search__filters");
  var selects = filterBar ? Array.prototype.slice.call(filterBar.querySelectorAll("select")) : [];
  var bundle = form.action; // .../pagefind/pagefind.js, resolved against the page
  var results = window.kbSearchResults; // assets/kb-search-results.js: what a result shows
  var PARAM = results.PARAM, item = results.item, terms = results.terms, el = results.el;
  var FIRST = 5; // results shown at once (each loads its fragment: bytes per query)
  var PAGE = 8; // results added when the list is scrolled to its end or "more" is pressed
  // Interface words: Material's translations, and the knowledge base's own (assets/kb-words.js:
  // the message catalogue's, carried by the page).
  var strings = {};
  try {
    strings = JSON.parse(document.getElementById("__config").textContent).translations || {};
  } catch (e) {
    strings = {};
  }
  var word = window.kbWord; // assets/kb-words.js, loaded before this script runs (it is deferred)
  var ORDER = window.kbWords("search.types") || []; // result types, in the order the filter lists them
  function say(key) {
    return strings[key] || "";
  }

  var loading = null;
  function load() {
    if (!loading) {
      loading = import(bundle).then(function (pf) {
        var settings = { excerptLength: 30, highlightParam: PARAM, ranking: { pageLength: 0.3 }, noWorker: true };
        return pf.options(settings).then(function () {
          pf.init();
          // A search asked before the filter index is loaded counts nothing for each filter (every
          // option would read 0 and be disabled until the next query): searches wait for it.
          return fillFilters(pf).then(function () {
            return pf;
          });
        });
      });
      loading.catch(function () {
        loading = null;
        meta.textContent = word("search.unavailable");
      });
    }
    return loading;
  }

  /* The filters list each type and topic of the site with how many results it has: for the query
   * in the box (whatever the filters are set to: what choosing it would give), or, with the box
   * empty, on the whole site. */
  var siteCounts = null;
  function fillFilters(pf) {
    if (!filterBar) return Promise.resolve();
    return pf.filters().then(function (all) {
      siteCounts = all;
      var shown = false;
      selects.forEach(function (select) {
        var values = Object.keys(all[select.name] || {});
        values.sort(function (a, b) {
          var i = ORDER.indexOf(a), j = ORDER.indexOf(b);
          return (i < 0 ? 99 : i) - (j < 0 ? 99 : j) || (a < b ? -1 : a > b ? 1 : 0);
        });
        values.forEach(function (value) {
          var option = document.createElement("option");
          option.value = value;
          select.appendChild(option);
        });
        select.parentNode.hidden = values.length < 2;
        shown = shown || values.length > 1;
      });
      filterBar.hidden = !shown;
      count(current && input.value.trim() ? current.counts : all);
    });
  }
  function count(counts) {
    selects.forEach(function (select) {
      var of = counts[select.name] || {};
      Array.prototype.forEach.call(select.options, function (option) {
        if (!option.value) return;
        var n = of[option.value] || 0;
        option.textContent = word("search.filter_option", { value: option.value, n: n });
        option.disabled = n === 0 && !option.selected; // nothing to choose (one chosen before stays)
      });
    });
  }

  var seq = 0;
  var current = null;
  function run() {
    var query = input.value.trim();
    var mine = ++seq;
    delete box.dataset.query;
    if (!query) {
      share("");
      list.textContent = "";
      meta.textContent = say("search.result.placeholder");
      if (siteCounts) count(siteCounts);
      return;
    }
    load().then(function (pf) {
      var filters = {};
      selects.forEach(function (s) {
        if (s.value) filters[s.name] = s.value;
      });
      var asked = terms(query);
      share(query);
      return pf.search(asked.text, { filters: filters }).then(function (search) {
        if (mine !== seq || !search) return;
        return arrange(search.results, asked, query).then(function (found) {
        if (mine !== seq) return;
        current = { results: found.results, shown: 0, mine: mine, asked: asked, counts: search.totalFilters || {} };
        count(current.counts);
        list.textContent = "";
        var n = found.results.length;
        var chosen = Object.keys(filters).map(function (k) {
          return filters[k];
        });
        if (found.unknown) {
          meta.textContent = word(n ? "search.unknown_near" : "search.unknown_id", { id: found.unknown });
          list.appendChild(elsewhere(found.unknown));
        } else {
          meta.textContent =
            (n ? word("search.found", { n: n }) : word("search.none")) +
            (chosen.length ? word("search.filtered", { filters: chosen.join(" · ") }) : "");
        }
        return more(FIRST).then(function () {
          if (mine !== seq) return;
          box.dataset.filters = JSON.stringify(filters); // what is shown (tests wait for it)
          box.dataset.query = query;
        });
        });
      });
    });
  }

  /* The results in the order they are shown, and the arXiv id asked for that no page holds:
   * - an arXiv id alone that no page holds (its page would come first: the id is a heading-weight
   *   word of it) answers so, with its address on arXiv, and keeps only the pages that hold an id
   *   of the same month close to it (within NEAR), not every page of that month;
   * - a round's name alone (E1) puts the briefs first, newest first (the fragments of the first
   *   ROUNDS results are read for their dates);
   * - a term the glossary defines (TERMS, the message catalogue's) puts the glossary first, when it
   *   is among the first ROUNDS results. */
  var ROUND = /^e\d+$/i, ROUNDS = 12, NEAR = 500, GLOSSARY = /\/glossary\/(?:[?#]|$)/;
  var TERMS = (window.kbWords("search.terms") || []).map(function (t) { return t.toLowerCase(); });
  function arrange(found, asked, query) {
    var ids = Object.keys(asked.words);
    if (ids.length === 1 && asked.text.trim() === ids[0]) return unknownId(found, ids[0], asked.words[ids[0]]);
    if (ROUND.test(query)) return newestBriefs(found);
    if (TERMS.indexOf(query.toLowerCase()) >= 0) return definitionFirst(found);
    return Promise.resolve({ results: found });
  }
  function definitionFirst(found) {
    var head = found.slice(0, ROUNDS);
    return datas(head).then(function (ds) {
      var at = ds.findIndex(function (d) { return GLOSSARY.test(d.url); });
      if (at <= 0) return { results: found };
      return { results: [found[at]].concat(found.slice(0, at), found.slice(at + 1)) };
    });
  }
  function datas(results) {
    return Promise.all(results.map(function (r) { return r.data(); }));
  }
  function unknownId(found, idWord, written) {
    var first = found.length ? found[0].data() : Promise.resolve(null);
    return first.then(function (d) {
      if (d && (d.content || "").indexOf(idWord) >= 0) return { results: found }; // (its page comes first)
      return nearIds(found.slice(0, 10), idWord, written);
    });
  }
  function nearIds(head, idWord, written) {
    return datas(head).then(function (ds) {
      var m = /(\d{4})(\d{4,5})$/.exec(idWord);
      var near = m ? new RegExp(idWord.slice(0, idWord.length - m[2].length) + "(\\d{4,5})", "g") : null;
      var kept = head.filter(function (r, i) {
        if (!near) return false;
        var hit, content = ds[i].content || "";
        near.lastIndex = 0;
        while ((hit = near.exec(content))) if (Math.abs(Number(hit[1]) - Number(m[2])) <= NEAR) return true;
        return false;
      });
      return { results: kept, unknown: written };
    });
  }
  function newestBriefs(found) {
    var head = found.slice(0, ROUNDS);
    return datas(head).then(function (ds) {
      var brief = ORDER[0];
      var order = head.map(function (r, i) { return { r: r, d: ds[i], i: i }; });
      order.sort(function (a, b) {
        var ab = a.d.meta.type === brief, bb = b.d.meta.type === brief;
        if (ab !== bb) return ab ? -1 : 1;
        if (ab && a.d.meta.date !== b.d.meta.date) return a.d.meta.date < b.d.meta.date ? 1 : -1;
        return a.i - b.i;
      });
      return { results: order.map(function (o) { return o.r; }).concat(found.slice(ROUNDS)) };
    });
  }
  /* The first result for an arXiv id the knowledge base does not hold: its page on arXiv. */
  function elsewhere(written) {
    var li = el("li", "md-search-result__item kb-search__elsewhere");
    var link = el("a", "md-search-result__link");
    link.href = "https://arxiv.org/abs/" + written;
    link.rel = "noopener";
    link.tabIndex = -1;
    var doc = el("article", "md-search-result__article md-search-result__article--document md-typeset");
    doc.appendChild(el("div", "md-search-result__icon md-icon"));
    doc.appendChild(el("h1", null, word("search.unknown_link", { id: written })));
    var facts = el("nav", "kb-search__facts");
    facts.appendChild(el("span", "kb-search__type", word("search.unknown_type")));
    doc.appendChild(facts);
    link.appendChild(doc);
    li.appendChild(link);
    return li;
  }

  /* The address says what is searched for (?q=…): it can be shared, and opening it searches. */
  var Q = "q";
  function share(query) {
    var url = new URL(window.location.href);
    if (query) url.searchParams.set(Q, query);
    else url.searchParams.delete(Q);
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, "", url.href);
  }

  function more(count) {
    var state = current;
    if (!state || state.busy || state.shown >= state.results.length) return Promise.resolve();
    var next = state.results.slice(state.shown, state.shown + (count || PAGE));
    state.shown += next.length;
    state.busy = true;
    return Promise.all(
      next.map(function (r) {
        return r.data();
      })
    ).then(
      function (datas) {
        state.busy = false;
        if (state.mine !== seq) return;
        var old = list.querySelector(".kb-search__more");
        var focused = old && old.contains(document.activeElement);
        if (old) old.parentNode.removeChild(old);
        datas.forEach(function (d, i) {
          var li = item(d, state.asked);
          list.appendChild(li);
          if (focused && i === 0) li.querySelector("a").focus(); // the arrows go on from the first new result
        });
        if (state.shown < state.results.length) {
          var row = el("li", "md-search-result__item kb-search__more");
          var button = el("button", "md-button", word("search.more", { n: state.results.length - state.shown }));
          button.type = "button";
          button.addEventListener("click", function () {
            more(PAGE);
          });
          row.appendChild(button);
          list.appendChild(row);
        }
      },
      function (error) {
        state.busy = false; // a fragment failed to load: "more" asks for this batch again
        state.shown -= next.length;
        throw error;
      }
    );
  }

  /* Scrolled to the end of the list (or "more" focused by the arrows): the next batch. */
  var scroller = dialog.querySelector(".md-search__scrollwrap");
  scroller.addEventListener(
    "scroll",
    function () {
      var button = list.querySelector(".kb-search__more");
      if (!button) return;
      if (button.getBoundingClientRect().top < scroller.getBoundingClientRect().bottom + 200) more(PAGE);
    },
    { passive: true }
  );

  var timer = null;
  function later() {
    clearTimeout(timer);
    timer = setTimeout(run, 120);
  }
  var last = null;
  function changed() {
    if (input.value !== last) {
      last = input.value;
      later();
    }
  }
  input.addEventListener("input", changed);
  input.addEventListener("keyup", changed);
  input.addEventListener("compositionend", changed);
  input.addEventListener("focus", function () {
    load();
    if (!toggle.checked) open();
  });
  selects.forEach(function (s) {
    s.addEventListener("change", function () {
      last = null;
      run();
    });
  });
  form.addEventListener("submit", function (ev) {
    ev.preventDefault();
    var first = list.querySelector("a.md-search-result__link");
    if (first) first.click();
  });
  form.addEventListener("reset", function () {
    setTimeout(function () {
      last = null;
      changed();
      input.focus();
    });
  });

  /* The toggle is changed the way Material changes it (a "change" event), so the theme does what
     it does when its search opens and closes: on a phone it locks the page beneath (without the
     lock, the circle its opening scales up from the search icon leaves the page three times the
     phone's width, and the results are laid out that wide, cut off at the screen's edge). */
  function flip(value) {
    // the results' scrolling area (a tab stop, to scroll by keys) is there only while it is shown
    scroller.hidden = !value;
    if (toggle.checked === value) return;
    toggle.checked = value;
    toggle.dispatchEvent(new Event("change"));
  }
  function open() {
    flip(true);
    input.focus();
    input.select();
    if (!input.value.trim()) meta.textContent = say("search.result.placeholder"); // (not "initializing")
  }
  function close() {
    flip(false);
    input.blur();
    share("");
  }
  toggle.addEventListener("change", function () {
    if (toggle.checked) open();
  });

  function links() {
    return Array.prototype.slice.call(dialog.querySelectorAll(".md-search-result__link, .kb-search__more button"));
  }
  // where a key is text being typed: not a button, a box to tick or the theme's colour switch (a
  // radio button, focused once clicked: "/" must still open the search)
  var UNTYPED = /^(button|checkbox|color|file|image|radio|range|reset|submit)$/;
  function typing(node) {
    if (!node) return false;
    if (node.tagName === "INPUT") return !UNTYPED.test(node.type);
    return node.isContentEditable || /^(TEXTAREA|SELECT)$/.test(node.tagName);
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.metaKey || ev.ctrlKey || ev.altKey || ev.isComposing) return;
    var active = document.activeElement;
    if (!toggle.checked) {
      if (!typing(active) && (ev.key === "/" || ev.key === "s" || ev.key === "f")) {
        ev.preventDefault();
        open();
      }
      return;
    }
    if (ev.key === "Escape") {
      ev.preventDefault();
      close();
    } else if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      var all = links();
      if (!all.length) return;
      ev.preventDefault();
      var i = all.indexOf(active);
      if (ev.key === "ArrowUp" && i === 0) return input.focus(); // above the first result: the box
      i = ev.key === "ArrowDown" ? (i + 1) % all.length : i < 0 ? all.length - 1 : i - 1;
      all[i].focus();
    } else if (ev.key === "Tab" && active === input && !input.value.trim()) {
      flip(false); // passing by (nothing asked): it closes, and Tab goes on from the box
    } else if (ev.key === "Tab") {
      /* Tab goes round the open dialog's controls (the box, the results' scrolling area, the
       * filters, "more"), not on to the page beneath it; the arrows go through the results. */
      var stops = tabStops();
      var at = stops.indexOf(active);
      if (!stops.length) return;
      if (at < 0 || (ev.shiftKey && at === 0) || (!ev.shiftKey && at === stops.length - 1)) {
        ev.preventDefault();
        stops[ev.shiftKey ? stops.length - 1 : 0].focus();
      }
    } else if (ev.key.length === 1 && !typing(active)) {
      input.focus(); // typing while a result has focus goes on in the box
    }
  });
  function tabStops() {
    return Array.prototype.slice.call(dialog.querySelectorAll("input, select, button, a[href], [tabindex]")).filter(
      function (e) {
        return e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0;
      }
    );
  }

  flip(toggle.checked); // shut, the scrolling area is no tab stop (hidden)

  /* An address with ?q=…: the search opens with it. */
  var shared = new URLSearchParams(window.location.search).get(Q);
  if (shared) {
    input.value = shared;
    open();
    run();
  }

  /* On a page opened from a result: mark the searched words. */
  if (new URLSearchParams(window.location.search).has(PARAM)) {
    var base = bundle.replace(/pagefind\.js(\?.*)?$/, "");
    import(base + "pagefind-highlight.js").then(function (m) {
      var Highlight = m.default || window.PagefindHighlight;
      new Highlight({
        highlightParam: PARAM,
        markContext: "article",
        addStyles: false,
        markOptions: { className: "kb-search-highlight", exclude: [".headerlink", ".kb-edition"] },
      });
    });
  }
})();
