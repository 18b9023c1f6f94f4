"""arXiv ids written in hand-written pages, as mentions (backlinks) placed at the
section they stand in.  Collected before any page renders.

Code (fenced blocks and inline spans), template expressions and link
destinations are skipped, the same places the HTML autolinker leaves alone.
"""

from __future__ import annotations

import re

from kb.knowledge.index import KnowledgeBase, section_anchor
from kb.knowledge.mentions import Mention, Place, text_mentions

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.DOTALL)
_SECTION_CALL = re.compile(r"\{\{\s*section\(\s*[\"']([a-z0-9-]+)[\"']")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*(?:\{\s*#([\w-]+)[^}]*\})?\s*$", re.MULTILINE)
_FRONT = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def _blank(match: re.Match) -> str:
    return re.sub(r"[^\n]", " ", match.group())


def scan_page(kb: KnowledgeBase, src_uri: str, text: str) -> list[Mention]:
    """Mentions of papers in one page's Markdown source."""
    cleaned = _FRONT.sub(_blank, text)
    for pattern in (_FENCE, _INLINE_CODE, _TEMPLATE):
        cleaned = pattern.sub(_blank, cleaned)
    title = next((m.group(1) for m in _HEADING.finditer(cleaned) if m.group().startswith("# ")), src_uri)
    markers: list[tuple[int, str, str]] = []  # (offset, anchor, label)
    for m in _SECTION_CALL.finditer(text):
        info = kb.find_section(m.group(1))
        if info is not None:
            label = (f"§{info.section.number} " if info.section.number else "") + info.section.title
            markers.append((m.start(), section_anchor(info.id), f"{title} · {label}"))
    for m in _HEADING.finditer(cleaned):
        if m.group(2):
            markers.append((m.start(), m.group(2), f"{title} · {m.group(1).strip()}"))
    markers.sort()
    out: list[Mention] = []
    for para in re.finditer(r"[^\n](?:.|\n(?!\s*\n))*", cleaned):
        anchor, label = "", title
        for offset, a, lab in markers:
            if offset <= para.start():
                anchor, label = a, lab
        place = Place("page", src_uri, anchor, label, None)
        out.extend(text_mentions(place, " ".join(para.group().split()), kb.by_arxiv))
    return out
