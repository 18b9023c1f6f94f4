"""What MkDocs learns from a page's Markdown, learnt from a generated page's HTML instead.

Generated pages and macro output are HTML made by :mod:`kb.render.html` and reach
the page after MkDocs' Markdown step (:mod:`kb.site.plugin`).  Markdown would have
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
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TypedDict
from urllib.parse import unquote, urlsplit

from kb.render.html import attr

_HEADING = re.compile(r'<h([1-6]) id="([^"]*)"([^>]*)>(.*?)</h\1>', re.S)
_TOC_LABEL = re.compile(r'\sdata-toc-label="([^"]*)"')  # a heading's name in the table of contents
_HEADERLINK = re.compile(r'<a class="headerlink"[^>]*>.*?</a>', re.S)
_TAG = re.compile(r"<[^>]*>")
_SPACE = " \t\n\r\f"  # what separates a tag's attributes (HTML's ASCII whitespace)
_HREF = re.compile(r'(<a\s[^>]*?\bhref=")([^"]*)(")')


class TocToken(TypedDict):
    """One heading, in the shape of the toc extension's tokens (what ``get_toc`` reads)."""

    level: int
    id: str
    name: str  # the heading's text, as HTML (entities kept, tags and permalink dropped)
    children: list[TocToken]


def _text(inner: str) -> str:
    return " ".join(_TAG.sub("", _HEADERLINK.sub("", inner)).split())


def _toc_name(m: re.Match[str]) -> str:
    """A heading's name in the table of contents: its ``data-toc-label`` (as the toc extension reads
    it) when it has one, else its text."""
    label = _TOC_LABEL.search(m.group(3))
    return " ".join(label.group(1).split()) if label else _text(m.group(4))


_DETAILS = re.compile(r"<(/?)details\b", re.IGNORECASE)


def outer_spans(tags: re.Pattern[str], page_html: str) -> list[tuple[int, int]]:
    """Where the outermost elements ``tags`` finds are: (start of the opening tag, start of its
    closing tag), an element left open running to the end.  ``tags`` matches an opening or closing
    tag of them, its first group ``/`` for a closing one."""
    spans: list[tuple[int, int]] = []
    depth = start = 0
    for m in tags.finditer(page_html):
        if not m.group(1):
            start = m.start() if depth == 0 else start
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, m.start()))
    if depth:
        spans.append((start, len(page_html)))
    return spans


def toc_tokens(page_html: str) -> list[TocToken]:
    """Every heading with an id, nested by level, but those inside a folded block (``<details>``:
    process detail such as a brief's sources, which would open the table of contents)."""
    root: list[TocToken] = []
    stack: list[TocToken] = []
    folded = outer_spans(_DETAILS, page_html)  # what a reader sees only after opening it
    for m in _HEADING.finditer(page_html):
        if any(a <= m.start() < b for a, b in folded):
            continue
        token: TocToken = {
            "level": int(m.group(1)),
            "id": html.unescape(m.group(2)),
            "name": _toc_name(m),
            "children": [],
        }
        while stack and stack[-1]["level"] >= token["level"]:
            stack.pop()
        (stack[-1]["children"] if stack else root).append(token)
        stack.append(token)
    return root


def title(page_html: str) -> str | None:
    """The text of the first ``<h1>`` (as HTML: entities kept), or None."""
    m = next((m for m in _HEADING.finditer(page_html) if m.group(1) == "1"), None)
    return _text(m.group(4)) if m else None


def anchor_ids(page_html: str) -> set[str]:
    """The ids a link's ``#fragment`` can point at (elements' ids and ``<a name>``)."""
    ids = {html.unescape(v) for _tag, v in _attributes(page_html, "id")}
    return ids | {html.unescape(v) for tag, v in _attributes(page_html, "name") if tag == "a"}


def _attributes(page_html: str, name: str) -> Iterator[tuple[str, str]]:
    """``(tag name, value)`` of the first ``name="value"`` written in each tag (after a space, so
    not ``data-name``).  A place is in a tag when a ``<`` and a letter stand between it and the
    ``>`` before it (text's ``<`` is escaped, and so is a ``"`` in an attribute's value).  The
    places are found with ``str.find``: a regular expression that reads every tag for one is
    twice as slow."""
    text = page_html
    first: dict[int, tuple[str, str]] = {}  # the tag (the ">" before it) -> (its name, the value)
    needle = f'{name}="'
    at = text.find(needle, 1)
    while at >= 0:
        start, at = at + len(needle), at - 1
        end = text.find('"', start)
        if end < 0:
            break
        after = start  # where the next place is looked for: within a value taken, none is
        if text[at] in _SPACE:
            gt = text.rfind(">", 0, at)
            lt = text.find("<", gt + 1, at)
            while lt >= 0 and not (text[lt + 1].isascii() and text[lt + 1].isalpha()):
                lt = text.find("<", lt + 1, at)
            if lt >= 0 and gt not in first:
                stop = lt + 1
                while stop < at and text[stop] not in _SPACE:
                    stop += 1
                first[gt] = (text[lt + 1 : stop], text[start:end])
                after = end + 1
        at = text.find(needle, after)
    yield from first.values()


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
