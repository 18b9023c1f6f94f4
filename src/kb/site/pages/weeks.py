"""The week in one page (``weeks/<2026-W36>.md``) and the index of weeks (``weeks/index.md``),
:mod:`kb.render.weeks` over the view :mod:`kb.knowledge.week`; both hung under 简报.

Editions: a week's page is made from that week's records (its briefs, and the briefs before them
for what was already anchored or raised): like a brief's page it is a record, which later briefs
leave as it is (but for its link to the next week), so an edition leaves it out and lists it in its
manifest, linking to the current site's (``Edition.RECORD``).  The index of weeks grows with every
week: ``Edition.CURRENT``.

Inputs: a week's page is made from its view (kb.knowledge.week: what its briefs brought), the
weeks before and after it (its links) and what it shows of other records (:func:`kb.render.weeks.
shown`: names of papers, sections, briefs and topics, the papers its arXiv ids link); a preview
remakes it when one of them changes: editing today's brief remakes this week's page, not a year's
52 (``scripts/bench_weeks.py`` measures what all of them cost).  The index of weeks lists every
week's counts: no inputs declared, remade by every change and compared before written."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.knowledge.week import week, weeks
from kb.messages import UI
from kb.render import weeks as render
from kb.site import search
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site


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


def _inputs(kb: KnowledgeBase) -> Inputs:
    every = weeks(kb)
    out: dict[str, tuple[object, ...]] = {}
    for i, w in enumerate(every):
        around = (every[i - 1].id if i else None, every[i + 1].id if i + 1 < len(every) else None)
        out[render.page_of(w.id)] = (w, around, render.shown(kb, w))
    return out


def _make(site: Site, page: str) -> str:
    return render.page(site.kb, _id(page))


TYPE = PageType(
    name="week",
    paths=lambda kb: [render.page_of(w.id) for w in weeks(kb)],
    make=_make,
    inputs=_inputs,  # see above
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
    inputs=None,  # every change remakes it (see above)
    compared=True,  # and a preview writes it only when it changed
    facts=lambda kb, page: search.Facts(search.INDEX, weight=search.WEIGHTS[search.INDEX], listing=True),
    edition=Edition.CURRENT,  # a new week adds a line
    describe=lambda kb, page: UI["meta.weeks"].format(n=len(weeks(kb))),
    parent="briefs/index.md",
)
