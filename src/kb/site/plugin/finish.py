"""What MkDocs learns of a page whose HTML the kb plugin made (part of the MkDocs adapter).

Generated pages and macro output are HTML the kb plugin makes; it does not go through
Python-Markdown.  What MkDocs learns of a page from its Markdown, its table of contents and the
anchors it holds, the plugin reads from that HTML (:mod:`kb.site.pages.htmlpage`) or takes from
the render cache (:class:`kb.site.pages.rendercache.Finished`), and tells MkDocs in the Markdown
that ``on_page_markdown`` hands back: a :func:`skeleton` of headings and ids, which MkDocs converts
as any Markdown and learns from as from any page; the plugin then puts the page's HTML in the
skeleton's place (``on_page_content``).  Nothing of MkDocs' page is set from outside.  The links
the plugin made are the plugin's to check: :func:`unfound` finds those whose anchor is not on
the page they point at, as MkDocs does for the links written in Markdown.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from typing import TYPE_CHECKING
from urllib.parse import unquote

from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from kb.data import arxiv_id
from kb.knowledge.index import paper_page
from kb.site.pages.htmlpage import Links, Outline, TocToken
from kb.site.pages.rendercache import Finished

__all__ = ["Finished", "arxiv_target", "fragments", "read", "skeleton", "titles", "unfound"]

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase

_INLINE = re.compile(r'[\\`*_\[\]!<>{}"|]')  # what Markdown's inline patterns or attr_list would read
_FRAGMENT = re.compile(r"#([^\s#()\[\]<>\"'`]+)")  # what may follow a '#' in a link's address
_ID = re.compile(r"[^\s\"'{}&<>#.=]+")  # an id attr_list takes as written (#id)


def skeleton(finished: Finished, linked: Set[str] | None = None) -> str:
    """Markdown that gives MkDocs the table of contents and the anchors of ``finished``: each heading
    in the table of contents as a Markdown heading with its id and its name (``data-toc-label``,
    which the toc extension takes as the name; characters Markdown would read written as character
    references); every other id on an empty element of raw HTML (MkDocs reads the ids of raw HTML).
    With ``linked`` (a page the plugin renders into a frame, which shows the table of contents it is
    given: :mod:`kb.site.plugin.frame`), no heading, and of its ids only those in ``linked``: MkDocs
    needs a page's ids only to check the links written to them in Markdown (:func:`fragments`)."""
    lines = []
    named = set()
    for token in _flat(finished.toc) if linked is None else ():
        if _ID.fullmatch(token["id"]):  # else it stays an anchor (below), out of the table of contents
            label = _INLINE.sub(lambda m: f"&#{ord(m.group())};", token["name"])
            lines.append(f'{"#" * token["level"]} x {{ #{token["id"]} data-toc-label="{label}" }}')
            named.add(token["id"])
    wanted = finished.anchor_ids - named if linked is None else finished.anchor_ids & linked
    ids = "".join(f'<i id="{html.escape(ident)}"></i>' for ident in sorted(wanted))
    return "\n\n".join([*lines, f"<div>{ids}</div>"] if ids else lines)


def fragments(texts: Iterable[str]) -> frozenset[str]:
    """Every text after a ``#`` in hand-written pages, as written, unquoted and unescaped: a superset
    of the anchors their links name (and more: a heading's ``{ #id }``, a "C#")."""
    found: set[str] = set()
    for text in texts:
        for written in _FRAGMENT.findall(text):
            found.update((written, unquote(written), html.unescape(written), unquote(html.unescape(written))))
    return frozenset(found)


def _flat(toc: list[TocToken]) -> Iterator[TocToken]:
    for token in toc:
        yield token
        yield from _flat(token["children"])


def unfound(
    links: Mapping[str, Mapping[str, Mapping[str, str]]], ids: Mapping[str, Set[str]]
) -> Iterator[tuple[str, str, str, str]]:
    """Of the links the plugin made (``links``: page -> target page -> {anchor: the link as
    written}), those whose anchor the target page (``ids``: page -> the ids it holds; a page not
    there is not checked) does not hold: (page, link, target, anchor)."""
    for src, targets in links.items():
        for target, anchors in targets.items():
            held = ids.get(target)
            if held is not None:
                yield from ((src, link, target, a) for a, link in anchors.items() if a not in held)


def titles(page: Page, finished: Finished) -> None:
    """The page's title and description, where its metadata has none (escaped when they were made)."""
    for key in ("title", "description"):
        value = getattr(finished, key)
        if value and key not in page.meta:
            page.meta[key] = value


def read(page_html: str, outline: Outline, found: Links, titled: bool) -> Finished:
    """What MkDocs learns of a page from its HTML (``outline``: what a walk of it found;
    ``found``: what resolving its links found; ``titled``: the first heading is the page's title)."""
    heading = outline.title if titled else None
    anchors = {target: dict(a) for target, a in found.anchors.items()}
    return Finished(page_html, outline.toc(), frozenset(outline.ids), anchors, frozenset(found.targets), heading, None)


def arxiv_target(kb: KnowledgeBase, page: Page, files: Files) -> Callable[[arxiv_id.ArxivId], tuple[str, str]]:
    """Where an arXiv id in a hand-written page links: its paper's page, else arXiv (and the title shown)."""

    def target(ident: arxiv_id.ArxivId) -> tuple[str, str]:
        pid = kb.by_arxiv.get(ident.base)
        dest = files.get_file_from_path(paper_page(pid)) if pid else None
        if pid is None or dest is None:
            return ident.abs_url, f"arXiv {ident}"
        return dest.url_relative_to(page.file), kb.papers[pid].display_title

    return target
