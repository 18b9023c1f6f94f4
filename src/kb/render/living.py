"""Pieces of a living document (``inference.md``) inserted by macros.

The page's prose is written by people; these functions add what is computed:
each section's heading with a stable anchor (from the section id, since Chinese
headings get anchors such as ``11``), the papers anchored in it with the date
and the brief that anchored them, the update labels per date and the citation
count.
"""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase, section_anchor
from kb.data.models import Paper, Status
from kb.render.escape import md
from kb.render.links import Linker, brief_link, paper_link, text


def heading(kb: KnowledgeBase, topic: str, section_id: str) -> str:
    info = kb.section(topic, section_id)
    if info is None:
        raise KeyError(f"unknown section '{section_id}' in topic '{topic}'")
    s = info.section
    level = min(2 + info.depth, 6)
    number = f"§{md(s.number)} " if s.number else ""
    en = f" <small>{md(s.title_en)}</small>" if s.title_en else ""
    intro = ""
    if s.introduced:
        intro = f" <span class=\"kb-new\">新路线 · {s.introduced.isoformat()}</span>"
    return f"{'#' * level} {number}{md(s.title)}{en}{intro} {{ #{section_anchor(s.id)} }}"


def anchoring_brief(kb: KnowledgeBase, topic: str, paper: Paper) -> str | None:
    """The brief that records the anchoring: the first of the topic, on or after the
    anchor date, that shows the paper as anchored (raised or carried); else the last
    one before it that raised or carried the paper."""
    anchor = kb.anchor_of(paper, topic)
    if anchor is None:
        return None
    last_before = None
    for date, key, raised, carried in _appearances(kb, topic).get(paper.id, ()):
        if date >= anchor.since and (carried is Status.anchored or raised):
            return key
        if date < anchor.since:
            last_before = key
    return last_before


def _appearances(kb: KnowledgeBase, topic: str) -> dict[str, list[tuple]]:
    """paper id -> (date, brief key, raised, status of its first carried entry or None) for every
    brief of the topic that raised or carried the paper, in order: one pass, memoised per build."""
    cache = kb.cache.setdefault("living.appearances", {})
    if topic not in cache:
        out: dict[str, list[tuple]] = {}
        for key in kb.by_topic.get(topic, []):
            b = kb.briefs[key]
            raised = {p for inc in b.increments for p in inc.papers} | {c.paper for c in b.candidates}
            carried: dict[str, Status] = {}
            for c in kb.figures[key].carried:
                carried.setdefault(c.paper, c.status)
            for pid in sorted(raised | carried.keys()):
                out.setdefault(pid, []).append((b.date, key, pid in raised, carried.get(pid)))
        cache[topic] = out
    return cache[topic]


def _anchored_by_section(kb: KnowledgeBase, topic: str) -> dict[str | None, list[tuple]]:
    """section id (None: no section) -> (paper id, paper, anchor) in paper order, memoised per build."""
    cache = kb.cache.setdefault("living.anchored", {})
    if topic not in cache:
        out: dict[str | None, list[tuple]] = {}
        for pid, p in kb.papers.items():
            for a in p.anchors:
                if a.topic == topic:
                    out.setdefault(a.section, []).append((pid, p, a))
        cache[topic] = out
    return cache[topic]


def papers_in(kb: KnowledgeBase, topic: str, section_id: str | None, page: str) -> str:
    """The papers anchored in a section (or, with ``None``, anchored without a section)."""
    linker = Linker(page)
    rows = []
    for pid, p, a in _anchored_by_section(kb, topic).get(section_id, ()):
        key = anchoring_brief(kb, topic, p)
        via = f" · 见 {brief_link(kb, linker, key)}" if key else ""
        ident = f"（{text(kb, linker, 'arXiv:' + p.arxiv)}）" if p.arxiv else ""
        note = f" — {md(a.note)}" if a.note else ""
        rows.append((a.since, f"- {paper_link(kb, linker, pid)}{ident}：{a.since.isoformat()} 锚入{via}{note}"))
    if not rows:
        return '<p class="kb-empty">本节暂无登记锚入的论文。</p>'
    return '<div class="kb-anchored" markdown>\n\n**已锚入本节：**\n\n' + "\n".join(r for _, r in sorted(rows)) + "\n\n</div>"


