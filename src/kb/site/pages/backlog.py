"""The backlog (``backlog.md``): what is still waiting, per topic, with the age chart of each
topic's pending items (:mod:`kb.render.backlog`, :mod:`kb.render.charts`)."""

from __future__ import annotations

from kb.knowledge.backlog import as_of, duplicate_cards, open_claims, pending_items
from kb.knowledge.index import KnowledgeBase
from kb.messages import UI
from kb.render import backlog, charts
from kb.site import search
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site, Stage


def make(site: Site, page: str) -> str:
    return backlog.page(site.kb) + "\n" + charts.backlog_section(site.kb)


def inputs(kb: KnowledgeBase) -> Inputs:
    """The backlog's own figures; the papers it names change with their pages (``follows``), the
    briefs it links by key show the date the key holds, the topics do not change in a preview build."""
    pending = [(topic, as_of(kb, topic), pending_items(kb, topic)) for topic in kb.topics]
    return {backlog.PAGE: (pending, kb.unknown_ids(), open_claims(kb), duplicate_cards(kb))}


def describe(kb: KnowledgeBase, page: str) -> str:
    return UI["meta.backlog"].format(n=sum(len(pending_items(kb, topic)) for topic in kb.topics))


TYPE = PageType(
    name="backlog",
    paths=lambda kb: [backlog.PAGE],
    make=make,
    stage=Stage.PAGES,  # it counts backlinks, hand-written pages' too
    inputs=inputs,
    follows=("paper",),
    compared=True,
    facts=lambda kb, page: search.Facts(search.BACKLOG, weight=search.WEIGHTS[search.INDEX], listing=True),
    edition=Edition.CURRENT,
    describe=describe,
    nav="nav.page.backlog",
    llms=lambda kb: [
        Llms("Optional", [("Backlog", backlog.PAGE, "items waiting to be anchored, open claims, cards to write")])
    ],
)
