"""The site, as data: which pages are generated and what they contain.

Pure (no MkDocs import): the plugin (:mod:`kb.site.plugin`) builds one
:class:`Site` per build and asks it for the generated files; the macros module
reaches the same site through the plugin instance.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kb.bib.entrystore import EntryStore
from kb.data.recordstore import RecordStore
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.knowledge.load import load_kb
from kb.knowledge.mentionstore import MentionStore
from kb.messages import t
from kb.render import backlog as backlog_render
from kb.render import indexes
from kb.site.rendercache import Finished, RenderCache, stale

if TYPE_CHECKING:  # pragma: no cover
    from kb.site.preview import Preview

BIB_FILE = "references.bib"  # every paper as BibTeX, offered for download on the papers index
LLMS_FILE = "llms.txt"  # an index of the site for automated readers, pointing at the api/ files
API_FILES = (  # the names of kb.knowledge.views.api_files (a preview build keeps them as built)
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
BRIEF_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*/\d{4}-\d{2}-\d{2}-[a-z0-9]+$")


@dataclass
class Options:
    data_dir: Path
    demos: bool = False
    site_url: str = ""
    topic: str | None = None  # default topic of the macros; None: the first topic
    site_name: str = ""  # the site's name (mkdocs.yml `site_name`), for llms.txt; "": the catalogue's site.name
    preview: Preview | None = None  # `kb preview`: a build of the pages a change affects (kb.site.preview)
    records: RecordStore | None = None  # parsed data files kept between builds (not by a preview)
    mentions: MentionStore | None = None  # and their mentions (needs records)
    bibtex: EntryStore | None = None  # and the papers' BibTeX entries (needs records)
    finished: RenderCache | None = None  # brief and paper pages kept between builds (needs records)
    templates: Path | None = None  # where the theme's compiled templates are kept between builds


@dataclass
class Site:
    kb: KnowledgeBase
    options: Options
    generated: dict[str, str] = field(default_factory=dict)  # src_uri -> content
    template_pages: set[str] = field(default_factory=set)  # generated pages that run macros
    in_nav: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)  # laid out but not made (kept as the preview built them)
    finished: dict[str, Finished] = field(default_factory=dict)  # pages taken whole from the render cache
    tokens: dict[int, str] = field(default_factory=dict)  # id of a data record -> its file's digest

    @property
    def partial(self) -> bool:
        """A preview build of some pages only (:class:`kb.site.preview.Preview`)."""
        return self.options.preview is not None and self.options.preview.partial

    def skip(self, paths: Iterable[str]) -> None:
        """Lay out ``paths`` without making them: MkDocs knows them (links resolve), never writes them."""
        for path in paths:
            self.generated[path] = ""
            self.skipped.add(path)

    @property
    def default_topic(self) -> str:
        """The topic macros use when a page names none."""
        if self.options.topic:
            return self.options.topic
        return next(iter(self.kb.topics), "")


def build_site(options: Options) -> Site:
    """Load the knowledge base (raising DataError with every problem) and lay out the pages.

    Paper pages, the papers index, the backlog and the statistics list backlinks, some from hand-written
    pages: :func:`add_hand_written` renders them, once, after collecting those."""
    preview = options.preview  # a preview manages its collections itself (kb.site.serve)
    memo = preview.memo if preview else None
    kb = load_kb(  # freeze: to the end
        options.data_dir, memo=memo, freeze=preview is None, records=options.records, mentions=options.mentions
    )
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
    for key in kb.briefs:
        if not BRIEF_KEY.match(key):  # pragma: no cover - guaranteed by the loader's file-name rule
            raise ValueError(f"unexpected brief key {key!r}")
        _brief_call(site, key)
    site.generated[indexes.BRIEFS] = indexes.briefs(kb)
    site.in_nav.update({indexes.BRIEFS, indexes.PAPERS, backlog_render.PAGE})
    from kb import bib

    if site.partial:
        site.skip([BIB_FILE])
        return site
    kept = {pid: site.tokens[id(p)] for pid, p in kb.papers.items() if id(p) in site.tokens}
    if options.bibtex is not None:
        options.bibtex.load(kb, kept)
    site.generated[BIB_FILE] = bib.export_library(kb, kb.papers.values())
    if options.bibtex is not None:
        options.bibtex.save(kb, kept)
    return site


def _brief_call(site: Site, key: str) -> None:
    """A brief's page: a template page calling the ``brief`` macro."""
    src = brief_page(key)
    site.generated[src] = f'---\nrender_macros: true\n---\n\n{{{{ brief("{key}") }}}}\n'
    site.template_pages.add(src)


def asset_base(page_src: str) -> str:
    """URL of the demo assets relative to the page built from ``page_src`` (directory URLs)."""
    from kb.demos import SITE_DIR

    stem = page_src[:-3] if page_src.endswith(".md") else page_src
    parts = stem.split("/")
    depth = len(parts) - (1 if parts[-1] == "index" else 0)
    return posixpath.join(*([".."] * depth + [SITE_DIR])) if depth else SITE_DIR


def demos_html(site: Site, page_src: str, paper: str | None = None, section: str | None = None) -> str:
    """Demo blocks for a paper or a section, or "" when demos are off or none are declared."""
    if not site.options.demos:
        return ""
    from kb.demos import for_paper, for_section
    from kb.demos.render import demo_section

    demos = list(site.kb.demos.values())
    chosen = for_paper(demos, paper) if paper else for_section(demos, section or "")
    return demo_section(chosen, asset_base(page_src)) if chosen else ""


