"""The site, as data: which pages are generated and what they contain.

Pure (no MkDocs import): the plugin (:mod:`kb.site.plugin`) builds one :class:`Site` per build and
asks it for the generated files, stage by stage (:class:`~kb.site.pages.base.Stage`); every page
type says how its pages are made (:mod:`kb.site.pages`).  The macros module reaches the same site
through the plugin instance.
"""

from __future__ import annotations

from collections.abc import Callable

from kb.bib import keys as bib
from kb.knowledge.load import load_kb
from kb.site.pages import claim, inputs, type_of
from kb.site.pages.base import Options, PageType, Site, Stage
from kb.site.pages.rendercache import stale

__all__ = ["Options", "Site", "add_hand_written", "build_site", "check_finished", "make_files"]


def build_site(options: Options) -> Site:
    """Load the knowledge base (raising DataError with every problem) and lay out the pages.

    Pages that show backlinks (from hand-written pages too) are made by :func:`add_hand_written`,
    once those are collected; files that link to built addresses by :func:`make_files`."""
    preview = options.preview  # a preview manages its collections itself (kb.site.preview.serve)
    memo = preview.memo if preview else None
    kb = load_kb(  # freeze: to the end
        options.data_dir, memo=memo, freeze=preview is None, records=options.records, mentions=options.mentions
    )
    if preview:
        bib.carry(kb, preview.entries)  # the entries of unchanged papers, as the last build wrote them
    site = Site(kb, options)
    if options.records is not None:
        digests = options.records.digests
        for kind, records in (("brief", kb.briefs), ("paper", kb.papers)):
            for key, record in records.items():
                source = kb.sources.get((kind, key))
                digest = digests.get(source.path) if source else None
                if digest is not None:
                    site.tokens[id(record)] = digest
    kb.sources.clear()  # key positions serve diagnostics, all made by now: half a knowledge base's memory
    site.types = claim(kb)
    site.in_nav = {page for page, page_type in site.types.items() if page_type.generated and page_type.nav}
    _make(site, Stage.LOAD, defer=site.partial)  # a preview's choice comes later (add_hand_written)
    return site


def _make(site: Site, stage: Stage, only: frozenset[str] | None = None, defer: bool = False) -> None:
    """Make the pages of ``stage``: all, or those in ``only`` (a preview's choice; the others are
    laid out but kept as built), the render cache's finished pages taken as they are.  ``defer``:
    the pages of types that declare their inputs are laid out, and made or skipped once the preview
    has chosen (:func:`add_hand_written`)."""
    for page, page_type in site.types.items():
        if page_type.make is None or page_type.stage is not stage or page in site.finished:
            continue
        if (site.partial and not page_type.in_preview) or (only is not None and page not in only):
            site.skip([page])
        elif defer and page_type.inputs is not None:
            site.generated[page] = ""  # its place among the files, as a whole build gives it
            site.deferred.add(page)
        else:
            site.generated[page] = page_type.make(site, page)


def add_hand_written(site: Site, pages: dict[str, str]) -> None:
    """Mentions in hand-written pages (src uri -> Markdown) become backlinks: collect them,
    then make the pages of :attr:`Stage.PAGES`, each once."""
    from kb.knowledge.pagescan import scan_page

    found = {}
    for src_uri, text in sorted(pages.items()):
        mentions = scan_page(site.kb, src_uri, text)
        if mentions:
            found[src_uri] = mentions
    site.kb.add_pages_mentions(found)
    _take_finished(site)
    only = site.options.preview.choose(site.kb) if site.options.preview else None  # None: every page
    if only is not None:  # the pages made as the knowledge base loaded: made again only if chosen
        made = [p for p, t in site.types.items() if t.stage is Stage.LOAD and p in site.generated]
        site.skip(p for p in made if p not in only and p not in site.skipped and p not in site.deferred)
    for page in [p for p in site.types if p in site.deferred]:  # laid out as it loaded: made if chosen
        page_type = site.types[page]
        assert page_type.make is not None
        if only is None or page in only:
            site.generated[page] = page_type.make(site, page)
        else:
            site.skip([page])
    site.deferred.clear()
    _make(site, Stage.PAGES, only)
    if site.options.preview is not None:
        compared = {page for page, page_type in site.types.items() if page_type.compared}
        site.skipped.update(site.options.preview.unchanged(site.generated, site.skipped, compared))


def make_files(site: Site, page_url: Callable[[str], str]) -> dict[str, str | bytes]:
    """The files of :attr:`Stage.FILES` by site path (feeds); ``page_url(src)`` is the built URL of
    a page (from MkDocs)."""
    site.page_url = page_url
    before = set(site.generated)
    _make(site, Stage.FILES)
    return {page: site.generated[page] for page in site.generated.keys() - before}


def _take_finished(site: Site) -> None:
    """The pages the render cache has as this build would make them (:mod:`kb.site.pages.rendercache`):
    taken whole, no renderer runs for them."""
    cache = site.options.finished
    if cache is None or site.options.preview is not None:
        return
    o = site.options
    kept = inputs(site.kb, kept_only=True)
    cache.start(kept, site.tokens, repr((o.demos, o.topic, o.site_url, list(site.kb.demos.values()))), site.kb)
    for page in kept:
        done = cache.get(page)
        if done is not None:
            site.finished[page] = done
            site.generated[page] = done.content
            site.template_pages.discard(page)


def check_finished(site: Site, known: set[str]) -> None:
    """Pages from the render cache whose links name a page this build lacks are made again
    (the build then says which link is broken); ``known``: every file's source path."""
    for page in [p for p, done in site.finished.items() if stale(done, known)]:
        del site.finished[page]
        page_type: PageType = type_of(site, page)
        assert page_type.make is not None
        site.generated[page] = page_type.make(site, page)
