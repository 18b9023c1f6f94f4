"""The search index brought up to date: the last build's Pagefind bundle with only the pages whose
indexed text changed indexed again.

Pagefind reads the whole site on every run (3,000 synthetic pages: some 12 s of CPU), while a day's
brief changes the indexed text of a few dozen pages: the brief, its papers, the living document,
the indexes.  A build with the cache on knows what Pagefind reads of each page (its marked body:
:func:`kb.site.search.digest`), and the store (:mod:`kb.site.search_store`) keeps beside its bundle
which page each page number is and the digest it was indexed from (:class:`State`).  When pages
changed or were added and none went, :func:`pending` says which; Pagefind runs over those alone and
:func:`apply` merges its bundle into the kept one.  A changed page keeps its number and an added
page takes the next, so a word none of them has keeps its bytes; a word's entries of the changed
pages are replaced by the run's, and so are their fragments, filter values and sort places.  The
bundle answers every query as one run over the whole site does (the tests compare them).  Anything
else is a full run: a page gone, another Pagefind or configuration, more than half the pages new.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import cbor2

from kb.gcpause import gc_paused
from kb.site import search_chunks
from kb.site.search_parts import (
    Writer,
    bundle_filters,
    bundle_words,
    content,
    ordered,
    write_filters,
    write_meta,
    write_words,
)
from kb.site.search_store import Stopped

__all__ = ["FILE", "Pending", "State", "Unfit", "apply", "forget", "pending", "remember", "url"]

FILE = ".kb-pages.json"  # the state, beside the bundle in the store (never linked into the site)
FORMAT = 2  # of the state and of what apply makes: another makes every kept state stale
LANGUAGE = "zh"  # the one language of the bundle (Pagefind runs with force_language)


class Unfit(ValueError):
    """The bundles are not what an update expects: the site is indexed whole instead."""


@dataclass
class State:
    """What the store's bundle was made from."""

    config: str  # Pagefind's configuration (:func:`kb.site.search_index.fingerprint`) and FORMAT
    meta: str  # the bundle's meta file (its hash): the state describes that bundle only
    paths: list[str]  # page number -> its HTML file, site-relative
    digests: list[str]  # page number -> the digest of what was indexed of it
    sorts: dict[str, dict[int, str]]  # sort key -> page number -> its value
    fields: dict[str, list[int]]  # metadata field -> the pages that have it (the bundle's fields are these)

    def save(self, bundle: Path) -> None:
        data = {k: getattr(self, k) for k in ("config", "meta", "paths", "digests", "sorts", "fields")}
        (bundle / FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), "utf-8")


@dataclass
class Pending:
    """The pages to index again, each with its page number in the bundle."""

    state: State
    numbers: dict[str, int]  # HTML file -> page number: a changed page's own, an added one's after the last


def url(path: str) -> str:
    """Pagefind's URL of the HTML file at ``path`` (site-relative)."""
    if path == "index.html" or path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return "/" + path


def _config(config: str) -> str:
    return f"{FORMAT}:{config}"


def forget(bundle: Path, digests: Mapping[str, str] | None, config: str) -> None:
    """Before a full run into the kept bundle: its state gone, and every file Pagefind could find
    there under the name of a new file of other content (its names are 7 hex digits of a hash, and
    it does not write a file it finds): the word chunks, the filters, the meta file, and the
    fragments of the pages whose digest changed or that are gone (all of them without a state).
    The fragments of unchanged pages stay: Pagefind writes them alike, and settles a clash of their
    names with a new file's within the run."""
    state = _load_state(bundle, config) if digests is not None else None
    (bundle / FILE).unlink(missing_ok=True)
    try:
        _, _, meta = _language(bundle)
    except Unfit:
        meta = None
    same: set[str] = set()
    if state is not None and digests is not None and meta is not None and len(meta[1]) == len(state.paths):
        pages = zip(meta[1], state.paths, state.digests, strict=True)
        same = {page[0] for page, path, digest in pages if digests.get(path) == digest}
    for path in [*bundle.glob("pagefind.*.pf_meta"), *bundle.glob("index/*"), *bundle.glob("filter/*")]:
        path.unlink()
    for path in bundle.glob("fragment/*"):
        if path.name.split(".")[0] not in same:
            path.unlink()


