"""What MkDocs learns from a page's Markdown, learnt from a generated page's HTML instead.

Generated pages and macro output are HTML made by :mod:`kb.render.html` and take
their place after MkDocs' Markdown step (:mod:`kb.site.plugin`).  Markdown would have
given MkDocs the page's title, its table of contents, the anchors it contains and
its links resolved to built URLs; this module reads the same from the HTML, whose
shape the builder fixes (``<hN id="…">…<a class="headerlink" …>¶</a></hN>``,
``<a href="…">``).  Pure: the link resolver is passed in.
"""

from __future__ import annotations

import functools
import html
import posixpath
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict
from urllib.parse import unquote, urlsplit

from kb.render import htmltext
from kb.render.html import attr

_HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
_TAG = re.compile(r"<[^>]*>")
_HREF = re.compile(r'(<a\s[^>]*?\bhref=")([^"]*)(")')
_BLOCK = re.compile(r"\s*<(h[1-6]|p|div|ul|ol|table|details|section|pre|figure|nav|blockquote|hr)[\s>]", re.IGNORECASE)
_LEVELS = {f"h{n}": n for n in range(1, 7)}
# Where a tag may hold an anchor (its attributes are then read): an attribute id or name
_ANCHOR = re.compile(r"""[\s/"'](?:id|name)\s*+=""", re.IGNORECASE)


class TocToken(TypedDict):
    """One heading, in the shape of the toc extension's tokens (what ``get_toc`` reads)."""

    level: int
    id: str
    name: str  # the heading's text, as HTML (entities kept, tags and permalink dropped)
    children: list[TocToken]


def _text(inner: str) -> str:
    return " ".join(_TAG.sub("", _HEADERLINK.sub("", inner)).split())


class Outline:
    """What a walk of a page (:func:`kb.render.htmltext.edit`, :meth:`read` its reader) finds of
    its outline: the ids a link's ``#fragment`` can point at (elements' ids and ``<a name>``),
    the headings with an id, and the first ``<h1>``'s text (as HTML: entities kept)."""

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.title: str | None = None
        self._headings: list[tuple[int, str, str]] = []  # (level, id, name) outside <details>
        self._open: tuple[htmltext.Token, dict[str, str]] | None = None  # a heading with an id

    NAMES = frozenset({"details", *_LEVELS})  # the elements whose tags it reads
    ATTRS = ("id", "name")  # and the tags holding these

    def read(self, page: str, token: htmltext.Token) -> tuple[()]:
        if token.kind == htmltext.START:
            self._start(page, token)
        elif token.kind == htmltext.END and self._open is not None and token.name == self._open[0].name:
            self._heading(page, token)
        return ()

    def _start(self, page: str, token: htmltext.Token) -> None:
        if not _ANCHOR.search(page, token.start, token.end):
            return
        attrs = htmltext.attributes(page[token.start : token.end])
        found = [attrs.get("id"), attrs.get("name") if token.name == "a" else None]
        self.ids.update(html.unescape(v) for v in found if v is not None)
        if token.name in _LEVELS and "id" in attrs and self._open is None:
            self._open = token, attrs

    def _heading(self, page: str, end: htmltext.Token) -> None:
        """A heading ends: its name in the table of contents is its ``data-toc-label`` (as the toc
        extension reads it) when it has one, else its text; one inside a folded block
        (``<details>``: process detail such as a brief's sources) is not in the table of contents."""
        start, attrs = self._open or (end, {})
        self._open = None
        text = _text(page[start.end : end.start])
        if start.name == "h1" and self.title is None:
            self.title = text
        label = attrs.get("data-toc-label")
        if "details" not in start.stack:
            name = " ".join(label.split()) if label is not None else text
            self._headings.append((_LEVELS[start.name], html.unescape(attrs["id"]), name))

    def toc(self) -> list[TocToken]:
        """The headings nested by level."""
        root: list[TocToken] = []
        stack: list[TocToken] = []
        for level, ident, name in self._headings:
            token: TocToken = {"level": level, "id": ident, "name": name, "children": []}
            while stack and stack[-1]["level"] >= token["level"]:
                stack.pop()
            (stack[-1]["children"] if stack else root).append(token)
            stack.append(token)
        return root


