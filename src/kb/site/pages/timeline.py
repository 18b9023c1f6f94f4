"""A topic's section timelines (``timeline/<topic>.md``, :mod:`kb.render.timeline`): each section of
the living document over time.  Computed from every brief of the topic, never frozen into an
edition; hung under 简报, whose records it orders by section.

Inputs: what the page shows, as the views give it (the topic's sections, its anchorings and pending
items by section, its latest date, each section's graph of related papers) and the names of the
briefs and papers it links; a preview remakes it when one of them changes, not when a brief's
headline or text does."""

from __future__ import annotations

from kb.knowledge.backlog import as_of
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.related import section_graph
from kb.knowledge.sections import anchorings_by_section, pending_by_section
from kb.messages import UI
from kb.render import timeline
from kb.render.links import brief_title
from kb.site import search
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site


def _topic(page: str) -> str:
    return page.removeprefix("timeline/").removesuffix(".md")


def _facts(kb: KnowledgeBase, page: str) -> search.Facts:
    # the rows repeat the titles of briefs and papers (listing: not indexed); the headings stay findable
    title = kb.topic_title(_topic(page))
    return search.Facts(search.TIMELINE, (title,), weight=search.WEIGHTS[search.INDEX], listing=True)


def _llms(kb: KnowledgeBase) -> list[Llms]:
    note = "each section of the living document over time: papers anchored by date and brief, items waiting"
    return [
        Llms(f"{t.title_en or t.title}: section timelines", [(t.title, timeline.page_of(tid), note)])
        for tid, t in kb.topics.items()
    ]


def _inputs(kb: KnowledgeBase) -> Inputs:
    out: dict[str, tuple[object, ...]] = {}
    for topic in kb.topics:
        sections = list(kb.sections.get(topic, {}).values())
        anchorings, pending = anchorings_by_section(kb, topic), pending_by_section(kb, topic)
        graphs = [section_graph(kb, topic, info.id) for info in sections]
        records = [r for recs in anchorings.values() for r in recs]
        items = [i for its in pending.values() for i in its]
        papers = {r.paper for r in records} | {i.paper for i in items} | {p for g in graphs for p in g.papers}
        briefs = {r.brief for r in records} | {i.first_brief for i in items}
        names = [(p, kb.papers[p].short if p in kb.papers else None) for p in sorted(papers)]
        shown = (kb.topics[topic], sections, anchorings, pending, as_of(kb, topic), graphs)
        out[timeline.page_of(topic)] = (*shown, names, [(k, brief_title(kb, k)) for k in sorted(briefs)])
    return out


def _make(site: Site, page: str) -> str:
    return timeline.page(site.kb, _topic(page))


TYPE = PageType(
    name="timeline",
    paths=lambda kb: [timeline.page_of(topic) for topic in kb.topics],
    make=_make,
    inputs=_inputs,  # see above
    compared=True,  # and a preview writes it only when it changed
    facts=_facts,
    edition=Edition.CURRENT,  # computed from every record
    describe=lambda kb, page: UI["meta.timeline"].format(topic=kb.topic_title(_topic(page))),
    parent="briefs/index.md",
    llms=_llms,
)