def _load_state(bundle: Path, config: str) -> State | None:
    """The state saved with the bundle, if it was saved with this one and this configuration."""
    try:
        raw = json.loads((bundle / FILE).read_text("utf-8"))
        entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
        if raw["config"] != _config(config) or raw["meta"] != entry["languages"][LANGUAGE]["hash"]:
            return None
        paths, digests = [str(p) for p in raw["paths"]], [str(d) for d in raw["digests"]]
        sorts = {str(k): {int(n): str(v) for n, v in d.items()} for k, d in raw["sorts"].items()}
        fields = {str(k): [int(n) for n in pages] for k, pages in raw["fields"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return State(raw["config"], raw["meta"], paths, digests, sorts, fields) if len(paths) == len(digests) else None


def pending(bundle: Path, digests: Mapping[str, str], config: str) -> Pending | None:
    """What to index again to bring the bundle at ``bundle`` (its store's, complete) to the pages
    of ``digests`` (each HTML file Pagefind reads, site-relative, and its digest).  None: the
    bundle cannot be brought up to date (no state, another configuration, a page gone, or more
    than half the pages to index)."""
    state = _load_state(bundle, config)
    if state is None or any(p not in digests for p in state.paths):
        return None
    numbers = {p: n for n, (p, d) in enumerate(zip(state.paths, state.digests, strict=True)) if digests[p] != d}
    known = set(state.paths)
    numbers.update((p, n) for n, p in enumerate(sorted(p for p in digests if p not in known), len(state.paths)))
    return Pending(state, numbers) if 2 * len(numbers) <= len(digests) else None


def remember(bundle: Path, digests: Mapping[str, str], config: str) -> bool:
    """After a full run into ``bundle``: its state, from its meta file and its pages' fragments
    (their URLs, their sort values).  False where the bundle is not what an update expects: it has
    no state, and the next build runs over the whole site again."""
    (bundle / FILE).unlink(missing_ok=True)
    try:
        _, info, meta = _language(bundle)
        fragments = [_fragment(bundle, name) for name, _ in meta[1]]
        paths = _paths(fragments, {url(p): p for p in digests})
        sorts = {key: _values(key, order, fragments, range(len(fragments))) for key, order in meta[4]}
        fields = _fields_of(fragments, range(len(fragments)), {})
        if sorted(fields) != sorted(meta[5]):
            raise Unfit(f"metadata fields {meta[5]}, of the pages {sorted(fields)}")
    except Unfit:
        return False
    State(_config(config), info["hash"], paths, [digests[p] for p in paths], sorts, fields).save(bundle)
    return True


def _fields_of(
    fragments: Sequence[Mapping[str, Any]], numbers: Sequence[int], fields: dict[str, list[int]]
) -> dict[str, list[int]]:
    """``fields`` with the metadata fields of the pages of ``fragments`` (by their numbers)."""
    for fragment, number in zip(fragments, numbers, strict=True):
        for key in fragment.get("meta", {}):
            fields.setdefault(key, []).append(number)
    return fields


def apply(
    bundle: Path, fresh: Path, update: Pending, digests: Mapping[str, str], stop: Callable[[], bool] = lambda: False
) -> int:
    """The bundle of a Pagefind run over the pages of ``update`` (at ``fresh``) merged into the
    bundle at ``bundle``, whose state is saved with it; the bundle's number of pages.  ``Unfit``:
    the run is not what was asked for, or a file of either bundle is missing or unreadable (the
    bundle is then left incomplete: the caller runs anew).  ``stop()`` is asked word by word
    while the words are merged: when true, :class:`kb.site.search_store.Stopped` is raised, the
    bundle naming none of the files written so far and none of its own replaced."""
    try:
        with gc_paused():  # the words decoded are millions of acyclic lists and numbers
            return _apply(bundle, fresh, update, digests, stop)
    except (OSError, ValueError, KeyError, IndexError, TypeError, cbor2.CBORDecodeError) as exc:
        raise Unfit(f"{type(exc).__name__}: {exc}") from None


def _apply(bundle: Path, fresh: Path, update: Pending, digests: Mapping[str, str], stop: Callable[[], bool]) -> int:
    entry, info, meta = _language(bundle)
    _, _, run = _language(fresh)
    if meta[0] != run[0]:
        raise Unfit(f"bundles of different Pagefind versions: {meta[0]}, {run[0]}")
    fragments = [_fragment(fresh, name) for name, _ in run[1]]
    numbers = [update.numbers[p] for p in _paths(fragments, {url(p): p for p in update.numbers})]
    if sorted(numbers) != sorted(update.numbers.values()):
        raise Unfit(f"Pagefind indexed {len(numbers)} of the {len(update.numbers)} pages asked for")
    count, removed = len(meta[1]), frozenset(numbers)
    writer = Writer(bundle, LANGUAGE, check=True)
    writer.fragments = {name for n, (name, _) in enumerate(meta[1]) if n not in removed}
    pages = list(meta[1])
    for n, (name, words) in sorted(zip(numbers, run[1], strict=True), key=itemgetter(0)):
        page = [writer.fragment(fresh, name), words]
        if n < count:
            pages[n] = page
        else:  # the added pages' numbers follow the last
            pages.append(page)
    missing = [name for name, _ in pages if not (bundle / "fragment" / f"{name}.pf_fragment").exists()]
    if missing:
        raise Unfit(f"{len(missing)} page fragment(s) missing from the kept bundle, such as {missing[0]}")
    fields = {k: [n for n in pages_of if n not in removed] for k, pages_of in update.state.fields.items()}
    fields = {k: v for k, v in _fields_of(fragments, numbers, fields).items() if v}
    keys = sorted(fields)
    kept, new = _Numbering(None, _fields(meta[5], keys)), _Numbering(numbers, _fields(run[5], keys))
    words = _words(bundle_words(bundle, meta), bundle_words(fresh, run), removed, kept, new)
    try:
        chunks = write_words(writer, _stoppable(words, stop))
    except Stopped:
        if writer.replaced:  # a file of the bundle (a clash of short names) is replaced: it is not whole
            raise Unfit("stopped after replacing a file of the kept bundle") from None
        raise
    filters = _filters(writer, [(bundle, meta, kept), (fresh, run, new)], removed)
    values = {k: {n: v for n, v in d.items() if n not in removed} for k, d in update.state.sorts.items()}
    for key, order in run[4]:
        values.setdefault(key, {}).update(_values(key, order, fragments, numbers))
    sorts = [[key, ordered(by)] for key, by in sorted(values.items()) if by]
    info.update(hash=write_meta(writer, [meta[0], pages, chunks, filters, sorts, keys]), page_count=len(pages))
    (bundle / "pagefind-entry.json").write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), "utf-8")
    added = sorted((n, p) for p, n in update.numbers.items() if n >= count)
    paths = update.state.paths + [p for _, p in added]
    State(update.state.config, info["hash"], paths, [digests[p] for p in paths], values, fields).save(bundle)
    return len(pages)


