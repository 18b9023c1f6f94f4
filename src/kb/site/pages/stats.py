"""The statistics page (``stats.md``): per topic, increments per section per week and the
backlog's ages, as charts with their data tables, and the feeds (:mod:`kb.render.charts`)."""

from __future__ import annotations

from kb.messages import UI
from kb.render import charts
from kb.site import search
from kb.site.pages.base import Edition, PageType, Site, Stage
from kb.site.pages.files import all_feeds


def make(site: Site, page: str) -> str:
    return charts.page(site.kb, all_feeds(site.kb))  # every feed: each topic's, the weeks'


TYPE = PageType(
    name="stats",
    paths=lambda kb: [charts.PAGE],
    make=make,
    stage=Stage.PAGES,
    compared=True,  # inputs None: every change remakes it
    facts=lambda kb, page: search.Facts(search.INDEX, weight=search.WEIGHTS[search.INDEX], listing=True),
    edition=Edition.CURRENT,
    describe=lambda kb, page: UI["meta.stats"],
    nav="nav.page.stats",
)
