"""Pagefind in parts: a site too large for one Pagefind run within its memory budget is indexed a
part at a time, and the parts' bundles are merged into the one bundle a reader's browser loads.

Pagefind holds every page it indexes until it writes the index: about 22 bytes of memory for each
character of indexed HTML, on top of some 70 MB for its dictionaries (3,000 synthetic pages: 33
million characters of marked bodies, 756 MB resident).  :func:`plan` groups the pages so each run
stays within a budget; :func:`merge` joins the runs' bundles: page numbers are offset by the pages
of the parts before, the word lists of equal words are joined in part order
(:mod:`kb.site.search_chunks`), and the words are cut into chunks as Pagefind cuts them.  Nothing
is reindexed: the page fragments are the runs' own files, and the merged bundle answers every
query as one run over the whole site does (the test compares them).

Pagefind's bundle format (1.5): gzip of ``pagefind_dcd`` and CBOR; file names are the language and
the start of the SHA-1 of the CBOR, each byte in hex without its leading zero; the meta file is
``[version, pages [[fragment, words]], chunks [[from, to, name]], filters [[name, file]],
sorts [[key, pages]], meta keys]``, an index chunk ``[[word, pages [[page, locations, meta
locations]], variants [[word, pages]]]]`` (a word's ``page`` is the difference from the page
before it in its list, the first from 0), a filter ``[name, [[value, pages]]]``.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby, pairwise
from operator import itemgetter
from pathlib import Path
from typing import Any

import cbor2
from isal import igzip

from kb.gcpause import gc_paused
from kb.site import search_chunks

__all__ = ["BASE_MB", "MARK", "PER_CHARACTER", "Writer", "content", "full_hash", "glob_of", "merge", "ordered"]
__all__ += ["bundle_filters", "bundle_words", "part_size", "plan", "write_filters", "write_meta", "write_words"]

# A Pagefind run's peak resident memory is at most BASE_MB + PER_CHARACTER bytes for each character of
# indexed HTML it reads (MB here: MiB, as the budget and the resident sets count them).  Measured
# (2026-12-05, the allocator of kb.site.search_index.ALLOCATOR) over 3,000 synthetic pages, 33.1
# million characters, in 1, 2, 3, 4, 6 and 10 even runs: 756, 426, 297, 257, 190 and 138 MB, a line
# of about 69 MB and 21.8 bytes a character; 84 MB and 22 bytes lie above every measurement.
BASE_MB = 84  # a run's memory before its first page (its dictionaries)
PER_CHARACTER = 22  # its memory (bytes) per character of a page's indexed HTML
CHUNK = 20_000  # locations per index chunk, as Pagefind counts them (it cuts after the word that passes)
MARK = b"pagefind_dcd"  # what Pagefind writes before the content of each compressed file
# gzip level of the merged files, by ISA-L (isal's igzip: levels 0-3), which compresses them about
# eight times as fast as zlib and reads them twice as fast.  Pagefind's own are level 9; the 180 index
# chunks of 3,000 synthetic pages (12.1 MB) take 0.26 s at zlib's level 4 (6.15 MB), 0.59 s at its
# level 6 (5.91 MB) and 0.03 s at ISA-L's level 3 (6.21 MB: 1% more than zlib's level 4, whose
# heaviest query, KV Cache, downloaded 267 KB of the 300 KB a query may: scripts/bench_search.py).
LEVEL = 3
_decompress: Callable[[bytes], bytes] = igzip.decompress  # (isal does not annotate it)
_GLOB_SPECIAL = re.compile(r"([\\*?:\[\]{}<>(),])")


def part_size(memory_mb: int) -> int:
    """The characters of indexed HTML one Pagefind run may hold to stay within ``memory_mb``."""
    return max(1, (memory_mb - BASE_MB) * 1024 * 1024 // PER_CHARACTER)


def plan(weights: Mapping[str, int], budget: int) -> list[list[str]]:
    """The pages (site-relative paths to their HTML files, weighed by their characters of indexed
    HTML) in as few parts of at most ``budget`` each as path order allows, as even as they can be
    (the largest part is Pagefind's peak); a page over the budget is a part alone.  A page that
    weighs nothing has nothing Pagefind indexes: it is in no part."""
    pages = [(path, weights[path]) for path in sorted(weights) if weights[path] > 0]
    parts = _filled(pages, budget)
    if len(parts) <= 1:
        return parts
    low, high = -(-sum(w for _, w in pages) // len(parts)), budget  # the least cap giving as few parts
    while low < high:
        cap = (low + high) // 2
        low, high = (low, cap) if len(_filled(pages, cap)) <= len(parts) else (cap + 1, high)
    return _filled(pages, high)


def _filled(pages: Sequence[tuple[str, int]], cap: int) -> list[list[str]]:
    """``pages`` in order, each part filled up to ``cap`` before the next begins."""
    parts: list[list[str]] = [[]]
    size = 0
    for path, weight in pages:
        if parts[-1] and size + weight > cap:
            parts.append([])
            size = 0
        parts[-1].append(path)
        size += weight
    return parts if parts[-1] else []


def glob_of(paths: Sequence[str]) -> str:
    """A Pagefind glob matching exactly ``paths`` (its glob syntax escaped)."""
    return "{" + ",".join(_GLOB_SPECIAL.sub(r"\\\1", p) for p in paths) + "}"


# ---------------------------------------------------------------------------- reading a bundle
def content(path: Path) -> bytes:
    """What a compressed file of a bundle holds (``ValueError``: not one of Pagefind's files)."""
    try:
        raw = _decompress(path.read_bytes())
    except (OSError, EOFError) as exc:
        raise ValueError(f"{path.name} is not a Pagefind file: {exc}") from None
    if not raw.startswith(MARK):
        raise ValueError(f"{path.name} is not a Pagefind file")
    return raw[len(MARK) :]


def _compressed(data: bytes) -> bytes:
    """A file of a bundle holding ``data``, as :func:`content` reads it."""
    return igzip.compress(MARK + data, compresslevel=LEVEL, mtime=0)


def _load(path: Path) -> Any:
    return cbor2.loads(content(path))


def full_hash(data: bytes) -> str:
    """Pagefind's hash: SHA-1, each byte in hex without its leading zero."""
    return "".join(format(b, "x") for b in hashlib.sha1(data).digest())


@dataclass
class _Part:
    root: Path
    meta: list[Any]
    offset: int  # the global number of its first page
    fields: dict[int, int] | None = None  # a metadata field's mark in the run -> in the merge, where they differ

    def words(self) -> Iterator[tuple[str, _Part, list[Any], memoryview]]:
        """Its words in order: each as read and as the run encoded it."""
        for word, raw in bundle_words(self.root, self.meta):
            yield word[0], self, word, raw

    def keys(self) -> list[str]:
        """The metadata fields of its pages (a word's locations in them name a field by its place here)."""
        return list(self.meta[5])


def bundle_words(root: Path, meta: list[Any]) -> Iterator[tuple[list[Any], memoryview]]:
    """The words of the bundle at ``root`` (``meta``: its language's meta file) in order, each as
    read and as encoded (:func:`kb.site.search_chunks.chunk_words`)."""
    for chunk in meta[2]:
        name = f"{chunk[2]}.pf_index"
        yield from search_chunks.chunk_words(content(root / "index" / name), name)


def bundle_filters(root: Path, meta: list[Any]) -> Iterator[tuple[str, list[list[Any]]]]:
    """The filters of the bundle at ``root``: each filter's name and its values' pages."""
    for _, name in meta[3]:
        filter_name, values = _load(root / "filter" / f"{name}.pf_filter")
        yield filter_name, values


def write_filters(writer: Writer, merged: Mapping[str, Mapping[str, list[int]]]) -> list[list[str]]:
    """The filters' files (each value with its pages in order; a value or filter of no pages
    left out); their names and files for the meta file."""
    out = []
    for name, values in sorted(merged.items()):
        kept = [[value, sorted(pages)] for value, pages in values.items() if pages]
        if kept:
            out.append([name, writer.write("filter", "pf_filter", cbor2.dumps([name, kept]))])
    return out


def _entry(root: Path) -> dict[str, Any]:
    entry: dict[str, Any] = json.loads((root / "pagefind-entry.json").read_text("utf-8"))
    return entry


# ---------------------------------------------------------------------------- writing the merge
class Writer:
    """Files of a bundle under ``out``, named as Pagefind names them.  A file already there is not
    written again (its name is its content's hash, as Pagefind does); with ``check`` it is read
    first, and replaced unless it holds the same (a file left from an older build whose name
    clashes with a new one's)."""

    def __init__(self, out: Path, language: str, check: bool = False) -> None:
        self.out, self.language, self.check = out, language, check
        self.names: dict[str, str] = {}  # name -> full hash: this bundle's index chunks, filters, meta
        self.fragments: set[str] = set()  # this bundle's page fragments
        self.replaced = 0  # files found under a name with other content, and replaced

    def name(self, full: str, length: int) -> str:
        name = f"{self.language}_{full[:length]}"
        while self.names.get(name, full) != full:  # another content under the same short name
            length += 1
            name = f"{self.language}_{full[:length]}"
        self.names[name] = full
        return name

    def write(self, folder: str, suffix: str, data: bytes) -> str:
        name = self.name(full_hash(data), 7)
        path = self.out / folder / f"{name}.{suffix}"
        if not path.exists() or (self.check and not _holds(path, data)):
            self.replaced += path.exists()
            path.parent.mkdir(parents=True, exist_ok=True)
            _replace(path, _compressed(data))
        return name

    def fragment(self, root: Path, name: str) -> str:
        """The page fragment ``name`` of the bundle at ``root`` moved in: under its own name unless
        another page of this bundle has that name (Pagefind settles such clashes only within a run),
        then under a longer one.  Two pages never share a fragment: each holds its own URL."""
        source = root / "fragment" / f"{name}.pf_fragment"
        if name in self.fragments:
            full = full_hash(content(source))
            length = 7
            while name in self.fragments:
                length += 1
                name = f"{self.language}_{full[:length]}"
        self.fragments.add(name)
        dest = self.out / "fragment" / f"{name}.pf_fragment"
        if not dest.exists() or (self.check and not _holds(dest, content(source))):
            self.replaced += dest.exists()
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, dest)
        return name


def _holds(path: Path, data: bytes) -> bool:
    try:
        return content(path) == data
    except ValueError:
        return False


def _replace(path: Path, data: bytes) -> None:
    """``path`` holding ``data``, written beside and renamed over it: a hard link to the old file
    (a built site's, :func:`kb.site.search_store.link_tree`) keeps what it held."""
    scratch = path.with_name(path.name + ".new")
    scratch.write_bytes(data)
    os.replace(scratch, path)


def merge(parts: Sequence[Path], out: Path) -> int:
    """The bundles at ``parts`` (Pagefind runs over disjoint pages of one site) as one bundle in
    ``out`` (the parts' files are moved there).  Returns the number of pages."""
    if not parts:
        raise ValueError("no bundles to merge")
    entries = [_entry(p) for p in parts]
    out.mkdir(parents=True, exist_ok=True)
    for item in parts[0].iterdir():  # Pagefind's scripts and wasm: the same in every run
        if item.is_file() and item.name != "pagefind-entry.json" and item.suffix != ".pf_meta":
            os.replace(item, out / item.name)
    entry = entries[0]
    languages: dict[str, Any] = {}
    total = 0
    for language in sorted({lang for e in entries for lang in e["languages"]}):
        having = [
            (r, e["languages"][language]) for r, e in zip(parts, entries, strict=True) if language in e["languages"]
        ]
        with gc_paused():  # the words decoded are millions of acyclic lists and numbers
            meta_name, pages = _merge_language(language, having, out)
        info = dict(having[0][1])
        info.update(hash=meta_name, page_count=pages)
        languages[language] = info
        total += pages
    entry["languages"] = languages
    (out / "pagefind-entry.json").write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), "utf-8")
    return total


