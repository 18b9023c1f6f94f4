/* Previews of internal links: a link inside the article to a paper (papers/…), a brief (briefs/…)
   or a section of a living document (…#sec-…) shows the target's summary in a small popup, so a
   reader sees where a link goes without leaving the page.  Material's navigation.instant.preview
   would need site_url and instant navigation; this needs neither and works offline: the target
   page is fetched from the same origin (each page once, kept in a Map) and read with DOMParser,
   which runs none of its scripts.  Only text is taken from it (textContent), never markup.

   What the popup shows: a paper page's title line (its <meta name="description">, which names the
   paper's full title and arXiv id); a brief's title and headline (.kb-headline, else its
   description); a section's heading and the first paragraph after it.

   How it opens and closes (WCAG 2.1 1.4.13: dismissible, hoverable, persistent):
   - pointer: hovering a link for a moment opens it; the pointer can move onto the popup; leaving
     both closes it;
   - keyboard: focusing a link (Tab, :focus-visible) opens it at once; blur closes it;
   - Esc closes it wherever focus is;
   - touch: a tap follows the link, always (one tap, as on any site).  A preview is offered by a
     separate small button after the link, and only where it adds to what the link's line (its list
     item, paragraph or cell) already says: not beside a brief link whose line already holds the
     brief's headline, nor a link to a part of the same page, one for each target in a line, never
     in tables, headings, the previous/next bar or a brief's glance at the top (one line each on a
     phone, where each line's section below says it all), where navigating is the point.  A press on the button opens the preview, a second press or a tap elsewhere closes it.
     A long-press was not chosen: it collides with the browser's own link menu and no one
     discovers it.
   While the popup is shown, the link's aria-describedby names it (role="tooltip"). */
