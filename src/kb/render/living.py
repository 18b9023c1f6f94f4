"""Pieces of a living document (``inference.md``) inserted by macros.

The page's prose is written by people; these functions add what is computed:
each section's heading with a stable anchor (from the section id, since Chinese
headings get anchors such as ``11``), the papers anchored in it as the briefs
record them (:mod:`kb.knowledge.history`: the recording brief, and a date only
when a brief states one), the items still waiting to be anchored there (first
seen by the one definition of the history), and, from the topic's update log
(``updates:``), the update labels per date and the citation count.
"""

from __future__ import annotations

import weakref
from dataclasses import replace
from collections.abc import Callable
from typing import Any

from kb.knowledge.backlog import PendingItem, pending_items
from kb.knowledge.history import AnchorRecord
from kb.knowledge.index import KnowledgeBase, Noted, section_anchor
from kb.render.escape import md
from kb.render.links import SIGHTING_LABELS, Linker, anchor_text, brief_link, paper_link, text
from kb.render.messages import finding_text

_CACHE: dict[int, tuple[weakref.ref, dict[Any, Any]]] = {}


def _memo(kb: KnowledgeBase, key: tuple, compute: Callable[[], Any]) -> Any:
    """Per-build memo (a page calls ``section()`` once per section): keyed by the knowledge base
    object, dropped with it."""
    entry = _CACHE.get(id(kb))
    if entry is None or entry[0]() is not kb:
        entry = (weakref.ref(kb, lambda _, i=id(kb): _CACHE.pop(i, None)), {})
        _CACHE[id(kb)] = entry
    memo = entry[1]
    if key not in memo:
        memo[key] = compute()
    return memo[key]


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


def _anchored_by_section(kb: KnowledgeBase, topic: str) -> dict[str | None, list[AnchorRecord]]:
    """section id (None: no section) -> the current anchor records of the papers anchored there."""
    def compute() -> dict[str | None, list[AnchorRecord]]:
        out: dict[str | None, list[AnchorRecord]] = {}
        for rec in kb.anchored_in(topic):
            known = rec.section if rec.section is None or kb.section(topic, rec.section) else None
            out.setdefault(known, []).append(rec)
        for recs in out.values():
            recs.sort(key=lambda r: (r.known_by, kb.papers[r.paper].short.lower()))
        return out

    return _memo(kb, ("anchored", topic), compute)


def _pending(kb: KnowledgeBase, topic: str) -> list[PendingItem]:
    return _memo(kb, ("pending", topic), lambda: pending_items(kb, topic))


def papers_in(kb: KnowledgeBase, topic: str, section_id: str | None, page: str) -> str:
    """The papers anchored in a section (or, with ``None``, anchored without a section)."""
    linker = Linker(page)
    rows = []
    for rec in _anchored_by_section(kb, topic).get(section_id, ()):
        p = kb.papers[rec.paper]
        ident = f"（{text(kb, linker, 'arXiv:' + p.arxiv)}）" if p.arxiv else ""
        rows.append(f"- {paper_link(kb, linker, rec.paper)}{ident}：{anchor_text(kb, linker, rec)}")
    if not rows:
        return '<p class="kb-empty">本节暂无登记锚入的论文。</p>'
    return '<div class="kb-anchored" markdown>\n\n**已锚入本节：**\n\n' + "\n".join(rows) + "\n\n</div>"


def unsectioned(kb: KnowledgeBase, topic: str, page: str) -> str:
    """A block (with the stable anchor ``#unsectioned``) for papers anchored without a section."""
    return "### 未注明节 { #unsectioned }\n\n" + papers_in(kb, topic, None, page)


def pending_for(kb: KnowledgeBase, topic: str, section_id: str, page: str) -> str:
    """Items suggested for this section that are still waiting to be anchored, with their first
    sighting (any brief, any kind of item)."""
    linker = Linker(page)
    rows = []
    for item in _pending(kb, topic):
        if section_id in item.sections:
            kind = SIGHTING_LABELS.get(item.first_kind, item.first_kind)
            rows.append(f"- {paper_link(kb, linker, item.paper)}（首次出现 {item.first_seen.isoformat()}，"
                        f"{brief_link(kb, linker, item.first_brief, '来源简报')} · {kind}；已 {item.age_days} 天）")
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


