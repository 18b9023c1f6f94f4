"""What a page type is (:class:`PageType`), and the site being laid out that page types make their
pages for (:class:`Site`, with its :class:`Options`).  Pure: no MkDocs import."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import Memo

if TYPE_CHECKING:  # pragma: no cover
    from kb.bib.entrystore import EntryStore
    from kb.bib.keys import Carried
    from kb.data.recordstore import RecordStore
    from kb.knowledge.mentionstore import MentionStore
    from kb.site.pages.rendercache import Finished, RenderCache
    from kb.site.search import Facts


class Stage(Enum):
    """When a generated page is made: as the knowledge base is loaded (``LOAD``); once the mentions in
    hand-written pages are known (``PAGES``: it shows backlinks or counts them); or when MkDocs knows
    every page's address (``FILES``: feeds carry absolute links to pages)."""

    LOAD = 1
    PAGES = 2
    FILES = 3


class Edition(Enum):
    """What a monthly edition does with a page (:mod:`kb.editions.freeze`, told by the page's
    ``<meta name="kb-edition">``): ``FROZEN`` keeps it as it was that month; ``CURRENT`` leaves it
    out (it is computed from every record: the current site's is the one to read); ``RECORD`` leaves
    it out too and lists it by title in the edition's manifest (a brief's or a paper's page, which
    the edition links to at the current site)."""

    FROZEN = "frozen"
    CURRENT = "current"
    RECORD = "record"


class Llms(NamedTuple):
    """A section of ``llms.txt``: its heading and its entries, each (title, page, note)."""

    heading: str
    entries: list[tuple[str, str, str]]


Inputs = Mapping[str, tuple[object, ...]]  # page -> what it is made from (compared between builds)


@dataclass(frozen=True)
class PageType:
    """One kind of page: every fact the site needs about it, in one place (:mod:`kb.site.pages`).

    ``paths`` are the source paths of its pages (``.md`` for pages, a file name for other files).
    A generated type has ``make`` (the page's content; Markdown-free HTML or the file's text) and a
    ``stage``; a hand-written one (``make`` None) claims pages of ``docs/`` for the facts below.
    ``inputs``: what each page is made from; a page is made again by ``kb preview`` when they change,
    and a ``kept`` type's page is taken from the render cache while they do not.  None: every
    change remakes it.  ``follows``: names of page types whose pages it summarises (a change of
    any of theirs remakes it).  ``compared``: a page made again is compared with the last build's
    before it is written.  ``facts``: what search shows and filters of a page (None: not indexed).
    ``describe``: its meta description.  ``nav``: the message key of its title in the site's
    navigation (listed in mkdocs.yml), or ``parent``: the page whose entry it hangs under.
    ``llms``: its sections of ``llms.txt``.  ``in_preview`` False: a file for programs, which a
    preview of some pages leaves as its first build made it."""

    name: str
    paths: Callable[[KnowledgeBase], Iterable[str]]
    facts: Callable[[KnowledgeBase, str], Facts] | None
    edition: Edition
    describe: Callable[[KnowledgeBase, str], str] | None = None
    make: Callable[[Site, str], str | bytes] | None = None
    stage: Stage = Stage.LOAD
    inputs: Callable[[KnowledgeBase], Inputs] | None = None
    follows: tuple[str, ...] = ()
    compared: bool = False
    kept: bool = False
    in_preview: bool = True  # False: a preview of some pages keeps the file as its first build made it
    nav: str | None = None
    parent: str | None = None
    llms: Callable[[KnowledgeBase], list[Llms]] | None = None

    @property
    def generated(self) -> bool:
        return self.make is not None


class Incremental(Protocol):
    """A build of some pages only (``kb preview``'s, :class:`kb.site.preview.Preview`)."""

    memo: Memo
    entries: Carried  # each paper's BibTeX entry, kept between builds

    @property
    def partial(self) -> bool: ...

    def choose(self, after: KnowledgeBase) -> frozenset[str] | None: ...

    def unchanged(self, generated: Mapping[str, str | bytes], skipped: set[str], compared: set[str]) -> set[str]: ...


@dataclass
class Options:
    data_dir: Path
    demos: bool = False
    site_url: str = ""
    topic: str | None = None  # default topic of the macros; None: the first topic
    site_name: str = ""  # the site's name (mkdocs.yml `site_name`), for llms.txt; "": the catalogue's site.name
    preview: Incremental | None = None  # `kb preview`: a build of the pages a change affects (kb.site.preview)
    records: RecordStore | None = None  # parsed data files kept between builds (not by a preview)
    mentions: MentionStore | None = None  # and their mentions (needs records)
    bibtex: EntryStore | None = None  # and the papers' BibTeX entries (needs records)
    finished: RenderCache | None = None  # brief and paper pages kept between builds (needs records)
    templates: Path | None = None  # where the theme's compiled templates are kept between builds


@dataclass
class Site:
    kb: KnowledgeBase
    options: Options
    generated: dict[str, str | bytes] = field(default_factory=dict)  # src_uri -> content (feeds: bytes)
    template_pages: set[str] = field(default_factory=set)  # generated pages that run macros
    in_nav: set[str] = field(default_factory=set)
    skipped: set[str] = field(default_factory=set)  # laid out but not made (kept as the preview built them)
    deferred: set[str] = field(default_factory=set)  # laid out, made once the preview has chosen (layout)
    finished: dict[str, Finished] = field(default_factory=dict)  # pages taken whole from the render cache
    tokens: dict[int, str] = field(default_factory=dict)  # id of a data record -> its file's digest
    types: dict[str, PageType] = field(default_factory=dict)  # src_uri -> its page type (generated and claimed)
    shared: dict[str, dict[str, str | bytes]] = field(default_factory=dict)  # what a type makes its files from
    page_url: Callable[[str], str] | None = None  # src_uri -> URL, once MkDocs knows every file (Stage.FILES)

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
