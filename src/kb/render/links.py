"""Links between pages, and arXiv ids in contributed text turned into links.

Renderers link to other pages by their docs-relative source path (``papers/ssr.md``)
and a page-relative link to that source is written (``../papers/ssr.md#notes``): the
MkDocs adapter resolves it to the built URL and validates both the page and the anchor.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from kb.data import arxiv_id
from kb.knowledge.history import SIGHTING_KINDS, AnchorRecord
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page, section_anchor
from kb.messages import t
from kb.render.html import esc, link, t_html


@dataclass(frozen=True)
class Linker:
    page: str  # docs-relative source path of the page being rendered, e.g. "briefs/inference/x.md"

    def href(self, target: str, anchor: str = "") -> str:
        frag = f"#{anchor}" if anchor else ""
        if target == self.page:
            return frag or posixpath.basename(target)
        folder, _, name = target.rpartition("/")
        up = _relative_dir(folder, self.page.rpartition("/")[0])
        return (f"{up}/{name}" if up else name) + frag

    def link(self, text: object, target: str, anchor: str = "") -> str:
        return link(text, self.href(target, anchor))


@lru_cache(maxsize=4096)
def _relative_dir(folder: str, start: str) -> str:
    """``folder`` relative to ``start`` (docs-relative directories, "" for the top), "" when equal."""
    rel = posixpath.relpath(folder or ".", start or ".")
    return "" if rel == "." else rel


def paper_link(kb: KnowledgeBase, linker: Linker, paper_id: str, text: str | None = None) -> str:
    paper = kb.papers[paper_id]
    return linker.link(text or paper.short, paper_page(paper_id))


def section_link(kb: KnowledgeBase, linker: Linker, topic: str, section_id: str, text: str | None = None) -> str:
    info = kb.section(topic, section_id)
    page = kb.topics[topic].page
    label = text or section_label(kb, topic, section_id)
    if info is None:
        return esc(label)
    return linker.link(label, page, section_anchor(section_id))


def section_label(kb: KnowledgeBase, topic: str, section_id: str) -> str:
    """``§1.(1) 推理引擎 · Speculative Decoding`` — numbered ancestor, then the section."""
    info = kb.section(topic, section_id)
    if info is None:
        return section_id
    chain = list(info.parents) + [info.section]
    numbered = [s for s in chain if s.number]
    head = numbered[-1] if numbered else None
    parts = []
    if head is not None:
        parts.append(head.name)
    if info.section is not head:
        parts.append(info.section.title)
    return " · ".join(parts)


def brief_link(kb: KnowledgeBase, linker: Linker, key: str, text: str | None = None, anchor: str = "") -> str:
    return linker.link(text or brief_title(kb, key), brief_page(key), anchor)


def brief_title(kb: KnowledgeBase, key: str) -> str:
    """A brief's name wherever it is named (its page's title, links, feeds): its title as written,
    else one made of its topic, round and date."""
    b = kb.briefs[key]
    return b.title or t("link.brief_title", topic=b.topic, round=b.round, date=b.date.isoformat())


# what a brief named a paper as, in the reader's words
SIGHTING_LABELS = {kind: t(f"sighting.{kind}") for kind in SIGHTING_KINDS}


def anchor_text(kb: KnowledgeBase, linker: Linker, rec: AnchorRecord) -> str:
    """When a paper was anchored and which brief records it: a date only when a brief states one,
    otherwise the recording brief's date as the latest possible one."""
    via = brief_link(kb, linker, rec.brief)
    if rec.since is not None:
        return t_html("link.anchored_on", date=esc(rec.since.isoformat()), via=via)
    return t_html("link.anchored_by", date=esc(rec.recorded_on.isoformat()), via=via)


def arxiv_target(kb: KnowledgeBase, linker: Linker, ident: arxiv_id.ArxivId) -> str:
    """The link for an arXiv id: the paper page when the knowledge base has it (and it is not the
    page being rendered: its own id there, quoted from a brief, goes to arXiv), else arXiv."""
    pid = kb.by_arxiv.get(ident.base)
    return linker.href(paper_page(pid)) if pid is not None and paper_page(pid) != linker.page else ident.abs_url


def arxiv_out(base: str) -> str:
    """``arXiv:<base>`` linked to its abstract on arXiv: the id column of a table whose rows already
    link each paper's own page by its name (a second link there would only repeat the first)."""
    ident = arxiv_id.parse(base)
    return link(f"arXiv:{base}", ident.abs_url) if ident is not None else esc(f"arXiv:{base}")


def text(kb: KnowledgeBase, linker: Linker, value: str) -> str:
    """Escape contributed text and link every arXiv id in it."""
    value = " ".join(value.split())
    return _joined(value, _id_links(kb, linker, arxiv_id.find_ids(value)))


def named(kb: KnowledgeBase, linker: Linker, value: str, papers: Iterable[str]) -> tuple[str, list[str]]:
    """:func:`text`, and where the text names one of ``papers`` (the papers its record lists) by
    its short name (a whole word: not the ``SSR`` of ``SSRx`` or ``SSR-2``) and no arXiv id in it
    links the paper's page already, the first such name linked to that page.  Also the papers
    listed that the text links nowhere (the caller links them beside it)."""
    value = " ".join(value.split())
    ids = arxiv_id.find_ids(value)
    spans = _id_links(kb, linker, ids)
    linked = {kb.by_arxiv.get(m.id.base) for m in ids}
    unnamed = []
    for pid in dict.fromkeys(papers):
        paper = kb.papers.get(pid)
        if paper is None or pid in linked or paper_page(pid) == linker.page:
            continue
        for m in _whole_name(paper.short).finditer(value):
            if not any(a < m.end() and m.start() < b for a, b, _ in spans):
                spans.append((m.start(), m.end(), paper_link(kb, linker, pid, m.group())))
                break
        else:
            unnamed.append(pid)
    return _joined(value, sorted(spans)), unnamed


@lru_cache(maxsize=8192)
def _whole_name(short: str) -> re.Pattern[str]:
    """A paper's short name as a whole word (compiled once: re's own cache keeps 512 patterns, fewer
    than a year's papers, and compiling one costs as much as the rest of :func:`named`)."""
    return re.compile(rf"(?<![0-9A-Za-z-]){re.escape(short)}(?![0-9A-Za-z]|-[0-9A-Za-z])")


def _id_links(kb: KnowledgeBase, linker: Linker, ids: list[arxiv_id.Mention]) -> list[tuple[int, int, str]]:
    """Each arXiv id found in a text: its span and its link."""
    return [(m.start, m.end, link(m.text, arxiv_target(kb, linker, m.id))) for m in ids]


def _joined(value: str, spans: list[tuple[int, int, str]]) -> str:
    """``value`` escaped, with the HTML of each span (in order, none overlapping) in its place."""
    out = []
    pos = 0
    for start, end, html in spans:
        out.append(esc(value[pos:start], strip=False))
        out.append(html)
        pos = end
    out.append(esc(value[pos:], strip=False))
    return "".join(out)
