"""A topic's section timelines (``timeline/<topic>.md``, :mod:`kb.render.timeline`): each section of
the living document over time.  Computed from every brief of the topic: made again by every change,
never frozen into an edition; hung under 简报, whose records it orders by section."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.messages import UI
from kb.render import timeline
from kb.site import search
from kb.site.pages.base import Edition, Llms, PageType, Site


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


def _make(site: Site, page: str) -> str:
    return timeline.page(site.kb, _topic(page))


TYPE = PageType(
    name="timeline",
    paths=lambda kb: [timeline.page_of(topic) for topic in kb.topics],
    make=_make,
    inputs=None,  # every change remakes it
    compared=True,  # and a preview writes it only when it changed
    facts=_facts,
    edition=Edition.CURRENT,  # computed from every record
    describe=lambda kb, page: UI["meta.timeline"].format(topic=kb.topic_title(_topic(page))),
    parent="briefs/index.md",
    llms=_llms,
)
