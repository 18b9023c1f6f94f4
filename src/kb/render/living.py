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

from kb.knowledge.index import KnowledgeBase, Noted, section_anchor
from kb.knowledge.sections import anchored_by_section, pending_by_section
from kb.knowledge.updatelog import update_log
from kb.messages import t
from kb.render import checks, timeline
from kb.render.findings import finding_text
from kb.render.html import Html, blocks, details, div, el, esc, p, span, strong, t_html, table, ul
from kb.render.html import heading as html_heading
from kb.render.links import SIGHTING_LABELS, Linker, anchor_text, brief_link, paper_link, text


def heading(kb: KnowledgeBase, topic: str, section_id: str, page: str | None = None) -> Html:
    """The section's heading; on ``page`` (the page it is written on), with a small link under it
    to the section's timeline (:mod:`kb.render.timeline`)."""
    info = kb.section(topic, section_id)
    if info is None:
        raise KeyError(f"unknown section '{section_id}' in topic '{topic}'")
    s = info.section
    level = min(2 + info.depth, 6)
    shown = s.title_en and s.title_en.casefold() not in s.title.casefold()  # not when the title says it already
    en = " " + el("small", esc(s.title_en)) if shown else ""
    intro = ""
    if s.introduced:
        intro = " " + span(esc(t("living.new_route", date=s.introduced.isoformat())), "kb-new")
    toc = s.name if en or intro else None  # the name alone
    head = html_heading(level, f"{esc(s.name)}{en}{intro}", section_anchor(s.id), toc)
    if page is None:
        return head
    link = Linker(page).link(t("living.timeline_link"), timeline.page_of(topic), s.id)
    return blocks(head, p(link, "kb-timeline-link"))


def _listed(title_key: str, rows: list[Html], cls: str) -> Html:
    """A box with a bold lead-in line and a list."""
    return div(blocks(p(strong(esc(t(title_key)))), ul(rows)), cls)


def papers_in(kb: KnowledgeBase, topic: str, section_id: str | None, page: str, quiet: bool = False) -> Html:
    """The papers anchored in a section (or, with ``None``, anchored without a section); where
    there are none, a line that says so (``quiet``: nothing)."""
    linker = Linker(page)
    rows = []
    for rec in anchored_by_section(kb, topic).get(section_id, ()):
        paper = kb.papers[rec.paper]
        ident = f"（{text(kb, linker, 'arXiv:' + paper.arxiv)}）" if paper.arxiv else ""
        rows.append(f"{paper_link(kb, linker, rec.paper)}{ident}：{anchor_text(kb, linker, rec)}")
    below = _papers_below(kb, topic, section_id, linker) if section_id else []
    if not rows and not below:
        return "" if quiet else p(esc(t("living.none_anchored")), "kb-empty")
    own = _listed("living.anchored_here", rows, "kb-anchored") if rows else ""
    return blocks(own, _listed("living.anchored_below", below, "kb-anchored kb-anchored-below") if below else "")


def _papers_below(kb: KnowledgeBase, topic: str, section_id: str, linker: Linker) -> list[Html]:
    """The papers anchored in the section's sub-sections (and not in it), each once, with the
    sub-section(s) it is listed under: a parent section shows what its parts hold."""
    by_section = anchored_by_section(kb, topic)
    own = {r.paper for r in by_section.get(section_id, ())}
    where: dict[str, list[str]] = {}
    for sid, info in kb.sections.get(topic, {}).items():
        if any(parent.id == section_id for parent in info.parents):
            for rec in by_section.get(sid, ()):
                if rec.paper not in own:
                    where.setdefault(rec.paper, []).append(sid)
    rows = []
    for pid, sids in where.items():
        doc = kb.topics[topic].page
        links = "、".join(linker.link(kb.sections[topic][sid].section.name, doc, section_anchor(sid)) for sid in sids)
        rows.append(f"{paper_link(kb, linker, pid)}{t_html('living.in_subsection', sections=links)}")
    return rows


def unsectioned(kb: KnowledgeBase, topic: str, page: str) -> Html:
    """A block (with the stable anchor ``#unsectioned``) for papers anchored without a section."""
    return blocks(html_heading(3, esc(t("status.unsectioned")), "unsectioned"), papers_in(kb, topic, None, page))


def pending_for(kb: KnowledgeBase, topic: str, section_id: str, page: str) -> Html:
    """Items suggested for this section that are still waiting to be anchored, with their first
    sighting (any brief, any kind of item)."""
    linker = Linker(page)
    rows = []
    for item in pending_by_section(kb, topic).get(section_id, ()):
        kind = SIGHTING_LABELS.get(item.first_kind, item.first_kind)
        rows.append(
            paper_link(kb, linker, item.paper)
            + t_html(
                "living.pending_item",
                date=item.first_seen.isoformat(),
                brief=brief_link(kb, linker, item.first_brief, t("living.source_brief")),
                kind=esc(kind),
                days=str(item.age_days),
            )
        )
    if not rows:
        return ""
    return _listed("living.pending_here", rows, "kb-pending")