(function () {
  "use strict";
  var DELAY = 350;      // ms of hovering before the preview opens
  var GRACE = 200;      // ms to move the pointer from the link onto the popup
  var MAX_TEXT = 280;   // characters of summary text
  var cache = new Map();  // page URL (no fragment) -> Promise of a parsed Document, or null
  var tip = null, body = null, heading = null;
  var current = null;     // the link whose preview is shown (or being opened)
  var openTimer = 0, closeTimer = 0, lastPointer = "mouse", request = 0;

  function siteRoot() {
    var base = ".";
    var config = document.getElementById("__config");
    if (config) {
      try { base = JSON.parse(config.textContent).base || "."; } catch (e) { base = "."; }
    }
    var root = new URL(base, location.href);
    if (!/\/$/.test(root.pathname)) root.pathname += "/";
    return root;
  }
  var ROOT = siteRoot();

  /* What a link points to: {kind, page, hash} for a preview, or null. */
  function target(link) {
    // the attribute as written: an SVG link's href property is no string (a graph's nodes)
    var href = link && (link.getAttribute("href") || link.getAttribute("xlink:href"));
    if (!href || link.hasAttribute("download") || link.classList.contains("headerlink")) return null;
    if (!link.closest("article")) return null;
    var url;
    try { url = new URL(href, location.href); } catch (e) { return null; }
    if (url.origin !== location.origin || url.origin === "null") return null;
    if (url.pathname.indexOf(ROOT.pathname) !== 0) return null;
    var rel = url.pathname.slice(ROOT.pathname.length);
    var hash = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    var page = url.href;
    if (/^sec-/.test(hash)) return { kind: "section", page: page, hash: hash };
    if (/^papers\/[^/]+/.test(rel)) return { kind: "paper", page: page, hash: "" };
    if (/^briefs\/.+/.test(rel) && !/^briefs\/(index\.html)?$/.test(rel)) return { kind: "brief", page: page, hash: "" };
    return null;
  }

  function here(page) {
    var now = new URL(location.href);
    now.hash = "";
    return now.href === page;
  }

  function load(page) {
    if (here(page)) return Promise.resolve(document);
    if (!cache.has(page)) {
      cache.set(page, fetch(page, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { return html === null ? null : new DOMParser().parseFromString(html, "text/html"); })
        .catch(function () { return null; }));
    }
    return cache.get(page);
  }

  function clean(text) {
    return (text || "").replace(/¶/g, "").replace(/\s+/g, " ").trim();
  }
  function clip(text) {
    return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT - 1) + "…" : text;
  }
  /* What a reader sees of an element: its text without what it hides (the search words). */
  function visibleText(el) {
    if (!el) return "";
    var copy = el.cloneNode(true);
    copy.querySelectorAll("[hidden], .headerlink, script, style").forEach(function (x) { x.remove(); });
    return clean(copy.textContent);
  }
  function description(doc) {
    var meta = doc.querySelector('meta[name="description"]');
    return meta ? clean(meta.getAttribute("content")) : "";
  }
  function pageTitle(doc) {
    return visibleText(doc.querySelector("article h1")) || clean(doc.title);
  }

  /* The summary of a target: {title, text}, or null when there is none. */
  function summary(doc, t) {
    if (!doc) return null;
    if (t.kind === "section") {
      var h = doc.getElementById(t.hash);
      if (!h) return null;
      var para = "";
      for (var n = h.nextElementSibling; n && !/^H[1-6]$/.test(n.tagName); n = n.nextElementSibling) {
        if (n.matches(".kb-timeline-link")) continue;  // the link to its timeline: the same on every section
        var p = n.matches("p") ? n : n.querySelector("p");
        if (p && visibleText(p)) { para = visibleText(p); break; }
      }
      var sub = h.querySelector("small");  // a section's English name
      var main = h.cloneNode(true);
      main.querySelectorAll("small").forEach(function (x) { x.remove(); });
      return { title: visibleText(main), sub: visibleText(sub), text: para };
    }
    var title = pageTitle(doc);
    if (t.kind === "brief") {
      var headline = visibleText(doc.querySelector("article .kb-headline"));
      return { title: title, text: headline || description(doc) };
    }
    var desc = description(doc);
    return { title: title, text: desc || visibleText(doc.querySelector("article p")) };
  }

  function build() {
    tip = document.createElement("div");
    tip.id = "kb-preview";
    tip.className = "kb-preview";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    heading = document.createElement("p");
    heading.className = "kb-preview__title";
    body = document.createElement("p");
    body.className = "kb-preview__text";
    tip.appendChild(heading);
    tip.appendChild(body);
    tip.addEventListener("mouseenter", function () { clearTimeout(closeTimer); });
    tip.addEventListener("mouseleave", function () { scheduleClose(); });
    document.body.appendChild(tip);
  }

  function place(link) {
    var r = link.getClientRects()[0] || link.getBoundingClientRect();
    var margin = 8, width = document.documentElement.clientWidth;
    tip.style.left = "0px";
    tip.style.top = "0px";
    var w = tip.offsetWidth, h = tip.offsetHeight;
    var left = Math.min(Math.max(margin, r.left), Math.max(margin, width - w - margin));
    var below = r.bottom + 6;
    var top = below + h > window.innerHeight - margin && r.top - h - 6 > margin ? r.top - h - 6 : below;
    tip.style.left = Math.round(left + window.scrollX) + "px";
    tip.style.top = Math.round(top + window.scrollY) + "px";
  }

  function describe(link, on) {
    var ids = (link.getAttribute("aria-describedby") || "").split(/\s+/).filter(function (x) { return x && x !== tip.id; });
    if (on) ids.push(tip.id);
    if (ids.length) link.setAttribute("aria-describedby", ids.join(" "));
    else link.removeAttribute("aria-describedby");
  }

  /* Open the preview of ``link``; resolves true when it is shown. */
  function open(link) {
    var t = target(link);
    if (!t) return Promise.resolve(false);
    clearTimeout(closeTimer);
    if (current && current !== link) close();
    current = link;
    var mine = ++request;
    return load(t.page).then(function (doc) {
      if (mine !== request || current !== link) return false;
      var s = summary(doc, t);
      if (!s || !(s.title || s.text)) { current = null; return false; }
      if (!tip) build();
      heading.textContent = clip(s.title);
      if (s.sub) {
        var small = document.createElement("span");
        small.className = "kb-preview__sub";
        small.textContent = " " + s.sub;
        heading.appendChild(small);
      }
      body.textContent = clip(s.text);
      body.hidden = !s.text || s.text === s.title;
      tip.hidden = false;
      tip.dataset.kind = t.kind;
      place(link);
      describe(link, true);
      return true;
    });
  }

  function close() {
    clearTimeout(openTimer);
    clearTimeout(closeTimer);
    request++;
    if (current && tip) describe(current, false);
    var button = current && current.nextElementSibling;
    if (button && button.classList.contains("kb-preview-btn")) button.setAttribute("aria-expanded", "false");
    current = null;
    if (tip) tip.hidden = true;
  }
  function scheduleClose() {
    clearTimeout(closeTimer);
    closeTimer = setTimeout(close, GRACE);
  }
  function shown(link) {
    return tip && !tip.hidden && current === link;
  }
  function linkOf(el) {
    var a = el && el.closest ? el.closest("a[href]") : null;
    return a && target(a) ? a : null;
  }

  document.addEventListener("pointerdown", function (e) {
    lastPointer = e.pointerType || "mouse";
    var own = current && e.target.closest && e.target.closest(".kb-preview-btn") === current.nextElementSibling;
    if (tip && !tip.hidden && !tip.contains(e.target) && linkOf(e.target) !== current && !own) close();
  }, true);

  document.addEventListener("pointerover", function (e) {
    if (e.pointerType === "touch") return;  // taps are handled on click
    var link = linkOf(e.target);
    if (!link) return;
    if (link === current) { clearTimeout(closeTimer); return; }
    clearTimeout(openTimer);
    openTimer = setTimeout(function () { open(link); }, DELAY);
  });
  document.addEventListener("pointerout", function (e) {
    var link = linkOf(e.target);
    if (!link || link.contains(e.relatedTarget)) return;
    clearTimeout(openTimer);
    if (link === current) scheduleClose();
  });

  document.addEventListener("focusin", function (e) {
    var link = linkOf(e.target);
    if (!link || lastPointer === "touch") return;
    var visible = true;
    try { visible = link.matches(":focus-visible"); } catch (err) { visible = true; }
    if (visible) { clearTimeout(openTimer); open(link); }
  });
  document.addEventListener("focusout", function (e) {
    if (current && e.target === current) close();
  });

  document.addEventListener("keydown", function (e) {
    lastPointer = "keyboard";
    if ((e.key === "Escape" || e.key === "Esc") && tip && !tip.hidden) close();
  });

  /* The words around a link that a reader already has: its line (list item, paragraph, cell). */
  function context(link) {
    return link.closest("li, p, dd, td, th, blockquote") || link;
  }
  function squash(text) {
    return (text || "").replace(/[\s\p{P}\p{S}]/gu, "");
  }
  /* Whether a summary says more than the link's line already does: a part of it of which the
     line holds less than half (counted in pieces of 8 letters, punctuation and spaces aside). */
  function addsTo(s, link) {
    var have = squash(visibleText(context(link)));
    return [s.title, s.sub, s.text].some(function (part) {
      var letters = squash(part), pieces = 0, held = 0;
      for (var i = 0; i + 8 <= letters.length; i += 8) {
        pieces++;
        if (have.indexOf(letters.slice(i, i + 8)) >= 0) held++;
      }
      return pieces > 0 && held * 2 < pieces;
    });
  }

  /* Touch screens: a preview button after each link whose preview adds to its line (see the top
     of this file).  Decided when the link comes into view: its target is read then (once per
     page, as for a preview), so a page of many links fetches only what the reader scrolls to. */
  function offer(link) {
    var t = target(link);
    if (!t || (here(t.page) && t.kind !== "section")) return;  // a part of this very page
    var line = context(link);
    line.kbOffered = line.kbOffered || {};
    if (line.kbOffered[t.page + "#" + t.hash]) return;  // one button a target in a line
    line.kbOffered[t.page + "#" + t.hash] = true;
    load(t.page).then(function (doc) {
      var s = summary(doc, t);
      if (!s || !addsTo(s, link) || (link.nextElementSibling && link.nextElementSibling.classList.contains("kb-preview-btn"))) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kb-preview-btn";
      button.setAttribute("aria-label", kbWord("previews.button", { link: visibleText(link) }));
      button.setAttribute("aria-expanded", "false");
      button.textContent = "i";
      button.addEventListener("click", function (e) {
        e.preventDefault();
        if (shown(link)) { close(); return; }
        open(link).then(function (ok) {
          if (ok) { button.setAttribute("aria-expanded", "true"); place(button); } // below it, not over it
        });
      });
      link.insertAdjacentElement("afterend", button);
    });
  }
  var offered = false;
  function offerButtons() {
    if (offered) return;
    offered = true;
    var links = Array.prototype.filter.call(document.querySelectorAll("article a[href]"), function (link) {
      return target(link) && !link.closest("table, nav, .kb-prevnext, .kb-glance, h1, h2, h3, h4, h5, h6");
    });
    if (!("IntersectionObserver" in window)) { links.forEach(offer); return; }
    var seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) { seen.unobserve(entry.target); offer(entry.target); }
      });
    }, { rootMargin: "200px 0px" });
    links.forEach(function (link) { seen.observe(link); });
  }
  var coarse = window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)");
  if (coarse && coarse.matches) offerButtons();
  else document.addEventListener("pointerdown", function (e) { if (e.pointerType === "touch") offerButtons(); }, { once: true });

  window.addEventListener("resize", function () { if (current && tip && !tip.hidden) place(current); });
})();