def _paper(site: Site, pid: str) -> str:
    from kb import bib
    from kb.render import paper as paper_render

    kb = site.kb
    return paper_render.page(
        kb, pid, bibtex=bib.entry_for(kb.papers[pid], kb), demos=demos_html(site, paper_page(pid), paper=pid)
    )


def add_hand_written(site: Site, pages: dict[str, str]) -> None:
    """Mentions in hand-written pages (src uri -> Markdown) become backlinks: collect them,
    then render the pages that list mentions (papers, backlog, statistics), each once."""
    from kb.knowledge.pagescan import scan_page

    found = {}
    for src_uri, text in sorted(pages.items()):
        mentions = scan_page(site.kb, src_uri, text)
        if mentions:
            found[src_uri] = mentions
    site.kb.add_pages_mentions(found)
    _take_finished(site)
    only = site.options.preview.choose(site.kb) if site.options.preview else None  # None: every page
    if only is not None:
        site.skip(p for p in site.template_pages if p not in only)  # brief pages: their macro runs when built
    for page, render in ((indexes.PAPERS, indexes.papers), (backlog_render.PAGE, backlog_render.page)):
        if only is None or page in only:
            site.generated[page] = render(site.kb)  # their mention counts include the pages'
        else:
            site.skip([page])  # what it shows is as the last build showed it
    for pid in site.kb.papers:
        if paper_page(pid) in site.finished:
            site.generated[paper_page(pid)] = site.finished[paper_page(pid)].content
        elif only is None or paper_page(pid) in only:
            site.generated[paper_page(pid)] = _paper(site, pid)
        else:
            site.skip([paper_page(pid)])
    _add_charts(site)  # feeds and charts: see the end of this module
    if site.partial:  # kept as the preview's first build wrote them
        site.skip([*API_FILES, LLMS_FILE])
    else:
        _add_machine_readable(site)  # after the mentions: the views count backlinks
    if site.options.preview is not None:
        site.skipped.update(site.options.preview.unchanged(site.generated, site.skipped))


def _take_finished(site: Site) -> None:
    """The brief and paper pages the render cache has as this build would make them
    (:mod:`kb.site.rendercache`): taken whole, no renderer runs for them."""
    cache = site.options.finished
    if cache is None or site.options.preview is not None:
        return
    o = site.options
    cache.start(site.kb, site.tokens, repr((o.demos, o.topic, o.site_url, list(site.kb.demos.values()))))
    for key in site.kb.briefs:
        done = cache.get(brief_page(key))
        if done is not None:
            site.finished[brief_page(key)] = done
            site.generated[brief_page(key)] = done.content
            site.template_pages.discard(brief_page(key))
    for pid in site.kb.papers:
        done = cache.get(paper_page(pid))
        if done is not None:
            site.finished[paper_page(pid)] = done


def check_finished(site: Site, known: set[str]) -> None:
    """Pages from the render cache whose links name a page this build lacks are made again
    (the build then says which link is broken); ``known``: every file's source path."""
    for page in [p for p, done in site.finished.items() if stale(done, known)]:
        del site.finished[page]
        if page.startswith("papers/"):
            site.generated[page] = _paper(site, page[len("papers/") : -len(".md")])
        else:
            _brief_call(site, page[len("briefs/") : -len(".md")])


def _add_machine_readable(site: Site) -> None:
    """``api/papers.json``, ``api/briefs.json``, ``api/backlog.json`` with their JSON Schemas
    (``api/schema/*.schema.json``), and ``llms.txt``."""
    from kb.data.jsonschema import site_files
    from kb.knowledge.views import api_files
    from kb.render.llms import llms_txt

    site.generated.update(api_files(site.kb))
    site.generated.update(site_files())
    site.generated[LLMS_FILE] = llms_txt(site.kb, site.options.site_name or t("site.name"), site.options.site_url)


# --------------------------------------------------------------------------- feeds and charts


def _add_charts(site: Site) -> None:
    """The generated "统计" page (charts, feed links) and the age chart under the backlog."""
    from kb.render import charts, feeds

    site.generated[charts.PAGE] = charts.page(site.kb, feeds.feeds_for(site.kb))
    site.in_nav.add(charts.PAGE)
    site.generated[backlog_render.PAGE] += "\n" + charts.backlog_section(site.kb)


def feed_files(site: Site, page_url: Callable[[str], str]) -> dict[str, bytes]:
    """The Atom and RSS feeds by site path; ``page_url(src)`` is the built URL of a page (from MkDocs)."""
    from kb.render import feeds

    if site.partial:  # kept as the preview's first build wrote them
        paths = [p for f in feeds.feeds_for(site.kb) for p in (f.atom, f.rss)]
        site.skipped.update(paths)
        return dict.fromkeys(paths, b"")
    return feeds.feed_files(site.kb, site.options.site_url, page_url)


def feed_links(site: Site) -> list[dict[str, str]]:
    """Feeds for the ``<link rel="alternate">`` tags of every page head (site-relative paths)."""
    from kb.render import feeds

    return [{"title": f.title, "atom": f.atom, "rss": f.rss} for f in feeds.feeds_for(site.kb)]
