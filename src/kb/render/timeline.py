"""A topic's section timelines (``timeline/<topic>.md``): for each section of the living document,
in the document's order, every anchoring the briefs record there by date (the date, the recording
brief, the paper: :func:`kb.knowledge.sections.anchorings_by_section`), the items still waiting
to be anchored there with their age, and the section's growth as a small chart
(:func:`kb.render.charts.growth_svg`) with its numbers in the table beside it.  Each section's
heading has the section id as its anchor (``timeline/inference/#s1-2-scheduling``); the living
document's section headings link there (:func:`kb.render.living.heading`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from kb.knowledge.backlog import PendingItem, as_of
from kb.knowledge.history import AnchorRecord
from kb.knowledge.index import KnowledgeBase, SectionInfo, section_anchor
from kb.knowledge.sections import anchorings_by_section, pending_by_section
from kb.messages import t
from kb.render import charts, related
from kb.render.html import Html, blocks, div, esc, heading, p, strong, t_html, table, ul
from kb.render.links import Linker, brief_link, paper_link

TITLE_ANCHOR = "_timeline"  # not a section id: those are slugs, without "_"
UNSECTIONED = "_unsectioned"


def page_of(topic: str) -> str:
    """The source path of a topic's timelines."""
    return f"timeline/{topic}.md"


def page(kb: KnowledgeBase, topic: str) -> Html:
    path = page_of(topic)
    linker = Linker(path)
    title = kb.topic_title(topic)
    out = [
        heading(1, esc(t("timeline.title", topic=title)), TITLE_ANCHOR),
        p(t_html("timeline.intro", link=linker.link(title, kb.topics[topic].page))),
    ]
    anchorings = anchorings_by_section(kb, topic)
    pending = pending_by_section(kb, topic)
    end = as_of(kb, topic)
    for info in kb.sections.get(topic, {}).values():
        head = heading(min(2 + info.depth, 6), esc(info.section.name), info.id)
        body = _section(kb, linker, topic, info, anchorings.get(info.id, ()), end)
        graph = related.section_part(kb, linker, topic, info.id)
        out += [head, body, graph, _pending(kb, linker, pending.get(info.id, ()))]
    if None in anchorings:
        out += [heading(2, esc(t("timeline.unsectioned")), UNSECTIONED), _anchorings(kb, linker, anchorings[None])]
    return blocks(*out) + "\n"


def _section(
    kb: KnowledgeBase, linker: Linker, topic: str, info: SectionInfo, recs: Sequence[AnchorRecord], end: dt.date | None
) -> Html:
    """The link to the section in the living document, its growth chart and its anchorings."""
    # the same words under every heading: not indexed (kb.site.search.EXCLUDE), as the living document's
    where = p(
        linker.link(t("timeline.in_document"), kb.topics[topic].page, section_anchor(info.id)), "kb-timeline-link"
    )
    name = info.section.name
    if not recs:
        return blocks(where, p(esc(t("timeline.none", section=name)), "kb-empty"))
    steps = _steps(recs)
    first, last = steps[0][0], max(end or steps[-1][0], steps[-1][0])
    dates = {"first": first.isoformat(), "last": last.isoformat()}
    summary = t("timeline.summary", section=name, n=len(recs), papers=steps[-1][1], **dates)
    svg = charts.growth_svg(topic, info.id, t("timeline.chart_title", section=name, **dates), steps, last)
    return blocks(where, p(esc(summary)), div(svg, "kb-chart-box"), _anchorings(kb, linker, recs))


def _steps(recs: Sequence[AnchorRecord]) -> list[tuple[dt.date, int]]:
    """Each day of an anchoring, with the papers anchored in the section by the end of it."""
    seen: set[str] = set()
    out: dict[dt.date, int] = {}
    for rec in recs:
        seen.add(rec.paper)
        out[rec.known_by] = len(seen)
    return list(out.items())


def _anchorings(kb: KnowledgeBase, linker: Linker, recs: Sequence[AnchorRecord]) -> Html:
    """The anchorings by date: the date, the recording brief, the paper, the papers so far."""
    heads = [esc(t(f"timeline.th_{k}")) for k in ("date", "brief", "paper", "total")]
    seen: set[str] = set()
    rows = []
    for rec in recs:
        seen.add(rec.paper)
        date = rec.known_by.isoformat()
        rows.append([date, brief_link(kb, linker, rec.brief), paper_link(kb, linker, rec.paper), str(len(seen))])
    return table(heads, rows, "kb-timeline")


def _pending(kb: KnowledgeBase, linker: Linker, items: Sequence[PendingItem]) -> Html:
    """The items still waiting to be anchored in the section, oldest first, with their age."""
    rows = [
        t_html(
            "timeline.pending_item",
            paper=paper_link(kb, linker, item.paper) if item.paper in kb.papers else esc(item.paper),
            days=str(item.age_days),
            date=item.first_seen.isoformat(),
            brief=brief_link(kb, linker, item.first_brief),
        )
        for item in items
    ]
    return div(blocks(p(strong(esc(t("timeline.pending")))), ul(rows)), "kb-pending") if rows else ""