def outline(page_html: str) -> Outline:
    """The outline of a page (:class:`Outline`), walked on its own."""
    found = Outline()
    htmltext.edit(page_html, [found.read], Outline.NAMES, Outline.ATTRS)
    return found


def resolve_links(page_html: str, resolve: Callable[[str], str | None], done: dict[str, str] | None = None) -> str:
    """Every ``<a href>`` replaced by ``resolve(href)`` (the href unescaped; the result escaped back);
    where it is None (a missing target), the href itself (unescaped and escaped back).  A link
    written again is not resolved again, unless its target is missing (each place is said):
    ``done`` holds the links resolved so far (share it across the parts of one page)."""
    done = {} if done is None else done

    def one(m: re.Match[str]) -> str:
        written = m.group(2)
        out = done.get(written)
        if out is None:
            href = html.unescape(written)
            resolved = resolve(href)
            out = attr(href if resolved is None else resolved)
            if resolved is not None:
                done[written] = out
        return m.group(1) + out + m.group(3)

    return _HREF.sub(one, page_html)


@dataclass
class Links:
    """What resolving a page's links found: the anchors it links to, by target page, and the links
    whose page does not exist."""

    anchors: dict[str, dict[str, str]] = field(default_factory=dict)  # target src -> {anchor: link}
    missing: list[tuple[str, str]] = field(default_factory=list)  # (link as written, target src)
    targets: set[str] = field(default_factory=set)  # the pages (source paths) links point at, missing or not


def _parts(url: str) -> list[str]:
    out: list[str] = []
    for part in url.split("/"):
        if part == "..":
            if out:
                out.pop()
        elif part and part != ".":
            out.append(part)
    return out


def relative_url(url: str, other: str) -> str:
    """``url`` relative to the page at ``other`` (site-relative, as MkDocs' ``get_relative_url``)."""
    return _relative(_folder(other), url)


def _folder(url: str) -> list[str]:
    """The parts of the folder a page at ``url`` is in (``a/b/``: a/b; ``a/b.html``: a)."""
    folder, _, name = url.rpartition("/")
    return _parts(folder if "." in name else url)


def _relative(base: list[str], url: str) -> str:
    """``url`` relative to the folder whose parts are ``base``."""
    dest = _parts(url)
    common = 0
    for x, y in zip(base, dest, strict=False):
        if x != y:
            break
        common += 1
    rel = "/".join([".."] * (len(base) - common) + dest[common:]) or "."
    return rel + "/" if url.endswith("/") else rel


def resolver(page_src: str, page_url: str, urls: Mapping[str, str], found: Links) -> Callable[[str], str | None]:
    """Resolve a link written from the page ``page_src`` (at ``page_url``) to a page's source
    (``../papers/x.md#notes``) into the built URL, as MkDocs does for a Markdown link; ``urls`` is
    every file's URL by source path.  External links and bare ``#anchors`` stay as they are; anchors
    and missing targets are recorded in ``found`` (a missing one: None)."""
    folder = posixpath.dirname(page_src)
    base = _folder(page_url)  # relative_url's, once for the page

    def resolve(href: str) -> str | None:
        """The URL, or None for a missing target (recorded, and again at each occurrence)."""
        if href.startswith("#"):  # an anchor on this page (every heading's permalink)
            if len(href) > 1:
                found.anchors.setdefault(page_src, {}).setdefault(href[1:], href)
            return href
        if href.startswith(("https://", "http://")):  # most links that are not to a page (arXiv's)
            return href
        if "?" in href or ":" in href.partition("#")[0] or href.startswith("//"):
            scheme, netloc, path, query, anchor = urlsplit(href)
            if scheme or netloc:
                return href
        else:
            path, _, anchor = href.partition("#")
            query = ""
        target = _target(folder, path)
        found.targets.add(target)
        url = urls.get(target)
        if url is None:
            found.missing.append((href, target))
            return None
        if anchor:
            found.anchors.setdefault(target, {}).setdefault(anchor, href)
        rel = _relative(base, url)
        return rel + ("?" + query if query else "") + ("#" + anchor if anchor else "")  # urlunsplit's, no host

    return resolve


@functools.lru_cache(maxsize=4096)
def _target(folder: str, path: str) -> str:
    """The source path a link's ``path`` written in ``folder`` names (pages of one folder share them)."""
    return posixpath.normpath(posixpath.join(folder, unquote(path)))