def _topic_checks(kb: KnowledgeBase, topic: str, linker: Linker) -> str:
    """The update log's findings (labels naming papers not yet anchored, a stale log), in Chinese;
    acknowledged ones stay, with the reason."""
    noted: list[Noted] = kb.findings("topic", topic)
    if not noted:
        return ""
    names = {pid: p.short for pid, p in kb.papers.items()}
    rows = []
    for n in noted:
        finding = n.finding
        if "papers" in finding.params:  # a list of paper ids (the stale log): the names readers know
            shown = "、".join(names.get(pid, pid) for pid in finding.params["papers"].split("、"))
            finding = replace(finding, params={**finding.params, "papers": shown})
        ack = f"（已知悉：{text(kb, linker, n.acknowledged.reason)}）" if n.acknowledged else ""
        rows.append(f"- {text(kb, linker, finding_text(finding, names))}{ack}")
    open_ = sum(1 for n in noted if not n.acknowledged)
    summary = f"核对：{len(noted)} 条" + (f"，其中 {open_} 条待处理" if open_ else "，均已知悉")
    return (f'<details class="{"warning" if open_ else "note"}" markdown>\n<summary>{summary}</summary>\n\n'
            + "\n".join(rows) + "\n\n</details>")


def update_labels(kb: KnowledgeBase, topic: str, page: str) -> str:
    """The update labels per date, from the topic's update log (``updates:``), newest first."""
    linker = Linker(page)
    t = kb.topics.get(topic)
    if t is None or not t.updates:
        return '<p class="kb-empty">本文档的更新记录（updates:）还是空的。</p>'
    rows = ["| 日期 | 更新标注 | 标注提到的论文 | arXiv 引用 |", "|---|---|---|---|"]
    for u in sorted(t.updates, key=lambda u: u.date, reverse=True):
        labels = "；".join(md(lb.text) for lb in u.labels) or "—"
        named = list(dict.fromkeys(p for lb in u.labels for p in lb.papers if p in kb.papers))
        papers = "、".join(paper_link(kb, linker, p) for p in named) or "—"
        cites = "—" if u.citations is None else ("约 " if u.citations_approx else "") + str(u.citations)
        rows.append(f"| {u.date.isoformat()} | {labels} | {papers} | {cites} |")
    checks = _topic_checks(kb, topic, linker)
    return "\n".join(rows) + (f"\n\n{checks}" if checks else "")


def citation_count(kb: KnowledgeBase, topic: str) -> str:
    """The citation count of the latest entry of the update log, and how many papers the briefs
    record as anchored."""
    t = kb.topics.get(topic)
    anchored = list(kb.anchored_in(topic))
    with_id = sum(1 for r in anchored if kb.papers[r.paper].arxiv)
    known = f"简报登记锚入 {len(anchored)} 篇（其中 {with_id} 篇有 arXiv 号）"
    latest = next((u for u in reversed(t.updates) if u.citations is not None), None) if t else None
    if latest is None:
        return known
    approx = "约 " if latest.citations_approx else ""
    out = f"活文档最近一次记录引用数（{latest.date.isoformat()}）：{approx}{latest.citations} 条 arXiv；{known}"
    last = t.updates[-1] if t and t.updates else None
    later = [r for r in anchored if last is not None and r.recorded_on > last.date]
    if later:
        out += f"；其中 {len(later)} 篇是在更新记录（止于 {last.date.isoformat()}）之后才登记的，更新记录待补"
    return out


def toc(kb: KnowledgeBase, topic: str, page: str) -> str:
    """All sections of the topic, as an outline (used when a page wants the whole tree)."""
    linker = Linker(page)
    lines = []
    for info in kb.sections.get(topic, {}).values():
        label = (f"§{info.section.number} " if info.section.number else "") + info.section.title
        lines.append("    " * info.depth + "- " + linker.link(label, page, section_anchor(info.id)))
    return "\n".join(lines)

