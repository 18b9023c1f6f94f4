"""The words of Pagefind's index chunks as the merge of a site indexed in parts writes them
(kb.site.search_chunks): CBOR heads written by hand as cbor2 writes them, and a word spliced from
the runs' bytes equal to the word decoded, joined and encoded anew, for every shape of entry."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import cbor2

from kb.site import search_chunks


def test_cbor_heads_are_cbor2s():
    """The merge writes page numbers and list lengths itself (the rest of a word is the run's bytes):
    each as cbor2 encodes it, at every width, and read back."""
    for value in [0, 1, 23, 24, 255, 256, 65_535, 65_536, 2**32 - 1, 2**32, 2**64 - 1]:
        as_number, as_array = search_chunks.head(0, value), search_chunks.head(4, value)
        assert as_number == cbor2.dumps(value)
        if value < 300:
            assert as_array == cbor2.dumps([0] * value)[: len(as_array)]
        assert search_chunks.read_head(as_number + b"\x00", 0) == (0, value, len(as_number))
        assert search_chunks.read_head(b"\x00" + as_array, 1) == (4, value, 1 + len(as_array))


def _entries(*spec: tuple[list[Any], int, dict[int, int] | None]) -> list[tuple[list[Any], memoryview, Any]]:
    """A word's entries in parts as the merge reads them: (the word, its run's bytes, its part)."""
    return [
        (word, memoryview(cbor2.dumps(word)), SimpleNamespace(offset=offset, fields=fields))
        for word, offset, fields in spec
    ]


def test_a_word_spliced_from_the_runs_bytes_is_the_word_encoded_anew():
    """The merge copies each part's encoded page list and changes only its first page number; for
    every shape of entry that gives what decoding, joining and encoding anew gives, and the shapes
    it cannot splice (variants, renumbered metadata fields, no pages) are encoded anew."""
    pages = [[3, [-25, 1, 7], []], [2, [4], [-1, 0]], [70_000, [9, 11], []]]
    plain = [[0, [5], []], [1, [6, 8], []]]
    cases = {
        "one part, offset": _entries((["kv", pages, []], 300, None)),
        "three parts, wide offsets": _entries(
            (["kv", plain, []], 0, None), (["kv", pages, []], 40, None), (["kv", plain, []], 2**20, None)
        ),
        "renumbered fields, no meta locations": _entries(
            (["kv", plain, []], 0, {-1: -2}), (["kv", plain, []], 5, None)
        ),
        "renumbered fields with meta locations": _entries(
            (["kv", plain, []], 0, None), (["kv", pages, []], 9, {-1: -2})
        ),
        "variants": _entries((["kv", plain, [["kv2", [[1, [3], []]]]]], 0, None), (["kv", plain, []], 4, None)),
        "a part without pages": _entries((["kv", [], []], 0, None), (["kv", plain, []], 4, None)),
        "no pages": _entries((["kv", [], []], 0, None), (["kv", [], []], 3, None)),
    }
    spliced = {
        "one part, offset",
        "three parts, wide offsets",
        "renumbered fields, no meta locations",
        "a part without pages",
    }
    for name, found in cases.items():
        assert (search_chunks.spliced(found) is not None) == (name in spliced), name
        merged = cbor2.loads(bytes(search_chunks.word("kv", found)))
        assert merged == cbor2.loads(search_chunks.encoded("kv", found)), name
    joined = cbor2.loads(bytes(search_chunks.word("kv", cases["three parts, wide offsets"])))[1]
    assert [page[0] for page in joined] == [0, 1, 40 + 3 - 1, 2, 70_000, 2**20 - (40 + 3 + 2 + 70_000), 1]


def _absolute(pages: list[list[Any]]) -> list[tuple[int, Any, Any]]:
    out, number = [], 0
    for page in pages:
        number += page[0]
        out.append((number, page[1], page[2]))
    return out


def test_pages_replaced_in_place_are_the_pages_joined_and_sorted():
    """An update's change to a word's pages (kb.site.search_update): the kept pages without the
    removed ones, the fresh ones put in order, every page the difference from the one before: the
    same as taking all pages by number, sorting and taking differences anew."""
    import random

    rng = random.Random(7)
    for _ in range(400):
        total = rng.randint(1, 300)
        having = sorted(rng.sample(range(total), rng.randint(0, min(total, 60))))
        kept, last = [], 0
        for n in having:
            kept.append([n - last, [rng.randint(0, 900)], [-1] if rng.random() < 0.1 else []])
            last = n
        removed = frozenset(rng.sample(range(total + 5), rng.randint(0, min(12, total + 5))))
        fresh = sorted((n, [0, [rng.randint(0, 900)], []]) for n in rng.sample(sorted(removed), len(removed) // 2))
        fresh += [(total + 5 + i, [0, [i], []]) for i in range(rng.randint(0, 3))]  # added pages: after the last
        expected = sorted(
            [p for p in _absolute(kept) if p[0] not in removed] + [(n, page[1], page[2]) for n, page in fresh]
        )
        got = search_chunks.replaced([list(p) for p in kept], fresh, removed)
        assert _absolute(got) == expected
        assert all(page[0] >= 0 for page in got) and (not got or got[0][0] == expected[0][0])
