"""Every kind of page the site has, in one registry (:data:`REGISTRY`), each declared once by one
:class:`~kb.site.pages.base.PageType` in its own module: its paths, how it is made and when, what it
is made from, its search facts, its edition policy, its description, its place in the navigation and
in ``llms.txt``.  The layout (:mod:`kb.site.pages.layout`), the preview (:mod:`kb.site.preview`), the
render cache, search marking, descriptions, editions and ``llms.txt`` all read the registry; no other
list of pages keyed by their paths exists.  A new page type is one module and one line below."""

from __future__ import annotations

from typing import NamedTuple

from kb.knowledge.index import KnowledgeBase
from kb.knowledge.views import site_path
from kb.messages import t
from kb.site.pages import backlog, brief, files, handwritten, indexes, paper, stats, timeline, weeks
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site, Stage

__all__ = ["REGISTRY", "Edition", "Inputs", "Llms", "PageType", "Site", "Snapshot", "Stage", "affected", "claim"]
__all__ += ["inputs", "snapshot", "type_of"]

LLMS_FILE = "llms.txt"


def _llms(site: Site, page: str) -> str:
    """``llms.txt``: an index of the site for language models and other automated readers (the
    llms.txt convention: a title, a one-line summary, then sections of links with a note each), from
    every page type's sections.  Links are absolute when the site has a ``site_url``."""
    url = site.options.site_url
    base = url.rstrip("/") + "/" if url else ""

    def link(title: str, path: str, note: str = "") -> str:
        clean = " ".join(title.replace("[", "(").replace("]", ")").split())
        target = site_path(path) if path.endswith(".md") else path
        return f"- [{clean}]({base}{target})" + (f": {' '.join(note.split())}" if note else "")

    out = [
        f"# {site.options.site_name or t('site.name')}",
        "",
        "> Daily briefs on LLM-inference research (new papers, their arXiv ids, credibility, key numbers and "
        "where they belong in the living survey), the living survey documents, one page per paper, and a backlog.",
    ]
    for page_type in REGISTRY:
        for section in page_type.llms(site.kb) if page_type.llms else []:
            out += ["", f"## {section.heading}", ""]
            out += [link(*entry) for entry in section.entries]
    return "\n".join(out) + "\n"


LLMS = PageType(
    name="llms",
    paths=lambda kb: [LLMS_FILE],
    make=_llms,
    stage=Stage.PAGES,
    facts=None,
    edition=Edition.CURRENT,
    in_preview=False,
)

REGISTRY: tuple[PageType, ...] = (
    files.API,  # first in llms.txt
    handwritten.HOME,
    handwritten.LIVING,
    timeline.TYPE,
    weeks.TYPE,  # the week in one page, and the index of weeks
    weeks.INDEX,
    brief.TYPE,
    indexes.BRIEFS,
    paper.TYPE,
    indexes.PAPERS,
    backlog.TYPE,
    stats.TYPE,
    handwritten.GLOSSARY,
    handwritten.PROJECT,
    files.BIBTEX,
    files.FEEDS,
    LLMS,
)


def claim(kb: KnowledgeBase) -> dict[str, PageType]:
    """Every page the page types know, generated and hand-written, with its type."""
    return {page: page_type for page_type in REGISTRY for page in page_type.paths(kb)}


def type_of(site: Site, page: str) -> PageType:
    """The type of a page of the site; a hand-written page no type claims is about the site."""
    return site.types.get(page, handwritten.ABOUT)


def inputs(kb: KnowledgeBase, kept_only: bool = False) -> Inputs:
    """What each page is made from, for the page types that say (``kept_only``: those whose pages
    the render cache keeps)."""
    out: dict[str, tuple[object, ...]] = {}
    for page_type in REGISTRY:
        if page_type.inputs is not None and (page_type.kept or not kept_only):
            out.update(page_type.inputs(kb))
    return out


class Snapshot(NamedTuple):
    """What a build's generated pages were made from: each page's type (by name) and inputs."""

    types: dict[str, str]
    inputs: Inputs


def snapshot(kb: KnowledgeBase) -> Snapshot:
    return Snapshot({page: t.name for page, t in claim(kb).items() if t.generated and t.in_preview}, inputs(kb))


def affected(before: Snapshot, after: Snapshot) -> frozenset[str]:
    """The generated pages to make again between two builds: those whose inputs differ, the pages of
    types without inputs, and those of types that follow a type with a page that changed, came or went."""
    changed = {page for page, made in after.inputs.items() if before.inputs.get(page) != made}
    gone = before.types.keys() - after.types.keys()
    moved = {after.types[page] for page in changed if page in after.types} | {before.types[page] for page in gone}
    out = set(changed)
    by_name = {page_type.name: page_type for page_type in REGISTRY}
    for page, name in after.types.items():
        page_type = by_name[name]
        if page_type.inputs is None or set(page_type.follows) & moved:
            out.add(page)
    return frozenset(out)