def _merge_language(language: str, having: list[tuple[Path, dict[str, Any]]], out: Path) -> tuple[str, int]:
    writer = Writer(out, language)
    parts: list[_Part] = []
    offset = 0
    for root, info in having:
        meta = _load(root / f"pagefind.{info['hash']}.pf_meta")
        parts.append(_Part(root, meta, offset))
        offset += len(meta[1])
    versions = {p.meta[0] for p in parts}
    if len(versions) != 1:
        raise ValueError(f"bundles of different Pagefind versions: {sorted(versions)}")
    pages = [[writer.fragment(part.root, page[0]), page[1]] for part in parts for page in part.meta[1]]
    keys = sorted({k for p in parts for k in p.keys()})
    for part in parts:  # a field is marked -(its place + 1) before the word's locations in it
        fields = {-(i + 1): -(keys.index(k) + 1) for i, k in enumerate(part.keys())}
        part.fields = fields if any(a != b for a, b in fields.items()) else None
    chunks = write_words(writer, _joined(parts))
    filters = _merge_filters(writer, parts)
    sorts = [[key, order] for key, order in _merge_sorts(parts, out, pages)]
    return write_meta(writer, [parts[0].meta[0], pages, chunks, filters, sorts, keys]), len(pages)


def write_meta(writer: Writer, meta: list[Any]) -> str:
    """The language's meta file of the bundle; its name (the entry file's ``hash``)."""
    data = cbor2.dumps(meta)
    name = writer.name(full_hash(data), len(writer.language) + 8)
    path = writer.out / f"pagefind.{name}.pf_meta"
    if not path.exists() or (writer.check and not _holds(path, data)):
        _replace(path, _compressed(data))
    return name


