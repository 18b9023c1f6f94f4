"""Built pages kept between builds, by a digest of everything their output depends on.

A page's output (the theme's HTML around its content) is a pure function of: the
project's code and configuration (mkdocs.yml, a theme custom_dir overrides/, the kb package with its theme, MkDocs and
Material), the navigation, and the page's own content, title, metadata, address,
place in the navigation and neighbours.  :class:`PageCache` keys each page on a
digest of exactly those; an unchanged page is written from the cache instead of
going through the theme's templates again, so adding a brief re-templates only
the pages that changed.  Entries no build used are removed at the end of the build,
so the cache stays the size of one site.  Pure (no MkDocs import): the plugin passes
the parts in.

The cache lives outside the checkout, in the user's cache directory (``$XDG_CACHE_HOME``, else
``~/.cache``), under ``kb/<digest of the project's absolute path>/`` (:func:`location`): the pages
in ``pages/``, the parsed data files in ``records/`` (:mod:`kb.data.recordstore`), the finished brief and paper
pages in ``finished/`` (:mod:`kb.site.pages.rendercache`), the mentions of each data record in
``mentions.json`` (:mod:`kb.knowledge.mentionstore`), the papers' BibTeX entries in
``bibtex.json`` (:mod:`kb.bib.entrystore`): each is JSON or text, carries the key it was stored
under and is checked against it before use.  Only the theme's templates compiled by Jinja
(``templates/``, :func:`kb.site.theme.install`) are code, which is why the directory is the
user's own.  A pull request can write anywhere in the checkout, so the cache is never there
(nothing reads the checkout's ``.cache/``): ``KB_CACHE`` names
another directory (one inside the project is refused: :func:`location`), ``KB_CACHE=off``
turns it all off (CI builds so).  A file git tracks under ``.cache/`` (where the cache used to
be) is a ``kb validate`` error (:mod:`kb.site.tracked`).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kb.data.recordstore import RecordStore, write_entry

if TYPE_CHECKING:  # pragma: no cover
    from kb.site.pages.layout import Options
    from kb.site.pages.rendercache import RenderCache

ENV = "KB_CACHE"
TEMPLATE = "kb-cached.html"  # the theme's: prints page.content, the whole page from the cache (or kb.site.plugin.frame)
IN_CHECKOUT = ".cache"  # where the cache was once: a file git tracks there is an error (kb.site.tracked)
PAGES, RECORDS, FINISHED = "pages", "records", "finished"  # its parts
MENTIONS, BIBTEX = "mentions.json", "bibtex.json"  # kb.knowledge.mentionstore, kb.bib.entrystore
TEMPLATES = "templates"  # the theme's templates compiled by Jinja (kb.site.theme.install): code, never in a checkout
OFF = ("off", "0", "false", "no")


def user_cache() -> Path:
    """The user's cache directory: ``$XDG_CACHE_HOME`` (when absolute), else ``~/.cache``."""
    given = os.environ.get("XDG_CACHE_HOME", "")
    return Path(given) if os.path.isabs(given) else Path.home() / ".cache"


def location(root: Path) -> Path | None:
    """Where the cache lives for the project at ``root`` (:data:`PAGES` and the others are in
    it): ``KB_CACHE`` (relative to ``root``), else ``<user cache>/kb/<digest of root's absolute
    path>``; None when it is turned off, or refused: a directory inside ``root``, where a pull
    request can write, is never used (a warning says so, which fails a strict build)."""
    value = os.environ.get(ENV, "").strip()
    if value.lower() in OFF:
        return None
    project = root.resolve()
    if value:
        path = (project / value).resolve()  # an absolute value stays as it is
    else:
        path = user_cache().resolve() / "kb" / hashlib.sha256(os.fsencode(project)).hexdigest()[:32]
    if path.is_relative_to(project):
        _refuse(f"{ENV}={value}" if value else "the user's cache directory ($XDG_CACHE_HOME, else ~/.cache)", path)
        return None
    return path


@functools.cache
def _refuse(named: str, path: Path) -> None:
    """Say once per process that the cache directory ``path`` (from ``named``) is refused."""
    logging.getLogger("mkdocs.plugins.kb").warning(
        "kb: %s: the cache directory %s is inside the project, where a pull request can write: "
        "the build cache is off; set %s to a directory outside the project, or %s=off",
        named,
        path,
        ENV,
        ENV,
    )


def records(root: Path) -> RecordStore | None:
    """The parsed data files kept between builds (:mod:`kb.data.recordstore`), in :data:`RECORDS`."""
    where = location(root)
    return None if where is None else RecordStore(where / RECORDS)


def keep(options: Options, root: Path) -> None:
    """Give a build what it keeps between builds, unless the cache is off: the parsed data files
    (:func:`records`), their mentions (:mod:`kb.knowledge.mentionstore`) and BibTeX entries
    (:mod:`kb.bib.entrystore`), the finished brief and paper pages (:func:`finished`), the
    theme's compiled templates."""
    from kb.bib.entrystore import EntryStore  # a build's: kb validate reads only the records
    from kb.knowledge.mentionstore import MentionStore

    where = location(root)
    if where is not None:
        options.records, options.finished = records(root), finished(root)
        options.mentions, options.bibtex = MentionStore(where / MENTIONS), EntryStore(where / BIBTEX)
        options.templates = where / TEMPLATES


