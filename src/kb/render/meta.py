"""One-line descriptions of generated pages, from the page's own content (pure).

They become the page's ``<meta name="description">`` and Open Graph description (see
``kb/theme/templates/main.html``): a brief is described by its headline and its main increments'
titles, a paper by its title, venue and arXiv id.  Plain text, not escaped (the caller
escapes), whitespace collapsed and cut at :data:`LIMIT` characters.
"""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.messages import UI
from kb.render.links import brief_title

LIMIT = 160


def _cut(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= LIMIT else text[: LIMIT - 1].rstrip() + "…"


def brief_description(kb: KnowledgeBase, key: str) -> str:
    brief = kb.briefs[key]
    out = brief_title(kb, key)
    if brief.character:
        out += f"：{brief.character.title}"
    out += "。"
    if brief.increments:
        titles = "；".join(inc.title for inc in brief.increments)
        out += f"{UI['meta.increments']}：{titles}。"
    return _cut(out)


def paper_description(kb: KnowledgeBase, pid: str) -> str:
    p = kb.papers[pid]
    title = p.display_title
    parts = [title if title.startswith(p.short) else f"{p.short}：{title}"]
    if p.venue:
        parts.append(p.venue.name)
    if p.arxiv:
        parts.append(f"arXiv:{p.arxiv}")
    out = " · ".join(parts) + "。"
    if p.arxiv_meta and p.arxiv_meta.abstract:
        out += p.arxiv_meta.abstract
    return _cut(out)