def _joined(parts: list[_Part]) -> Iterator[tuple[str, bytes | memoryview, int]]:
    """Every part's words in order, joined: each word's text, encoding and locations."""
    for text, group in groupby(heapq.merge(*(p.words() for p in parts), key=itemgetter(0)), key=itemgetter(0)):
        found = [(word, raw, part) for _, part, word, raw in group]
        size = sum(search_chunks.locations(word[1]) for word, _, _ in found)
        yield text, search_chunks.word(text, found), size


def write_words(writer: Writer, words: Iterable[tuple[str, bytes | memoryview, int]]) -> list[list[str]]:
    """``words`` (in order: each word's text, encoding, and what its pages count towards a chunk,
    :func:`kb.site.search_chunks.locations`) cut into index chunks as Pagefind cuts them; the
    chunks' names and word ranges for the meta file."""
    chunks: list[list[str]] = []
    texts: list[str] = []
    encoded: list[bytes | memoryview] = []
    size = 0

    def flush() -> None:
        nonlocal size
        chunks.append([texts[0], texts[-1], writer.write("index", "pf_index", search_chunks.chunk(encoded))])
        texts.clear()
        encoded.clear()
        size = 0

    for text, data, locations in words:
        texts.append(text)
        encoded.append(data)
        size += locations
        if size >= CHUNK:
            flush()
    if texts:
        flush()
    for first, second in pairwise(chunks):  # where a chunk starts: the shortest prefix after the last
        second[0] = _prefix(first[1], second[0])
    return chunks


