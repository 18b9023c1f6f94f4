"""Freeze a built site into an edition: the pages people write, as they were that month.

The site has two kinds of pages.  *Dated records* belong to one day or one
paper and never move: ``briefs/<topic>/<YYYY-MM-DD>-<round>/`` and
``papers/<id>/``.  The *indexes* (``briefs/``, ``papers/``, ``backlog/``,
``stats/``) are generated from the records, so their state at any past date can
be rebuilt from the repository's history, and the current stats page already
charts the history; at five years they are also the bulk of a page set (several
MB each).  Both live only in the current site (``latest/``).  Every other HTML
page of the build (the home page, the living documents, the guide) is *frozen*:
copied into the edition as it was.

In a frozen page each relative URL is resolved against the built site and

- kept when it names another frozen page or a file under ``assets/`` (which is
  copied into the edition, so an old edition keeps its look after a theme
  upgrade renames the bundles);
- otherwise (a record, an index, a feed, ``references.bib``, a Pagefind index)
  rewritten to the same path under the current site, ``../…/latest/<path>``.

Search is Pagefind's: the ``pagefind/`` index lives in the current site only and
is never copied; the header search of a frozen page names it in an attribute (the
search form's ``action``), which is rewritten like any other link, so an edition
searches the current site's index and its results open pages of ``latest/``.  Only a
site built with Material's lunr search (``search/search_index.json``, such as an
old whole-site copy made by mike) gets a lunr index of its frozen pages, with the
search worker and the lunr language files it loads.  ``edition.json`` lists the frozen pages
and the records (path and title) the edition was made from; the changes page
between two editions is computed from it.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from kb.messages import t
from kb.render.html import t_html
from kb.render.htmltext import START, TEXT, attribute_spans, attributes, splice, tokens

__all__ = [
    "CURRENT",
    "MANIFEST",
    "CHANGES",
    "edition_policy",
    "site_pages",
    "freeze",
    "Frozen",
    "read_manifest",
]

CURRENT = "latest"  # directory of the current site on gh-pages, beside the editions
MANIFEST = "edition.json"
CHANGES = "changes/index.html"  # the generated page of differences, inside each edition
# A page's own word on what an edition does with it (its page type's, kb.site.pages): "current"
# (computed from every record: left out, the current site's is the one to read) or "record" (a brief's
# or a paper's page: left out and listed in the manifest by title).  Any other page is frozen.
_POLICY = re.compile(rb'<meta name="kb-edition" content="(current|record)">')
_HEAD_END = re.compile(rb"</head>", re.IGNORECASE)
# Sites built before pages said so (whole-site editions mike made): their records and indexes by place.
_LEGACY_CURRENT = ("briefs/", "papers/", "backlog/", "stats/")
_LEGACY_RECORD = re.compile(r"^(?:briefs/[^/]+/\d{4}-\d{2}-\d{2}-[^/]+|papers/[^/]+)/index\.html$")
STATIC_ROOT = "assets/"
SEARCH_INDEX = "search/search_index.json"
_TITLE = re.compile(rb"<title>(.*?)</title>", re.DOTALL)
_LANG = re.compile(r"^[a-z]{2,3}$")  # lunr language codes; anything else could name a path
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")


# Attributes whose value is one URL, and the one whose value is a list of them.
URL_ATTRS = frozenset({"href", "src", "poster", "action", "data", "cite", "formaction", "xlink:href"})
SRCSET = "srcset"


@dataclass(frozen=True)
class Ref:
    """One URL in a page: ``start``/``end`` delimit the attribute value in the page's text
    (``None`` for URLs that are not in an attribute, such as the search worker)."""

    url: str
    start: int | None = None
    end: int | None = None
    srcset: bool = False


@dataclass
class Scan:
    refs: list[Ref] = field(default_factory=list)
    title: str = ""
    article_start: int | None = None  # just after the <article> start tag
    stylesheets: list[str] = field(default_factory=list)


def scan(text: str) -> Scan:
    """What freezing reads from a built page (:mod:`kb.render.htmltext`'s walk): every URL it refers to
    (``href``, ``src``, ``srcset``, … on any tag, and the search worker named in Material's ``__config``
    script) with its place, the page's ``<title>``, where its ``<article>`` starts, its stylesheets."""
    out, config = Scan(), False
    for token in tokens(text, ("article",), URL_ATTRS | {SRCSET}):
        if token.kind == START:
            tag = text[token.start : token.end]
            for name, first, last in attribute_spans(tag):
                if (name in URL_ATTRS or name == SRCSET) and first < last:
                    at = token.start + first
                    out.refs.append(Ref(html.unescape(tag[first:last]), at, at + last - first, name == SRCSET))
            a = attributes(tag)
            config = token.name == "script" and a.get("id") == "__config"
            if token.name == "article" and out.article_start is None:
                out.article_start = token.end
            elif token.name == "link" and a.get("rel", "").lower() == "stylesheet" and a.get("href"):
                out.stylesheets.append(html.unescape(a["href"]))
        elif token.kind == TEXT and token.stack[-1:] == ("title",) and "svg" not in token.stack and not out.title:
            out.title = " ".join(html.unescape(text[token.start : token.end]).split())
        elif token.kind == TEXT and config and token.stack[-1:] == ("script",):
            try:
                worker = json.loads(text[token.start : token.end]).get("search")
            except (ValueError, AttributeError):
                worker = None
            if isinstance(worker, str) and worker:
                out.refs.append(Ref(worker))
    return out


def srcset_urls(value: str) -> list[str]:
    """The URLs of a ``srcset`` value (``a.png 1x, b.png 2x``)."""
    return [part.split()[0] for part in value.split(",") if part.split()]


def rewrite(text: str, replacements: dict[Ref, str], *inserts: tuple[int, str]) -> str:
    """``text`` with each attribute value located by a :class:`Ref` replaced (escaped for its quote)
    and each ``(offset, markup)`` of ``inserts`` inserted, every other byte as it was."""
    edits = [(at, at, markup) for at, markup in inserts]
    edits += [
        (r.start, r.end, html.escape(v, quote=True))
        for r, v in replacements.items()
        if r.start is not None and r.end is not None
    ]
    return splice(text, sorted(edits))


def edition_policy(site: Path, pages: list[str]) -> dict[str, str]:
    """The pages of a built site that are not frozen, each with its policy ("current" or "record")."""
    out = {}
    for page in pages:
        found = _POLICY.search(_head(site / page))
        if found:
            out[page] = found.group(1).decode()
    if out or not any(page.startswith(_LEGACY_CURRENT) for page in pages):
        return out
    return {p: "record" if _LEGACY_RECORD.match(p) else "current" for p in pages if p.startswith(_LEGACY_CURRENT)}


def _head(path: Path) -> bytes:
    """The page up to its ``</head>`` (the whole page if it has none), read a block at a time: the
    policy is in the head, a few KB into pages of tens."""
    out = b""
    with path.open("rb") as f:
        while block := f.read(8192):
            out += block
            end = _HEAD_END.search(out)
            if end:
                return out[: end.start()]
    return out


def site_pages(site: Path) -> list[str]:
    """Every HTML page of a built site (``/``-separated, relative), static files under assets/ excepted."""
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if p.is_file() and not p.relative_to(site).as_posix().startswith(STATIC_ROOT)
    )