def digest(parts: Iterable[str | bytes]) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def tree_digest(paths: Iterable[Path]) -> str:
    """The files under ``paths`` (files or directories), by relative name and bytes."""
    parts: list[str | bytes] = []
    for base in paths:
        files = sorted(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else [base]
        for path in files:
            if path.exists() and "__pycache__" not in path.parts:
                parts += [path.name if path == base else path.relative_to(base).as_posix(), path.read_bytes()]
    return digest(parts)


def code_salt(root: Path) -> str:
    """The code (this package, MkDocs, Material, the theme overrides) and the configuration."""
    from importlib.metadata import version

    code = tree_digest([Path(__file__).resolve().parents[1]])  # the kb package
    config = tree_digest([root / "mkdocs.yml", root / "overrides", root / "hooks"])
    return digest([code, config, f"{version('mkdocs')} {version('mkdocs-material')}"])


def salt(root: Path, site_url: str, nav: str, feeds: object) -> str:
    """What every page's output depends on besides its own inputs: the code and configuration
    (:func:`code_salt`), the navigation and the feeds in every head."""
    import json

    return digest([code_salt(root), site_url, nav, json.dumps(feeds, sort_keys=True, ensure_ascii=False)])


def finished(root: Path) -> RenderCache | None:
    """Brief and paper pages kept between builds (:mod:`kb.site.pages.rendercache`), in :data:`FINISHED`."""
    from kb.site.pages.rendercache import RenderCache  # the page types' registry: a build's alone

    where = location(root)
    return None if where is None else RenderCache(where / FINISHED, code_salt(root))


def page_parts(
    src: str,
    url: str,
    title: str,
    meta: Mapping[str, object],
    content: str,
    toc: str,
    neighbours: object,
    facts: object,
) -> list[str]:
    """A page's own inputs to the theme and what the search index's marks on it say (``facts``:
    :attr:`kb.site.pages.base.PageType.facts`), as strings for :meth:`PageCache.key`."""
    import json

    return [
        src,
        url,
        title,
        json.dumps(meta, sort_keys=True, ensure_ascii=False, default=str),
        content,
        toc,
        repr(neighbours),
        repr(facts),
    ]


class PageCache:
    """Built pages by key; :meth:`prune` keeps only what this build used.  A page is looked up by
    its parts (:meth:`look`) before the theme runs and, when it was not there, stored once it is
    finished (:meth:`keep`)."""

    def __init__(self, root: Path, salt: str) -> None:
        self.root = root
        self.salt = salt
        self.used: set[str] = set()
        self.hits = 0
        self.misses = 0
        self._pending: dict[str, str] = {}  # page -> key, of the pages this build makes anew
        self._kept: set[str] = set()  # the pages this build wrote from the cache

    def look(self, page: str, parts: Iterable[str]) -> str | None:
        """The output kept for the page with these parts; ``None``: it is made, then :meth:`keep`."""
        key = self.key(parts)
        built = self.get(key)
        if built is None:
            self._pending[page] = key
        else:
            self._kept.add(page)
        return built

    def from_cache(self, page: str) -> bool:
        """Whether this build wrote the page from the cache (its output is final already)."""
        return page in self._kept

    def keep(self, page: str, output: str) -> None:
        """Store the finished output of a page :meth:`look` did not find."""
        key = self._pending.pop(page, None)
        if key is not None:
            self.put(key, output)

    def key(self, parts: Iterable[str]) -> str:
        return digest([self.salt, *parts])

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.html"

    def get(self, key: str) -> str | None:
        """The page kept under ``key``: an entry is its key on the first line, then the page; one
        that is absent, unreadable or of another key is a miss."""
        self.used.add(key)
        try:
            kept, _, text = self._path(key).read_text("utf-8").partition("\n")
        except (OSError, UnicodeDecodeError):
            kept = ""
        if kept != key:
            self.misses += 1
            return None
        self.hits += 1
        return text

    def put(self, key: str, output: str) -> None:
        """Store atomically, as the other caches do (:func:`kb.data.recordstore.write_entry`)."""
        self.used.add(key)
        write_entry(self._path(key), f"{key}\n{output}".encode())

    def finish(self) -> tuple[int, int, int]:
        """At the end of a build: :meth:`prune`; how many pages came from the cache, how many were
        built anew, how many old entries were removed."""
        return self.hits, self.misses, self.prune()

    def prune(self) -> int:
        """Remove the entries this build did not use; how many were removed."""
        removed = 0
        if not self.root.is_dir():
            return 0
        for path in self.root.glob("*/*.html"):
            if path.stem not in self.used:
                path.unlink(missing_ok=True)
                removed += 1
        return removed
