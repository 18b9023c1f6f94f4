"""Pagefind bundles compared by what a search reads of them.  Page numbers differ between bundles
of the same pages (each run numbers its own; a merge or an update numbers them otherwise), so
pages are named by their URL."""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path
from typing import Any

import cbor2

MARK = b"pagefind_dcd"


def _load(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())[len(MARK) :]


def canonical(bundle: Path) -> dict[str, Any]:
    """What a search reads of a bundle, keyed by page URL."""
    entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
    out: dict[str, Any] = {"version": entry["version"], "include": entry.get("include_characters")}
    for language, info in entry["languages"].items():
        meta = cbor2.loads(_load(bundle / f"pagefind.{info['hash']}.pf_meta"))
        fragments = [json.loads(_load(bundle / "fragment" / f"{h}.pf_fragment")) for h, _ in meta[1]]
        urls = [f["url"] for f in fragments]

        def pages_of(pages: list[list[Any]], urls: list[str] = urls) -> list[tuple[Any, ...]]:
            numbers = itertools.accumulate(p[0] for p in pages)  # each page: the difference from the last
            return sorted((urls[n], p[1], p[2]) for n, p in zip(numbers, pages, strict=True))

        words, chunks = {}, []
        for chunk in meta[2]:
            listed = cbor2.loads(_load(bundle / "index" / f"{chunk[2]}.pf_index"))[0]
            chunks.append((chunk[0], [w[0] for w in listed]))
            # the chunk's range holds its words (Pagefind may shorten the last to a prefix)
            assert chunk[0] <= listed[0][0] and listed[-1][0][: len(chunk[1])] <= chunk[1]
            for w in listed:
                words[w[0]] = (pages_of(w[1]), sorted((v[0], pages_of(v[1])) for v in w[2]))
        filters = {}
        for _, name in meta[3]:
            filter_name, values = cbor2.loads(_load(bundle / "filter" / f"{name}.pf_filter"))
            filters[filter_name] = {v: sorted(urls[p] for p in pages) for v, pages in values}
        out[language] = {
            "page_count": info["page_count"],
            "wasm": info.get("wasm"),
            "pages": {u: (wc, f) for (_, wc), f, u in zip(meta[1], fragments, urls, strict=True)},
            "words": words,
            "chunks": chunks,
            "filters": filters,
            "sorts": {k: [fragments[p]["meta"][k] for p in order] for k, order in meta[4]},
            "sorted": {k: sorted(urls[p] for p in order) for k, order in meta[4]},
            "rest": [meta[0], *meta[5:]],
        }
    return out


def same_answers(bundle: Path, reference: Path, chunks: bool = True) -> None:
    """``bundle`` answers every query as ``reference`` does: the same pages and fragments, every
    word on the same pages at the same positions with the same variants, the same filters, sort
    orders and metadata keys; with ``chunks``, the words cut into the same chunks too."""
    one, other = canonical(reference), canonical(bundle)
    assert one.keys() == other.keys()
    (language,) = [k for k in one if k not in ("version", "include")]
    for key in one[language]:
        if key != "chunks" or chunks:
            assert other[language][key] == one[language][key], key
    assert one["version"] == other["version"] and one["include"] == other["include"]