# ---------------------------------------------------------------------------- reading bundles
def _language(root: Path) -> tuple[dict[str, Any], dict[str, Any], list[Any]]:
    """The bundle's entry file, its language's entry and meta file."""
    try:
        entry = json.loads((root / "pagefind-entry.json").read_text("utf-8"))
        if set(entry["languages"]) != {LANGUAGE}:
            raise Unfit(f"a bundle of languages {sorted(entry['languages'])}, not {LANGUAGE} alone")
        info = entry["languages"][LANGUAGE]
        return entry, info, cbor2.loads(content(root / f"pagefind.{info['hash']}.pf_meta"))
    except (OSError, KeyError, TypeError, ValueError, cbor2.CBORDecodeError) as exc:
        raise Unfit(str(exc)) from None


def _fragment(root: Path, name: str) -> dict[str, Any]:
    try:
        fragment: dict[str, Any] = json.loads(content(root / "fragment" / f"{name}.pf_fragment"))
    except (OSError, ValueError) as exc:
        raise Unfit(str(exc)) from None
    return fragment


def _paths(fragments: Sequence[Mapping[str, Any]], paths: Mapping[str, str]) -> list[str]:
    """The HTML file of each fragment (by its URL)."""
    found = [paths.get(f.get("url", "")) for f in fragments]
    if None in found:
        raise Unfit("a page of the bundle is not one of the site's files")
    return [p for p in found if p is not None]


def _values(
    key: str, order: list[int], fragments: Sequence[Mapping[str, Any]], numbers: Sequence[int]
) -> dict[int, str]:
    """The sort values of the pages in ``order`` by their number in the bundle: Pagefind's meta
    file holds the order, not the values; they are the pages' metadata of the same name (the kb's
    marks give a page's date as both)."""
    values = {}
    for page in order:
        value = fragments[page].get("meta", {}).get(key)
        if not isinstance(value, str):
            raise Unfit(f"sort key {key!r} has no metadata of the same name on a page")
        values[numbers[page]] = value
    return values


