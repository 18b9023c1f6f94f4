"""Brief and paper pages finished in an earlier build, kept by what each is made from.

The page cache (:mod:`kb.site.cache`) skips the theme for a page whose content is unchanged,
but the content itself is still made on every build: the renderer, then the links resolved,
the anchors and the table of contents read, the first use of each term explained.  For the
pages there are thousands of (the page types marked ``kept``: briefs and papers) this cache skips
all of that: each page is keyed on what it is made from, as its page type declares it and
``kb preview`` compares it between two builds (:func:`kb.site.pages.inputs`), with each data
record standing as the digest of its file (:class:`kb.data.recordstore.RecordStore`),
and salted with the code, the configuration and everything of the topics but their update logs.
What is kept is the page as the plugin finished it (:class:`Finished`): its HTML and what MkDocs
learns of it.  A finished page whose links name a page this build lacks (or lacked already
when it was made) is made again, so the build reports the missing page; its links to anchors
are checked again with every build (:func:`kb.site.plugin.finish.unfound`).  Pure (no MkDocs
import).  Entries no build used are removed at its end.

Entries are JSON (data, never code) in the user's cache (:mod:`kb.site.cache`), each with the key
it was stored under: one that is absent, cannot be read as a :class:`Finished`, or carries another
key is a miss, and the page is made again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Set
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel
from typing_extensions import TypedDict

from kb.data.recordstore import SUFFIX, prune_entries, read_entry, write_entry
from kb.site.pages.htmlpage import TocToken

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase


@dataclass(frozen=True)
class Finished:
    """A generated page as the kb plugin finished it."""

    content: str  # the page's HTML: links resolved, first uses explained
    toc: list[TocToken]
    anchor_ids: frozenset[str]  # ids a link's #fragment can point at
    anchors: dict[str, dict[str, str]]  # target source path -> {anchor: the link as written}
    targets: frozenset[str]  # the source paths its links point at (each must still exist)
    title: str | None  # page.meta["title"] (escaped HTML), if the build set one
    description: str | None  # page.meta["description"] (escaped), if any


class _Toc(TypedDict):
    """:class:`~kb.site.pages.htmlpage.TocToken` as pydantic reads it (a ``typing_extensions.TypedDict``)."""

    level: int
    id: str
    name: str
    children: list[_Toc]


class _Entry(BaseModel):
    """A kept page: the key it was stored under and the fields of its :class:`Finished`."""

    key: str
    content: str
    toc: list[_Toc]
    anchor_ids: frozenset[str]
    anchors: dict[str, dict[str, str]]
    targets: frozenset[str]
    title: str | None
    description: str | None


_FIELDS = [f.name for f in fields(Finished)]


def encode(value: object, tokens: Mapping[int, str]) -> str:
    """``value`` (a page's inputs) as text: a data record as its token (its file's digest), tuples
    and lists item by item, anything else as its ``repr``.  Text that differs where the value
    differs; where a repr is not stable between processes (a set of strings), only a miss."""
    token = tokens.get(id(value))
    if token is not None:
        return token
    if type(value) is tuple or type(value) is list:
        return "(" + ",".join(encode(item, tokens) for item in value) + ")"
    return repr(value)


def topic_frames(kb: KnowledgeBase) -> str:
    """What a brief or paper page shows of the topics: all of each but its update log and its
    acknowledgements (the page takes those through its figures and findings)."""
    return repr([t.model_dump(exclude={"updates", "acknowledged"}) for t in kb.topics.values()])


def page_keys(made: Mapping[str, tuple[object, ...]], salt: str, tokens: Mapping[int, str]) -> dict[str, str]:
    """The key of every kept page: the salt and what the page is made from (``made``)."""
    keys = {}
    for page, what in made.items():
        h = hashlib.blake2b(digest_size=20)
        h.update(salt.encode())
        h.update(page.encode("utf-8", "surrogatepass") + b"\0")
        h.update(encode(what, tokens).encode("utf-8", "surrogatepass"))
        keys[page] = h.hexdigest()
    return keys


@dataclass
class RenderCache:
    """Finished pages by key; :meth:`finish` keeps only what this build used."""

    root: Path
    salt: str  # the code and configuration (kb.site.cache.code_salt)
    keys: dict[str, str] = field(default_factory=dict)  # page -> key, set by :meth:`start`
    hits: int = 0
    misses: int = 0
    _used: set[str] = field(default_factory=set)

    def start(
        self, made: Mapping[str, tuple[object, ...]], tokens: Mapping[int, str], extra: str, kb: KnowledgeBase
    ) -> None:
        """Key every kept page by what it is made from (``made``, :func:`kb.site.pages.inputs`;
        ``extra``: the build's options)."""
        self.keys = page_keys(made, self.salt + "\0" + extra + "\0" + topic_frames(kb), tokens)
        self.hits = self.misses = 0
        self._used = set()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}{SUFFIX}"

    def get(self, page: str) -> Finished | None:
        key = self.keys.get(page)
        if key is None:
            return None
        self._used.add(key)
        kept = read_entry(self._path(key), _Entry)
        if kept is not None and kept.key == key:
            self.hits += 1
            return Finished(**{name: getattr(kept, name) for name in _FIELDS})
        self.misses += 1
        return None

    def put(self, page: str, finished: Finished) -> None:
        key = self.keys.get(page)
        if key is not None:
            self._used.add(key)
            write_entry(
                self._path(key),
                _Entry(key=key, **{name: getattr(finished, name) for name in _FIELDS}).model_dump_json().encode(),
            )

    def finish(self) -> tuple[int, int, int]:
        """End of a build: remove the entries it did not use; pages from the cache, pages made, entries removed."""
        return self.hits, self.misses, prune_entries(self.root, self._used)


def stale(finished: Finished, known: Set[str]) -> bool:
    """Whether a link of the page points at a page this build does not have."""
    return not finished.targets <= known
