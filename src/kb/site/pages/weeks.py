"""The week in one page (``weeks/<2026-W36>.md``) and the index of weeks (``weeks/index.md``),
:mod:`kb.render.weeks` over the view :mod:`kb.knowledge.week`; both hung under 简报.

Editions: a week's page is made from that week's records (its briefs, and the briefs before them
for what was already anchored or raised): like a brief's page it is a record, the same in every
later build, so an edition leaves it out and lists it in its manifest, linking to the current
site's (``Edition.RECORD``).  The index of weeks grows with every week: ``Edition.CURRENT``.

Inputs: none declared (every change remakes both, compared before a preview writes them, like the
section timelines).  A week's page reads the briefs of its week and, for anchorings and claims,
every earlier brief of its topic, and the names of the papers, sections and briefs it links: a
declared input would be most of the knowledge base.  A year of briefs is 52 small pages without
a Markdown step, made in a fraction of a preview's time (docs/performance.md)."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.knowledge.week import week, weeks
from kb.messages import UI
from kb.render import weeks as render
from kb.site import search
from kb.site.pages.base import Edition, Llms, PageType, Site


def _id(page: str) -> str:
    return page.removeprefix("weeks/").removesuffix(".md")


def _facts(kb: KnowledgeBase, page: str) -> search.Facts:
    # the anchorings' table repeats names of papers and briefs (listing: not indexed)
    w = week(kb, _id(page))
    topics = tuple(kb.topic_title(tw.topic) for tw in w.topics) if w else ()
    date = w.monday.isoformat() if w else None
    return search.Facts(search.WEEK, topics, date, weight=search.WEIGHTS[search.INDEX], listing=True)


def _describe(kb: KnowledgeBase, page: str) -> str:
    w = week(kb, _id(page))
    assert w is not None, page
    return UI["meta.week"].format(title=render.title(w), news=render.news(w))


def _llms(kb: KnowledgeBase) -> list[Llms]:
    note = "per topic: papers anchored, main increments, claims resolved or dropped, sections grown"
    entries = [("Weeks", render.INDEX, "every week, newest first, with its counts")]
    entries += [(w.id, render.page_of(w.id), note) for w in reversed(weeks(kb))]
    return [Llms("The week in one page", entries)]


def _make(site: Site, page: str) -> str:
    return render.page(site.kb, _id(page))


TYPE = PageType(
    name="week",
    paths=lambda kb: [render.page_of(w.id) for w in weeks(kb)],
    make=_make,
    inputs=None,  # every change remakes it (see above)
    compared=True,  # and a preview writes it only when it changed
    facts=_facts,
    edition=Edition.RECORD,  # made from that week's records (see above)
    describe=_describe,
    parent="briefs/index.md",
    llms=_llms,
)

INDEX = PageType(
    name="weeks-index",
    paths=lambda kb: [render.INDEX],
    make=lambda site, page: render.index(site.kb),
    inputs=None,
    compared=True,
    facts=lambda kb, page: search.Facts(search.INDEX, weight=search.WEIGHTS[search.INDEX], listing=True),
    edition=Edition.CURRENT,  # a new week adds a line
    describe=lambda kb, page: UI["meta.weeks"].format(n=len(weeks(kb))),
    parent="briefs/index.md",
)
