"""The site's files for programs rather than readers: the papers' BibTeX library, the
machine-readable views with their schemas (``api/``, ``schema/``) and the feeds.  Not indexed by
search; computed from every record, so never frozen into an edition."""

from __future__ import annotations

from collections.abc import Collection

from kb import bib
from kb.data.jsonschema import site_files
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.views import api_files
from kb.render import feeds, indexes, weekfeed
from kb.site.pages import paper
from kb.site.pages.base import Edition, Llms, PageType, Site, Stage

BIB_FILE = indexes.BIB  # every paper as BibTeX, offered for download on the papers index
API_FILES = (  # the names of kb.knowledge.views.api_files and the data files' schemas
    "api/papers.json",
    "api/briefs.json",
    "api/backlog.json",
    "api/schema/papers.schema.json",
    "api/schema/briefs.schema.json",
    "api/schema/backlog.schema.json",
    # the data files' schemas (kb.data.jsonschema.site_files), for editors: a stable address
    "schema/topic.schema.json",
    "schema/paper.schema.json",
    "schema/brief.schema.json",
    "schema/demo.schema.json",
)
API_NOTES = {
    "api/papers.json": "every paper: status, first seen, anchors, open claims (schema: api/schema/papers.schema.json)",
    "api/briefs.json": "every brief: stated and computed figures, findings (schema: api/schema/briefs.schema.json)",
    "api/backlog.json": "what is still waiting: pending items, open claims, cards to write "
    "(schema: api/schema/backlog.schema.json)",
}


def _bibtex(site: Site, page: str) -> str:
    kb, store = site.kb, site.options.bibtex
    kept = {pid: site.tokens[id(p)] for pid, p in kb.papers.items() if id(p) in site.tokens}
    if store is not None:
        store.load(kb, kept)
    out = bib.export_library(kb, kb.papers.values())
    if store is not None:
        store.save(kb, kept)
    return out


BIBTEX = PageType(
    name="bibtex", paths=lambda kb: [BIB_FILE], make=_bibtex, facts=None, edition=Edition.CURRENT, in_preview=False
)


def _api(site: Site, page: str) -> str | bytes:
    made = site.shared.get("api")
    if made is None:
        made = site.shared["api"] = {**api_files(site.kb), **site_files()}
    return made[page]


API = PageType(
    name="api",
    in_preview=False,
    paths=lambda kb: list(API_FILES),
    make=_api,
    stage=Stage.PAGES,  # the views count backlinks, hand-written pages' too
    facts=None,
    edition=Edition.CURRENT,
    llms=lambda kb: [Llms("Machine-readable", [(path, path, note) for path, note in API_NOTES.items()])],
)


def _feed(site: Site, page: str) -> str | bytes:
    made = site.shared.get("feeds")
    if made is None:
        assert site.page_url is not None, "feeds are made once MkDocs knows every page's address"
        made = site.shared["feeds"] = {
            **feeds.feed_files(site.kb, site.options.site_url, site.page_url),
            **weekfeed.feed_files(site.kb, site.options.site_url, site.page_url),
        }
    return made[page]


FEEDS = PageType(
    name="feeds",
    in_preview=False,
    paths=lambda kb: [path for f in all_feeds(kb) for path in (f.atom, f.rss)],
    make=_feed,
    stage=Stage.FILES,
    facts=None,
    edition=Edition.CURRENT,
)


def all_feeds(kb: KnowledgeBase) -> list[feeds.FeedPaths]:
    """Each topic's feeds, then the weeks'."""
    weeks = weekfeed.week_feed(kb)
    return feeds.feeds_for(kb) + ([weeks] if weeks else [])


def feed_links(kb: KnowledgeBase) -> list[dict[str, str]]:
    """Feeds for the ``<link rel="alternate">`` tags of every page head (site-relative paths)."""
    return [{"title": f.title, "atom": f.atom, "rss": f.rss, "topic": f.topic} for f in all_feeds(kb)]


def feed_topics(kb: KnowledgeBase, src_uri: str) -> set[str] | None:
    """The topics whose feeds a page's head links (:func:`page_feeds`) where its path does not say
    them: a paper page's are the topics the paper is in (:func:`kb.site.pages.paper.topics`); None:
    the path says (a brief page's) or the page links every feed."""
    if src_uri.startswith(paper.PREFIX) and (pid := paper.id_of(src_uri)) in kb.papers:
        return paper.topics(kb, pid)
    return None


def page_feeds(
    links: list[dict[str, str]], src_uri: str, topics: Collection[str] | None = None
) -> list[dict[str, str]]:
    """The feeds of ``links`` a page's head links: a brief page (``briefs/<topic>/<key>.md``) its
    topic's and the weeks' (every topic's), a page given its ``topics`` (a paper page's:
    :func:`feed_topics`) theirs and the weeks', any other page every feed.  Each of a team's topics
    adds four links (some 500 bytes) to every page that links them all: thousands of brief and
    paper pages link their own."""
    parts = src_uri.split("/")
    if len(parts) == 3 and parts[0] == "briefs":
        topics = (parts[1],)
    if not topics:
        return links
    return [f for f in links if f["topic"] in topics or f["topic"] == weekfeed.ALL] or links