def unsectioned(kb: KnowledgeBase, topic: str, page: str) -> str:
    """A block (with the stable anchor ``#unsectioned``) for papers anchored without a section."""
    return "### 未注明节 { #unsectioned }\n\n" + papers_in(kb, topic, None, page)


def pending_for(kb: KnowledgeBase, topic: str, section_id: str, page: str) -> str:
    """Items suggested for this section that are still waiting to be anchored."""
    from kb.render.backlog import pending_items

    linker = Linker(page)
    rows = []
    for item in pending_items(kb, topic):
        if section_id in item.sections:
            rows.append(f"- {paper_link(kb, linker, item.paper)}（首次出现 {item.first_seen.isoformat()}，"
                        f"{brief_link(kb, linker, item.first_brief, '来源简报')}）")
    if not rows:
        return ""
    return '<div class="kb-pending" markdown>\n\n**待锚入本节：**\n\n' + "\n".join(rows) + "\n\n</div>"


def section(kb: KnowledgeBase, topic: str, section_id: str, page: str, demos: str = "") -> str:
    """Heading, summary, anchored papers, pending suggestions (and demos, when built) of one section."""
    info = kb.section(topic, section_id)
    parts = [heading(kb, topic, section_id)]
    if info and info.section.summary:
        parts.append(text(kb, Linker(page), info.section.summary))
    parts.append(papers_in(kb, topic, section_id, page))
    pend = pending_for(kb, topic, section_id, page)
    if pend:
        parts.append(pend)
    if demos:
        parts.append(demos)
    return "\n\n".join(parts)


def update_labels(kb: KnowledgeBase, topic: str, page: str) -> str:
    """Update labels per date, from the baselines the briefs recorded, newest first."""
    linker = Linker(page)
    by_date: dict = {}
    for key in kb.by_topic.get(topic, []):
        b = kb.briefs[key]
        if b.baseline:
            by_date[b.baseline.updated] = (key, b.baseline)
    if not by_date:
        return '<p class="kb-empty">还没有简报记录过本文档的更新标注。</p>'
    rows = ["| 日期 | 更新标注 | arXiv 引用 | 记录于 |", "|---|---|---|---|"]
    for day in sorted(by_date, reverse=True):
        key, bl = by_date[day]
        labels = "；".join(md(lb.text) for lb in bl.labels) or "—"
        approx = "约 " if bl.citations_approx else ""
        rows.append(f"| {day.isoformat()} | {labels} | {approx}{bl.citations} | {brief_link(kb, linker, key)} |")
    return "\n".join(rows)


def citation_count(kb: KnowledgeBase, topic: str) -> str:
    """The latest recorded citation count and how many anchored papers the site knows."""
    latest = None
    for key in kb.by_topic.get(topic, []):
        b = kb.briefs[key]
        if b.baseline:
            latest = b.baseline
    anchored = [p for p in kb.papers.values() if any(a.topic == topic for a in p.anchors)]
    with_id = sum(1 for p in anchored if p.arxiv)
    known = f"本站登记锚入 {len(anchored)} 篇（其中 {with_id} 篇有 arXiv 号）"
    if latest is None:
        return known
    approx = "约 " if latest.citations_approx else ""
    return f"最近一次基线（{latest.updated.isoformat()}）记载引用 {approx}{latest.citations} 条 arXiv；{known}"


def toc(kb: KnowledgeBase, topic: str, page: str) -> str:
    """All sections of the topic, as an outline (used when a page wants the whole tree)."""
    linker = Linker(page)
    lines = []
    for info in kb.sections.get(topic, {}).values():
        label = (f"§{info.section.number} " if info.section.number else "") + info.section.title
        lines.append("    " * info.depth + "- " + linker.link(label, page, section_anchor(info.id)))
    return "\n".join(lines)