def _prefix(last: str, first: str) -> str:
    """The start of the chunk whose first word is ``first`` after a chunk ending with ``last``:
    as Pagefind cuts it, one character past their common prefix.  (A chunk's end is its whole last
    word: a lookup of that word, or of a word it begins with, finds the chunk without Pagefind's
    fallback that loads every chunk a shortened word could be in.)"""
    common = 0
    for x, y in zip(first, last, strict=False):
        if x != y:
            break
        common += 1
    return first[: common + 1]


def _merge_filters(writer: Writer, parts: list[_Part]) -> list[list[str]]:
    merged: dict[str, dict[str, list[int]]] = {}
    for part in parts:
        for filter_name, values in bundle_filters(part.root, part.meta):
            into = merged.setdefault(filter_name, {})
            for value, pages in values:
                into.setdefault(value, []).extend(page + part.offset for page in pages)
    return write_filters(writer, merged)


def _merge_sorts(parts: list[_Part], out: Path, pages: list[list[Any]]) -> Iterator[tuple[str, list[int]]]:
    """Each sort key's pages in the order of their values, across the parts.  A run's meta holds
    the order, not the values: they are read from the pages' metadata of the same name (the kb's
    marks give a page's date as both)."""
    keys = sorted({key for p in parts for key, _ in p.meta[4]})
    if not keys:
        return
    metas: dict[int, dict[str, str]] = {}
    for part in parts:
        for _, order in part.meta[4]:
            for page in order:
                number = page + part.offset
                if number not in metas:
                    fragment = content(out / "fragment" / f"{pages[number][0]}.pf_fragment")
                    metas[number] = json.loads(fragment).get("meta", {})
    for key in keys:
        numbers = [page + p.offset for p in parts for k, order in p.meta[4] if k == key for page in order]
        missing = [n for n in numbers if key not in metas[n]]
        if missing:
            raise ValueError(f"sort key {key!r} has no metadata of the same name on {len(missing)} page(s)")
        yield key, ordered({n: metas[n][key] for n in numbers})


def ordered(values: Mapping[int, str]) -> list[int]:
    """Pages (by number) in the order of their values of a sort key: as numbers where Pagefind
    reads them all as numbers, else as text."""
    numeric = all(_number(v) is not None for v in values.values())
    return sorted(values, key=lambda n: (_number(values[n]) if numeric else values[n], n))


_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def _number(value: str) -> float | None:
    """A sort value as a number, where Pagefind reads it as one."""
    return float(value) if _NUMBER.fullmatch(value) else None