def section(kb: KnowledgeBase, topic: str, section_id: str, page: str, demos: Html = "") -> Html:
    """Heading, summary, anchored papers, pending suggestions (and demos, when built) of one section."""
    info = kb.section(topic, section_id)
    summary = p(text(kb, Linker(page), info.section.summary)) if info and info.section.summary else ""
    pending = pending_for(kb, topic, section_id, page)
    # a section with papers waiting for it says so in their list; "none anchored yet" only where
    # nothing waits either (a line the page would otherwise repeat under most of its sections)
    return blocks(
        heading(kb, topic, section_id, page),
        summary,
        papers_in(kb, topic, section_id, page, bool(pending)),
        pending,
        demos,
    )


def _topic_checks(kb: KnowledgeBase, topic: str, linker: Linker) -> Html:
    """The update log's findings (labels naming papers not yet anchored, a stale log), in Chinese;
    acknowledged ones stay, with the reason."""
    noted: list[Noted] = kb.findings("topic", topic)
    if not noted:
        return ""
    names = {pid: paper.short for pid, paper in kb.papers.items()}
    rows = []
    for n in noted:
        finding = n.finding
        ack = t_html("living.acknowledged", reason=text(kb, linker, n.acknowledged.reason)) if n.acknowledged else ""
        rows.append(f"{text(kb, linker, finding_text(finding, names))}{ack}")
    open_ = sum(1 for n in noted if not n.acknowledged)
    summary = t("living.checks", n=len(noted)) + (
        t("living.checks_open", n=open_) if open_ else t("living.checks_all_acknowledged")
    )
    return details(esc(summary), ul(rows), "warning" if open_ else "note")


def update_labels(kb: KnowledgeBase, topic: str, page: str) -> Html:
    """The update labels per date, newest first: the topic's update log (``updates:``) with a label
    for each paper a brief anchors that day (marked as computed from that brief)."""
    linker = Linker(page)
    log = update_log(kb, topic)
    if not log:
        return p(esc(t("living.no_updates")), "kb-empty")
    heads = [esc(t(f"living.th_{k}")) for k in ("date", "labels", "papers", "citations")]
    rows = []
    for u in reversed(log):
        typed = [esc(lb.text) for lb in u.labels if not lb.derived]
        derived = [esc(lb.text) for lb in u.labels if lb.derived]
        if derived:
            via = "、".join(brief_link(kb, linker, key) for key in u.briefs)
            typed.append(
                checks.mark("kb-computed", "；".join(derived), t("living.derived_labels"))
                + t_html("living.derived_via", via=via)
            )
        labels = "；".join(typed) or "—"
        named = list(dict.fromkeys(pid for lb in u.labels for pid in lb.papers if pid in kb.papers))
        papers = "、".join(paper_link(kb, linker, pid) for pid in named) or "—"
        cites = "—" if u.citations is None else (t("living.approx") if u.approx else "") + str(u.citations)
        rows.append([u.date.isoformat(), labels, papers, esc(cites)])
    return blocks(table(heads, rows), _topic_checks(kb, topic, linker))


def citation_count(kb: KnowledgeBase, topic: str) -> Html:
    """The citation count of the latest entry of the update log, and how many papers the briefs
    record as anchored (inline text)."""
    return esc(_citation_text(kb, topic))


def _citation_text(kb: KnowledgeBase, topic: str) -> str:
    top = kb.topics.get(topic)
    anchored = list(kb.anchored_in(topic))
    with_id = sum(1 for r in anchored if kb.papers[r.paper].arxiv)
    known = t("living.anchored_count", n=len(anchored), with_id=with_id)
    latest = next((u for u in reversed(top.updates) if u.citations is not None), None) if top else None
    if latest is None:
        return known
    approx = t("living.approx") if latest.citations_approx else ""
    out = t("living.citations", date=latest.date.isoformat(), approx=approx, n=latest.citations, known=known)
    later = [r for r in anchored if r.known_by > latest.date]
    if later:
        out += t("living.recorded_later", n=len(later), date=latest.date.isoformat())
    return out


def toc(kb: KnowledgeBase, topic: str, page: str) -> Html:
    """All sections of the topic, as an outline (used when a page wants the whole tree)."""
    linker = Linker(page)
    items = []
    for info in kb.sections.get(topic, {}).values():
        items.append((info.depth, linker.link(info.section.name, page, section_anchor(info.id))))
    return _outline(items, 0)[0]


def _outline(items: list[tuple[int, Html]], start: int) -> tuple[Html, int]:
    """The nested list of ``items[start:]`` (depth, entry) at the first item's depth; and where it stops."""
    if start >= len(items):
        return "", start
    depth = items[start][0]
    entries = []
    i = start
    while i < len(items) and items[i][0] >= depth:
        entry = items[i][1]
        i += 1
        if i < len(items) and items[i][0] > depth:
            sub, i = _outline(items, i)
            entry += "\n" + sub
        entries.append(entry)
    return ul(entries), i