def page_url(page: str) -> str:
    """``inference/index.html`` → ``inference/``; ``index.html`` → ``""``."""
    return page[: -len("index.html")] if page.endswith("index.html") else page


def depth(page: str) -> int:
    return page.count("/")


@dataclass
class Frozen:
    edition: str
    pages: list[str]
    records: dict[str, str]  # record URL -> title
    copied: list[str]  # static files copied into the edition
    bytes: int


def _title(path: Path, site_name: str) -> str:
    with path.open("rb") as f:
        m = _TITLE.search(f.read(16384))
    title = " ".join(html.unescape(m.group(1).decode("utf-8", "replace")).split()) if m else ""
    suffix = f" - {site_name}"
    return title[: -len(suffix)] if site_name and title.endswith(suffix) else title


class _Resolver:
    def __init__(self, site: Path, frozen: set[str]):
        self.site, self.frozen = site, frozen
        self.static: set[str] = set()

    def target(self, page: str, url: str) -> tuple[str, str] | None:
        """(file the URL names in the site, its site-relative path as written) or None for URLs left alone."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
            return None
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path)))
        if rel == ".." or rel.startswith("../"):
            return None
        rel = "" if rel == "." else rel
        if rel and (self.site / rel).is_file():
            return rel, rel
        if (self.site / rel / "index.html").is_file():
            return (f"{rel}/index.html" if rel else "index.html"), (f"{rel}/" if rel else "")
        return None  # not in the site: a dangling link stays as it was

    def new_url(self, page: str, url: str) -> str | None:
        """The URL to write instead of ``url`` in a frozen page, or None to keep it."""
        found = self.target(page, url)
        if found is None:
            return None
        file, written = found
        if file in self.frozen:
            return None
        if file.startswith(STATIC_ROOT) and not file.endswith(".html"):
            self.static.add(file)
            return None
        parts = urlsplit(url)
        if parts.path.endswith("index.html") and not written.endswith("index.html"):
            written += "index.html"
        new = "../" * (depth(page) + 1) + f"{CURRENT}/" + quote(written, safe="/")
        return new + (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")


def _banner(edition: str, page: str) -> str:
    up = "../" * depth(page)
    edition = html.escape(edition)
    current = f'<a href="{up}../{CURRENT}/">{html.escape(t("edition.current_site"))}</a>'
    changes = f'<a href="{up}{page_url(CHANGES)}">{html.escape(t("edition.changes_link"))}</a>'
    title = t_html("edition.archived", edition=edition)
    banner = t_html("edition.banner", edition=edition, current=current, changes=changes)
    return f'<div class="admonition info kb-edition"><p class="admonition-title">{title}</p><p>{banner}</p></div>'


def _freeze_page(text: str, sc: Scan, page: str, resolver: _Resolver, edition: str) -> str:
    replacements: dict[Ref, str] = {}
    for ref in sc.refs:
        if ref.srcset:
            urls = srcset_urls(ref.url)
            new_value = ref.url
            for u in urls:
                n = resolver.new_url(page, u)
                if n is not None:
                    new_value = new_value.replace(u, n, 1)
            if new_value != ref.url:
                replacements[ref] = new_value
            continue
        new = resolver.new_url(page, ref.url)
        if new is not None and ref.start is not None:
            replacements[ref] = new
    banner = [] if sc.article_start is None else [(sc.article_start, _banner(edition, page))]
    return rewrite(text, replacements, *banner)


def _css_refs(site: Path, css: str) -> set[str]:
    found = set()
    text = (site / css).read_text("utf-8", "replace")
    for m in _CSS_URL.finditer(text):
        url = m.group(2).strip()
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path or parts.path.startswith("/"):
            continue
        rel = posixpath.normpath(posixpath.join(posixpath.dirname(css), unquote(parts.path)))
        if rel.startswith(STATIC_ROOT) and (site / rel).is_file():
            found.add(rel)
    return found


def _search(site: Path, dest: Path, frozen: set[str], worker: str | None) -> set[str]:
    """A lunr-built site only: write the lunr index of the frozen pages; return the worker and its
    language files to copy.  A Pagefind-built site has no lunr index: nothing to do."""
    source = site / SEARCH_INDEX
    if not source.is_file():
        return set()
    index = json.loads(source.read_text("utf-8"))
    keep = {page_url(p) for p in frozen}
    index["docs"] = [d for d in index.get("docs", []) if str(d.get("location", "")).split("#", 1)[0] in keep]
    target = dest / SEARCH_INDEX
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), "utf-8")
    if worker is None:
        return set()
    files = {worker}
    lunr = posixpath.normpath(posixpath.join(posixpath.dirname(worker), "..", "lunr"))
    langs = [
        lang for lang in (index.get("config", {}).get("lang") or []) if isinstance(lang, str) and _LANG.match(lang)
    ]
    names = {"min/lunr.stemmer.support.min.js"} | ({"min/lunr.multi.min.js"} if len(langs) > 1 else set())
    names |= {f"min/lunr.{lang}.min.js" for lang in langs if lang != "en"}
    names |= {"tinyseg.js"} if "ja" in langs else set()
    names |= {"wordcut.js"} if "th" in langs else set()
    return files | {f"{lunr}/{n}" for n in names if (site / lunr / n).is_file()}


def freeze(site: Path, dest: Path, edition: str, site_name: str | None = None) -> Frozen:
    """Write the edition of ``site`` (a built site, or a whole-site edition made by mike) to ``dest``."""
    pages = site_pages(site)
    policy = edition_policy(site, pages)
    frozen = [p for p in pages if p not in policy and p != "404.html"]
    if CHANGES in frozen:
        raise ValueError(f"the site has a page {page_url(CHANGES)!r}: that path is the edition's changes page")
    if "index.html" not in frozen:
        raise ValueError(f"{site} has no index.html: not a built site")
    if site_name is None:
        site_name = _title(site / "index.html", "")
    resolver = _Resolver(site, set(frozen))
    worker: str | None = None
    for page in frozen:
        text = (site / page).read_text("utf-8")
        sc = scan(text)
        out = _freeze_page(text, sc, page, resolver, edition)
        for ref in sc.refs:
            if ref.start is None:  # the lunr search worker named in __config (copied with a lunr index only)
                found = resolver.target(page, ref.url)
                if found and found[0].startswith(STATIC_ROOT):
                    worker = worker or found[0]
        target = dest / page
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(out, "utf-8")
    static = set(resolver.static)
    for css in sorted(f for f in resolver.static if f.endswith(".css")):
        static |= _css_refs(site, css)
    static |= _search(site, dest, set(frozen), worker)
    for rel in sorted(static):
        if rel != posixpath.normpath(rel) or rel.startswith(("../", "/")) or not rel.startswith(STATIC_ROOT):
            raise ValueError(f"{rel}: a static file outside assets/")
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(site / rel, target)
    records = {page_url(p): _title(site / p, site_name) for p in pages if policy.get(p) == "record"}
    manifest = {"edition": edition, "current": CURRENT, "pages": [page_url(p) for p in frozen], "records": records}
    (dest / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=0, sort_keys=True), "utf-8")
    size = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
    return Frozen(edition, frozen, records, sorted(static), size)


def read_manifest(edition_dir: Path) -> dict[str, Any] | None:
    path = edition_dir / MANIFEST
    if not path.is_file():
        return None
    data = json.loads(path.read_text("utf-8"))
    return data if isinstance(data, dict) else None
