/* The header search's results (assets/kb-search.js runs the search; this script makes what it
 * shows): a Pagefind result in Material's result markup, the page (title, type, date, topic,
 * excerpt with the words marked) and its best sections, each linking to the page with the words to
 * mark on it; and the query as Pagefind is given it (an arXiv id typed is the one word the index
 * holds for it).  Text from the index is put into the page as text, never as markup.
 * Loaded before kb-search.js (both deferred: in order), as window.kbSearchResults. */
(function () {
  "use strict";

  var PARAM = "highlight"; // a result's address: ?highlight=<word> for each word to mark on the page
  var ID_WORD = "arxiv"; // the index word of an arXiv id begins with it (kb.site.search.words.PREFIX)
  var AN_ID_WORD = ID_WORD + "(?:\\d{8,9}|[a-z]+\\d{7})"; // ... and goes on with 8-9 digits, or an archive's letters and 7
  var SECTIONS = 3; // sections shown under a page

  /* Pagefind's excerpts are escaped text with <mark> around the matches: rebuilt as text nodes.
   * The index's own words for arXiv ids (idWord) are left out of excerpts and titles (unword), and
   * the ids searched for are marked where the excerpt writes them. */
  function decode(text) {
    var area = document.createElement("textarea");
    area.innerHTML = text; // RCDATA: entities are decoded, no element is created
    return area.value;
  }
  var TERM_WORD = "kbsyn"; // the index word of a term with other names (kb.site.search.words.TERM_PREFIX)
  // (with the spaces around it: Pagefind's text puts a zero-width space before each word)
  var ID_WORDS = new RegExp(
    "[\\s\\u200b]*(?:<mark>)?(?:" + AN_ID_WORD + "|" + TERM_WORD + "[0-9a-z]+)(?:</mark>)?[\\s\\u200b]*(?=(?:</?mark>)*(.?))",
    "g"
  );
  var CLOSING = /[\u3000-\u303f\uff01-\uff0f\uff1a-\uff20),.;:!?\]]/; // punctuation that needs no space before it
  var SPACED = /[\s\u200b](?:<\/?mark>)*$/; // what goes before the word ends with a space (a mark's too)
  // Chinese text between which the word stood (长上下文<word>推理): written with no space (kb.data.cjk)
  var HAN_CHARS = "[\\u3400-\\u9fff\\uf900-\\ufaff\\u3000-\\u303f\\uff01-\\uff60]";
  var HAN = new RegExp(HAN_CHARS);
  var HAN_BEFORE = new RegExp(HAN_CHARS + "(?:</?mark>)*$");  // marks Pagefind put around it
  function unword(text) {
    return text.replace(ID_WORDS, function (m, next, at, whole) {
      var before = whole.slice(Math.max(0, at - 16), at);
      if (!next || CLOSING.test(next) || SPACED.test(before)) return "";
      return HAN.test(next) && HAN_BEFORE.test(before) ? "" : " ";
    });
  }
  function excerpt(html, asked, split, content) {
    var p = document.createElement("p");
    unword(html).split(/(<mark>|<\/mark>)/).reduce(function (marked, part) {
      if (part === "<mark>") return true;
      if (part === "</mark>") return false;
      if (part) {
        var text = decode(part);
        if (marked) {
          var space = /\s+$/.exec(text); // Pagefind marks the space after a word too: not underlined
          p.appendChild(el("mark", null, space ? text.slice(0, space.index) : text));
          if (space) p.appendChild(document.createTextNode(space[0]));
        } else {
          markIds(p, text, asked.ids);
        }
      }
      return marked;
    }, false);
    if (split) unmarkLone(p, split);
    if (content) cut(p, content);
    return p;
  }
  /* An excerpt that starts or ends inside a sentence of the page's text says so with an ellipsis
   * (where the excerpt is found in the text, as the excerpt shows it: without the ids' index
   * words: item makes it once for a result). */
  var ENDS = /(?:[\u3002\uff01\uff1f\uff1b\uff1a]|[.!?;:]\s)\s*$/; // after a full stop, ! ? ; or : (Chinese or not)
  /* Pagefind starts and ends an excerpt at words of its own, which may be parts of an id or a
   * number (".20359" of arXiv:2608.20359, "Qwen3." of Qwen3.5): such an excerpt starts where the id
   * or the number does and ends where it ends, as the text writes it. */
  var INSIDE = /^[0-9A-Za-z.%]/, HEAD = /(?:arXiv:\s?)?(?:[-+]?[0-9A-Za-z][0-9A-Za-z./-]*|[-+])$/; // (a sign too: -24.1%)
  var OPEN = /[0-9A-Za-z.]$/, TAIL = /^[0-9A-Za-z./%-]*[0-9A-Za-z%]/;
  function cut(p, content) {
    var text = p.textContent, at = text ? content.indexOf(text) : -1;
    if (at < 0) return;
    var end = at + text.length;
    var head = at > 0 && INSIDE.test(text) ? HEAD.exec(content.slice(Math.max(0, at - 40), at)) : null;
    if (head) {
      p.insertBefore(document.createTextNode(head[0]), p.firstChild);
      at -= head[0].length;
    }
    var tail = OPEN.test(text) ? TAIL.exec(content.slice(end, end + 40)) : null;
    if (tail) {
      p.appendChild(document.createTextNode(tail[0]));
      end += tail[0].length;
    }
    if (at > 0 && !ENDS.test(content.slice(Math.max(0, at - 3), at))) p.insertBefore(document.createTextNode("…"), p.firstChild);
    if (end < content.length && !ENDS.test(p.textContent)) p.appendChild(document.createTextNode("…"));
  }
  /* Pagefind cuts a Chinese word of three characters or more into shorter words (自投机: 自 and
   * 投机) and marks each wherever it stands, a lone character also as the start of any word (自动,
   * 自己).  Those are not what was asked for: a mark found only by such a character is left
   * unmarked unless it stands beside another mark (自 of 自投机). */
  var CJK = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/;
  var CJK_RUNS = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}/g;
  var LONE = /^[a-z0-9]$/i; // a letter or digit alone: a word Pagefind made of a longer one typed (address)
  /* Pagefind's words for a result (its address's marks): those that are lone characters of a
   * Chinese word typed, and the others; null when there is none of the first. */
  function splitWords(url, asked) {
    if (!asked.runs.length) return null;
    var all = new URL(url, window.location.href).searchParams.getAll(PARAM);
    var lone = all.filter(function (w) {
      return w.length === 1 && CJK.test(w) && asked.runs.some(function (r) { return r.indexOf(w) >= 0; });
    });
    return lone.length ? { lone: lone, all: all } : null;
  }
  function unmarkLone(p, split) {
    Array.prototype.slice.call(p.querySelectorAll("mark")).forEach(function (m) {
      var text = m.textContent, before = m.previousSibling, after = m.nextSibling;
      if ((before && before.nodeName === "MARK") || (after && after.nodeName === "MARK")) return;
      var found = split.all.filter(function (w) { return text.toLowerCase().indexOf(w.toLowerCase()) >= 0; });
      if (found.length && found.every(function (w) { return split.lone.indexOf(w) >= 0; })) {
        m.replaceWith(document.createTextNode(text));
      }
    });
    p.normalize();
  }
  function markIds(p, text, ids) {
    var found = ids ? text.split(ids) : [text];
    found.forEach(function (piece, i) {
      if (!piece) return;
      p.appendChild(i % 2 ? el("mark", null, piece) : document.createTextNode(piece));
    });
  }
  function escapeRe(text) {
    return text.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&");
  }
  /* A result's address opens the page with its words marked: an id's index word is not on the
   * page, so the id is marked as written. */
  function address(url, asked, split) {
    var words = asked.words;
    url = url.replace(new RegExp("([?&]" + PARAM + "=)(" + AN_ID_WORD + "|" + TERM_WORD + "[0-9a-z]+)(?=&|#|$)", "g"), function (m, key, w) {
      return words[w] ? key + encodeURIComponent(words[w]) : m;
    });
    /* ... and a lone character of a Chinese word typed (split: splitWords) is not marked on the
     * page either: the word is; nor is a lone letter or digit (Pagefind makes P and D of P/D words
     * of their own, and the page would mark every P and D in it): the word typed that holds it is */
    var u = new URL(url, window.location.href);
    var all = u.searchParams.getAll(PARAM);
    var holds = function (t, w) { return t.toLowerCase().indexOf(w.toLowerCase()) >= 0; };
    var lone = all.filter(function (w) {
      return LONE.test(w) && asked.typed.some(function (t) { return holds(t, w); });
    });
    if (!split && !lone.length) return url;
    var kept = all.filter(function (w) {
      return !(split && split.lone.indexOf(w) >= 0) && lone.indexOf(w) < 0; // (the ids as written, from above)
    });
    var typed = asked.typed.filter(function (t) {
      return lone.some(function (w) { return holds(t, w); });
    });
    u.searchParams.delete(PARAM);
    kept.concat(split ? asked.runs : [], typed).forEach(function (w) {
      if (u.searchParams.getAll(PARAM).indexOf(w) < 0) u.searchParams.append(PARAM, w);
    });
    return u.pathname + u.search + u.hash;
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  /* Whether an excerpt only repeats words shown above it in the result (a section's title, or
   * another excerpt): a brief's increment is found in its heading, which the excerpts quote again. */
  function squash(text) {
    return text.replace(/\u2026/g, "").replace(/\s+/g, "");
  }
  function repeats(p, shown) {
    var text = squash(p.textContent);
    return !!text && shown.some(function (other) { return squash(other).indexOf(text) >= 0; });
  }
  /* Whether excerpt ``p`` quotes the passage excerpt ``q`` opens with (the page's excerpt and a
   * section's, cut from the same text at different starts). */
  function passage(p, q) {
    var start = squash(q.textContent).slice(0, 12);
    return start.length >= 8 && squash(p.textContent).indexOf(start) >= 0;
  }
  /* ``p`` (a section's excerpt) without the part of the section's ``title`` it opens with: Pagefind
   * starts a section's text at its heading, so the excerpt began with the title shown above it (or
   * its end, when cut before: "…(2) 推理调度 Scheduling and serving. 批处理…"), and the full stop the
   * index puts after a heading; whether anything is left of it. */
  function dropTitle(p, title) {
    var text = squash(p.textContent), name = squash(title), k = Math.min(name.length, text.length);
    if (!name) return true;
    // the title, whole or its end (cut inside it), closed by the full stop the index puts after a
    // heading: a text may open with the words its title ends with ("KV Cache ..." under "KV Cache")
    while (k > 0 && (name.slice(name.length - k) !== text.slice(0, k) || !CLOSE.test(text.charAt(k)))) k--;
    if (k < Math.min(name.length, 3)) return true;
    var walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT), node, gone = [], rest = k, done = false;
    while (!done && (node = walk.nextNode())) {
      var v = node.nodeValue, i = 0;
      for (; i < v.length; i++) {
        if (rest > 0) {
          if (!SKIPPED.test(v[i])) rest--;
        } else if (!AFTER.test(v[i])) {
          done = true;
          break;
        }
      }
      node.nodeValue = v.slice(i);
      if (!node.nodeValue) gone.push(node);
    }
    gone.forEach(function (n) {
      var parent = n.parentNode;
      parent.removeChild(n);
      if (parent !== p && !parent.textContent) parent.parentNode.removeChild(parent);
    });
    return !!squash(p.textContent);
  }
  var SKIPPED = /[\s\u2026]/, AFTER = /[\s\u2026.\uff0e\u3002:\uff1a]/; // not counted in a title; what may follow one
  var CLOSE = /[.\uff0e\u3002:\uff1a]/; // what closes a heading in the index's text
  /* ``h`` holding ``text`` with the words ``p`` (an excerpt) marks, marked where the text has them */
  function marked(h, text, p) {
    var words = Array.prototype.map.call(p.querySelectorAll("mark"), function (m) { return m.textContent; })
      .filter(function (w) { return w.trim() && !LONE.test(w.trim()); }); // a lone letter: every one of them
    var found = words.length ? new RegExp("(" + words.map(escapeRe).join("|") + ")", "i") : null;
    (found ? text.split(found) : [text]).forEach(function (piece, i) {
      if (piece) h.appendChild(i % 2 ? el("mark", null, piece) : document.createTextNode(piece));
    });
    return h;
  }
  /* A paper's BibTeX key is a word of its page (a key copied from a .bib file finds it), and the
   * start of the paper's name (retroinfer2025vector): its section is shown for the key typed whole
   * (as copied, "{key," too). */
  function keyAsked(s, asked) {
    if (!/#bibtex$/.test(s.url)) return true;
    return Array.prototype.some.call(s._excerpt.querySelectorAll("mark"), function (m) {
      return asked.typed.some(function (t) { return bare(t) === bare(m.textContent); });
    });
  }
  function sections(data, asked, plain) {
    var subs = (data.sub_results || []).filter(function (s) {
      if (s.url.indexOf("#") < 0 || !s.title || s.title === data.meta.title) return false;
      s._split = splitWords(s.url, asked);
      s._excerpt = excerpt(s.excerpt || "", asked, s._split, plain);
      if (!keyAsked(s, asked)) return false;
      return !s._split || s._excerpt.querySelector("mark") !== null; // not one found only by a lone character
    });
    subs.forEach(function (s, i) {
      s._score = (s.weighted_locations || []).reduce(function (sum, w) {
        return sum + (w.balanced_score || w.weight || 0);
      }, 0);
      s._order = i;
    });
    return subs
      .sort(function (a, b) {
        return b._score - a._score || a._order - b._order;
      })
      .slice(0, SECTIONS);
  }

  function item(data, asked) {
    var li = el("li", "md-search-result__item");
    var link = el("a", "md-search-result__link");
    var split = splitWords(data.url, asked);
    link.href = address(data.url, asked, split);
    link.tabIndex = -1;
    var doc = el("article", "md-search-result__article md-search-result__article--document md-typeset");
    doc.appendChild(el("div", "md-search-result__icon md-icon"));
    doc.appendChild(el("h1", null, unword(data.meta.title || data.url)));
    var facts = el("nav", "kb-search__facts");
    if (data.meta.type) facts.appendChild(el("span", "kb-search__type", data.meta.type));
    [data.meta.when || data.meta.date, data.meta.topic].forEach(function (v) {
      if (v) facts.appendChild(el("span", null, v));
    });
    doc.appendChild(facts);
    var plain = data.content ? unword(data.content) : ""; // the page's text as excerpts show it
    var best = sections(data, asked, plain);
    /* each section under its title, marked with the words its excerpt marks; the excerpt without
     * the title it opens with, or none when that is all it says */
    best.forEach(function (s) {
      s._title = marked(el("h2"), unword(s.title), s._excerpt);
      // alone: the excerpt says nothing the title does not (dropTitle: false when nothing is left)
      s._alone = repeats(s._excerpt, [s._title.textContent]) || !dropTitle(s._excerpt, s._title.textContent);
    });
    /* the page's excerpt once: not again under a section that quotes the same words (or the same
     * passage, from another start), nor what a section's title says whole */
    var above = best.map(function (s) { return s._title.textContent; });
    var quoted = best.filter(function (s) { return !s._alone; }).map(function (s) { return s._excerpt; });
    var own = excerpt(data.excerpt || "", asked, split, plain);
    if (!best.some(function (s) { return s.excerpt === data.excerpt; }) &&
        !repeats(own, above.concat(quoted.map(function (q) { return q.textContent; }))) &&
        !quoted.some(function (q) { return passage(own, q); })) {
      doc.appendChild(own);
    }
    link.appendChild(doc);
    li.appendChild(link);
    best.forEach(function (s) {
      var sub = el("a", "md-search-result__link");
      sub.href = address(s.url, asked, s._split);
      sub.tabIndex = -1;
      var art = el("article", "md-search-result__article md-typeset");
      art.appendChild(s._title);
      if (!s._alone) art.appendChild(s._excerpt);
      sub.appendChild(art);
      li.appendChild(sub);
    });
    return li;
  }

  /* An arXiv id typed into the box is searched as the one word the index holds for it beside its
   * parts (kb.site.search.words: 2512.08093 -> arxiv251208093, hep-th/9901001 -> arxivhepth9901001,
   * math.GT/0309136 -> arxivmath0309136, any version): one index chunk, where its parts are each
   * shared with many ids (the month's with every id of that month) and cost two or three. */
  var ARXIV = /(?:\barxiv:\s*)?\b(\d{4}\.\d{4,5})(v\d+)?\b|(?:\barxiv:\s*)?\b([a-z-]+)(\.[A-Z]{2})?\/(\d{7})(v\d+)?\b/gi;
  function idWord(id) {
    return ID_WORD + bare(id);
  }
  function bare(text) {
    return text.toLowerCase().replace(/[^0-9a-z]/g, "");
  }
  /* The query Pagefind is given, the index words it holds for ids with each id as written, and a
   * pattern (one capturing group) that finds those ids in an excerpt (null: the query has none). */
  /* A term with other names (the message catalogue's SYNONYMS: KV 缓存 / KV Cache, 英伟达 / NVIDIA)
   * is searched for as its index word, which every page that writes any of its names holds where it
   * writes it (kb.site.search.words): one query finds them all, ranked as the names rank them; the
   * name as typed is what results and pages mark. */
  var SYNONYMS = (window.kbWords && window.kbWords("search.synonyms")) || [];
  function termWord(group) {
    return TERM_WORD + group[0].toLowerCase().replace(/[^0-9a-z]/g, "");
  }
  function escapeName(name) { // as kb.site.search.words finds it: a space optional, Latin words whole
    var body = name.split(/\s+/).map(escapeRe).join("\\s*");
    return (/^[0-9A-Za-z]/.test(name) ? "(?<![0-9A-Za-z])" : "") + body + (/[0-9A-Za-z]$/.test(name) ? "(?![0-9A-Za-z])" : "");
  }
  var NAMES = SYNONYMS.length
    ? new RegExp(SYNONYMS.map(function (group) {
        return "(" + group.map(escapeName).sort(function (a, b) { return b.length - a.length; }).join("|") + ")";
      }).join("|"), "gi")
    : null;
  function terms(query) {
    var words = {};
    var text = query.replace(ARXIV, function (m, fresh, v1, archive, subject, old) {
      var w = idWord(fresh || archive + old);
      words[w] = fresh || archive + (subject || "") + "/" + old;
      return w;
    });
    if (NAMES) {
      text = text.replace(NAMES, function (m) {
        for (var g = 0; g < SYNONYMS.length; g++) {
          if (arguments[g + 1] === undefined) continue;
          var w = termWord(SYNONYMS[g]);
          words[w] = m.trim(); // the page is marked with the name as typed (address), excerpts too (ids)
          return " " + w + " ";
        }
        return m;
      }).replace(/\s+/g, " ").trim();
    }
    var written = Object.keys(words).map(function (w) {
      return escapeRe(words[w]);
    });
    return {
      text: text,
      words: words,
      ids: written.length ? new RegExp("(" + written.join("|") + ")", "i") : null,
      runs: query.match(CJK_RUNS) || [], // the Chinese words typed (unmarkLone, address)
      typed: query.split(/\s+/).filter(function (t) { return t.length > 1; }), // the words typed (address)
    };
  }

  window.kbSearchResults = { item: item, terms: terms, el: el, PARAM: PARAM, TERM_WORD: TERM_WORD };
})();
