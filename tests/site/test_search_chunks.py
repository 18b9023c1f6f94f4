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
