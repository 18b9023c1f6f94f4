"""The two index pages: every brief by month (``briefs/index.md``) and every paper
(``papers/index.md``), :mod:`kb.render.indexes`."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.messages import UI
from kb.render import indexes
from kb.site import search
from kb.site.pages.base import Edition, PageType, Site, Stage


def _index_facts(kb: KnowledgeBase, page: str) -> search.Facts:
    return search.Facts(search.INDEX, weight=search.WEIGHTS[search.INDEX], listing=True)


BRIEFS = PageType(
    name="briefs-index",
    paths=lambda kb: [indexes.BRIEFS],
    make=lambda site, page: indexes.briefs(site.kb),
    facts=_index_facts,
    edition=Edition.CURRENT,
    compared=True,  # inputs None: every change remakes it (a new figure of any brief is in its rows)
    describe=lambda kb, page: UI["meta.briefs"].format(n=len(kb.briefs)),
    nav="nav.page.briefs",
)


def _papers(site: Site, page: str) -> str:
    return indexes.papers(site.kb)  # its mention counts include hand-written pages' (Stage.PAGES)


PAPERS = PageType(
    name="papers-index",
    paths=lambda kb: [indexes.PAPERS],
    make=_papers,
    stage=Stage.PAGES,
    inputs=lambda kb: {indexes.PAPERS: ()},  # what it shows of each paper is what the paper pages show
    follows=("paper",),
    compared=True,
    facts=_index_facts,
    edition=Edition.CURRENT,
    describe=lambda kb, page: UI["meta.papers"].format(n=len(kb.papers)),
    nav="nav.page.papers",
)
