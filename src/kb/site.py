"""The site, as data: which pages are generated and what they contain.

Pure (no MkDocs import): the adapter in ``hooks/`` asks this module for the
generated files and for the knowledge base the macros read.  It is built once
per build and kept in :data:`_CURRENT` so that the hooks module and the macros
module (loaded separately by MkDocs) share one knowledge base.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .index import KnowledgeBase, brief_page, load_kb, paper_page
from .render import backlog as backlog_render
from .render import indexes

BRIEF_KEY = re.compile(r"^[a-z0-9][a-z0-9-]*/\d{4}-\d{2}-\d{2}-[a-z0-9]+$")
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off", ""}


def flag(value: object, env_name: str, environ=os.environ) -> bool:
    """A boolean option from mkdocs.yml ``extra``, overridable by an environment variable."""
    raw = environ.get(env_name)
    if raw is not None:
        low = raw.strip().lower()
        if low in TRUE:
            return True
        if low in FALSE:
            return False
        raise ValueError(f"{env_name} must be one of 1/true/yes/on or 0/false/no/off, got {raw!r}")
    return bool(value)


@dataclass
class Options:
    data_dir: Path
    demos: bool = False
    site_url: str = ""


@dataclass
class Site:
    kb: KnowledgeBase
    options: Options
    generated: dict[str, str] = field(default_factory=dict)  # src_uri -> content
    template_pages: set[str] = field(default_factory=set)  # generated pages that run macros
    in_nav: set[str] = field(default_factory=set)


_CURRENT: Site | None = None


def current() -> Site:
    if _CURRENT is None:
        raise RuntimeError("the knowledge base is not loaded: is hooks/kb_site.py listed under hooks: in mkdocs.yml?")
    return _CURRENT


def build_site(options: Options) -> Site:
    """Load the knowledge base (raising DataError with every problem) and lay out the pages."""
    global _CURRENT
    kb = load_kb(options.data_dir)
    site = Site(kb, options)
    for key in kb.briefs:
        if not BRIEF_KEY.match(key):  # pragma: no cover - guaranteed by the loader's file-name rule
            raise ValueError(f"unexpected brief key {key!r}")
        src = brief_page(key)
        site.generated[src] = f'---\nrender_macros: true\n---\n\n{{{{ brief("{key}") }}}}\n'
        site.template_pages.add(src)
    site.generated[indexes.BRIEFS] = indexes.briefs(kb)
    site.generated[indexes.PAPERS] = indexes.papers(kb)
    site.generated[backlog_render.PAGE] = backlog_render.render(kb)
    site.in_nav.update({indexes.BRIEFS, indexes.PAPERS, backlog_render.PAGE})
    for pid in kb.papers:
        site.generated[paper_page(pid)] = _paper(kb, pid, options)
    _CURRENT = site
    return site


def _paper(kb: KnowledgeBase, pid: str, options: Options) -> str:
    from .render import paper as paper_render

    bibtex = None
    try:
        from . import bib
    except ImportError:  # pragma: no cover - bib module not installed
        bib = None
    if bib is not None and hasattr(bib, "entry_for"):
        bibtex = bib.entry_for(kb.papers[pid])
    return paper_render.render(kb, pid, bibtex=bibtex)
