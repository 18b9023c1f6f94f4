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
   - touch: a first tap on such a link opens the preview instead of following the link, and a
     second tap on the same link follows it (the popup says so).  A long-press was not chosen: it
     collides with the browser's own link menu and no one discovers it.  Tapping elsewhere closes
     the popup; if the target cannot be read, the first tap follows the link.
   While the popup is shown, the link's aria-describedby names it (role="tooltip"). */
(function () {
  "use strict";
  var DELAY = 350;      // ms of hovering before the preview opens
  var GRACE = 200;      // ms to move the pointer from the link onto the popup
  var MAX_TEXT = 280;   // characters of summary text
  var cache = new Map();  // page URL (no fragment) -> Promise of a parsed Document, or null
  var tip = null, body = null, heading = null, hint = null;
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
    if (!link || !link.href || link.hasAttribute("download") || link.classList.contains("headerlink")) return null;
    if (!link.closest("article")) return null;
    var url;
    try { url = new URL(link.href, location.href); } catch (e) { return null; }
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
  function textOf(el) {
    if (!el) return "";
    var copy = el.cloneNode(true);
    copy.querySelectorAll(".headerlink, script, style").forEach(function (x) { x.remove(); });
    return clean(copy.textContent);
  }
  function description(doc) {
    var meta = doc.querySelector('meta[name="description"]');
    return meta ? clean(meta.getAttribute("content")) : "";
  }
  function pageTitle(doc) {
    return textOf(doc.querySelector("article h1")) || clean(doc.title);
  }

  /* The summary of a target: {title, text}, or null when there is none. */
  function summary(doc, t) {
    if (!doc) return null;
    if (t.kind === "section") {
      var h = doc.getElementById(t.hash);
      if (!h) return null;
      var para = "";
      for (var n = h.nextElementSibling; n && !/^H[1-6]$/.test(n.tagName); n = n.nextElementSibling) {
        var p = n.matches("p") ? n : n.querySelector("p");
        if (p && textOf(p)) { para = textOf(p); break; }
      }
      var sub = h.querySelector("small");  // a section's English name
      var main = h.cloneNode(true);
      main.querySelectorAll("small").forEach(function (x) { x.remove(); });
      return { title: textOf(main), sub: textOf(sub), text: para };
    }
    var title = pageTitle(doc);
    if (t.kind === "brief") {
      var headline = textOf(doc.querySelector("article .kb-headline"));
      return { title: title, text: headline || description(doc) };
    }
    var desc = description(doc);
    return { title: title, text: desc || textOf(doc.querySelector("article p")) };
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
    hint = document.createElement("p");
    hint.className = "kb-preview__hint";
    hint.textContent = kbWord("previews.again");
    tip.appendChild(heading);
    tip.appendChild(body);
    tip.appendChild(hint);
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
  function open(link, touch) {
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
      hint.hidden = !touch;
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
    if (tip && !tip.hidden && !tip.contains(e.target) && linkOf(e.target) !== current) close();
  }, true);

  document.addEventListener("pointerover", function (e) {
    if (e.pointerType === "touch") return;  // taps are handled on click
    var link = linkOf(e.target);
    if (!link) return;
    if (link === current) { clearTimeout(closeTimer); return; }
    clearTimeout(openTimer);
    openTimer = setTimeout(function () { open(link, false); }, DELAY);
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
    if (visible) { clearTimeout(openTimer); open(link, false); }
  });
  document.addEventListener("focusout", function (e) {
    if (current && e.target === current) close();
  });

  document.addEventListener("keydown", function (e) {
    lastPointer = "keyboard";
    if ((e.key === "Escape" || e.key === "Esc") && tip && !tip.hidden) close();
  });

  document.addEventListener("click", function (e) {
    if (lastPointer !== "touch" || e.defaultPrevented || e.button !== 0) return;
    var link = linkOf(e.target);
    if (!link || shown(link)) return;  // the second tap follows the link
    e.preventDefault();
    var href = link.href;
    open(link, true).then(function (ok) { if (!ok) location.href = href; });
  });

  window.addEventListener("resize", function () { if (current && tip && !tip.hidden) place(current); });
})();