# ---------------------------------------------------------------------------- merging
@dataclass(frozen=True)
class _Numbering:
    """A bundle's page and field numbers in the merge."""

    pages: Sequence[int] | None  # page number -> the merge's (None: the same)
    fields: dict[int, int] | None  # a metadata field's mark -> the merge's (None: the same)


def _fields(run: list[str], keys: list[str]) -> dict[int, int] | None:
    """A field is marked -(its place + 1) before a word's locations in it.  (A field no page has
    any more is in no word's locations either: it keeps its mark.)"""
    fields = {-(i + 1): -(keys.index(k) + 1) if k in keys else -(i + 1) for i, k in enumerate(run)}
    return fields if any(a != b for a, b in fields.items()) else None


_Words = Iterator[tuple[list[Any], memoryview]]


_Word = tuple[str, bytes | memoryview, int]  # as write_words takes it


def _words(kept: _Words, run: _Words, removed: frozenset[int], old: _Numbering, new: _Numbering) -> Iterator[_Word]:
    """The words of both bundles in order, as :func:`kb.site.search_parts.write_words` takes them:
    a kept word that no page of the run has and no page indexed again had, as it was encoded; any
    other joined and encoded anew (a word no page has any more is gone)."""
    tagged = heapq.merge(
        ((w[0], 0, w, raw) for w, raw in kept), ((w[0], 1, w, raw) for w, raw in run), key=itemgetter(0, 1)
    )
    for text, group in groupby(tagged, key=itemgetter(0)):
        entries = [(word, raw, new if which else old) for _, which, word, raw in group]
        word, raw, numbering = entries[0]
        if len(entries) == 1 and numbering is old and old.fields is None and not _touches(word, removed):
            yield text, raw, search_chunks.locations(word[1])
            continue
        pages = _joined([(word[1], numbering) for word, _, numbering in entries], removed)
        variants: dict[str, list[tuple[list[Any], _Numbering]]] = {}
        for word, _, numbering in entries:
            for variant in word[2]:
                variants.setdefault(variant[0], []).append((variant[1], numbering))
        joined = [[v, p] for v, lists in variants.items() if (p := _joined(lists, removed))]
        if pages or joined:
            yield text, cbor2.dumps([text, pages, joined]), search_chunks.locations(pages)


def _stoppable(words: Iterator[_Word], stop: Callable[[], bool]) -> Iterator[_Word]:
    """``words`` while ``stop()`` is false; then :class:`kb.site.search_store.Stopped`."""
    for word in words:
        if stop():
            raise Stopped
        yield word


_PAGE = itemgetter(0)


def _touches(word: list[Any], removed: frozenset[int]) -> bool:
    """Whether a page of ``removed`` has the word (or a variant of it)."""
    lists = [word[1], *(variant[1] for variant in word[2])]
    return any(not removed.isdisjoint(accumulate(map(_PAGE, pages))) for pages in lists)


def _joined(lists: Sequence[tuple[list[list[Any]], _Numbering]], removed: frozenset[int]) -> list[list[Any]]:
    """One word's pages from both bundles (at most a list of each), each list with its numbering:
    the kept bundle's pages in ``removed`` left out, the run's renumbered and put in order
    (:func:`kb.site.search_chunks.replaced`)."""
    kept: list[list[Any]] = []
    fresh: list[tuple[int, list[Any]]] = []
    for pages, numbering in lists:
        if numbering.fields:
            fields = numbering.fields
            for page in pages:
                page[2] = [fields.get(x, x) for x in page[2]] if page[2] else page[2]
        if numbering.pages is None:
            kept = pages
        else:
            fresh += zip(map(numbering.pages.__getitem__, accumulate(map(_PAGE, pages))), pages, strict=True)
    fresh.sort(key=_PAGE)
    return search_chunks.replaced(kept, fresh, removed)


def _filters(
    writer: Writer, bundles: list[tuple[Path, list[Any], _Numbering]], removed: frozenset[int]
) -> list[list[str]]:
    """The filters of both bundles: each value's pages, without the kept bundle's pages indexed again."""
    merged: dict[str, dict[str, list[int]]] = {}
    for root, meta, numbering in bundles:
        for filter_name, values in bundle_filters(root, meta):
            into = merged.setdefault(filter_name, {})
            for value, pages in values:
                if numbering.pages is None:
                    into.setdefault(value, []).extend(p for p in pages if p not in removed)
                else:
                    into.setdefault(value, []).extend(numbering.pages[p] for p in pages)
    return write_filters(writer, merged)
