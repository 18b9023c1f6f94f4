"""The words of Pagefind's index chunks, read with their bytes and joined across the runs of a
site indexed in parts (:mod:`kb.site.search_parts`).

An index chunk is ``[[word, ...]]``, a word ``[text, pages [[page, locations, meta locations]],
variants [[text, pages]]]``: CBOR, with each ``page`` the difference from the page before it in
its list (the first from 0), and a location in a metadata field marked by the field's place in
the run's fields.  A word of the merge is mostly the runs' own bytes (:func:`spliced`); what
cannot be spliced is decoded, joined and encoded anew (:func:`encoded`).
"""

from __future__ import annotations

import io
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import Any, Protocol

import cbor2

__all__ = ["Numbered", "chunk", "chunk_words", "encoded", "head", "joined", "locations", "read_head", "replaced"]
__all__ += ["spliced", "word"]


class Numbered(Protocol):
    """A run's numbering within the merge."""

    offset: int  # the merge's number of the run's first page
    fields: dict[int, int] | None  # a metadata field's mark in the run -> in the merge, where they differ


def chunk_words(raw: bytes, name: str) -> Iterator[tuple[list[Any], memoryview]]:
    """The words of the index chunk ``raw`` (its file ``name``) in order: each as read and as the
    run encoded it.  A word's bytes end where the decoder left the stream: cbor2 6 reads ahead but
    moves a seekable stream back to the end of the item (5.8.0 did not: pyproject.toml asks for
    6); each word is checked to start with a word's head and the last to end the chunk, so a
    decoder that leaves the stream elsewhere is refused rather than merged."""
    count, start = _words_start(raw)
    stream = io.BytesIO(raw)
    stream.seek(start)
    decoder, view = cbor2.CBORDecoder(stream), memoryview(raw)
    for _ in range(count):
        begin = stream.tell()
        item = decoder.decode()
        if raw[begin] != _WORD[0]:
            raise ValueError(f"{name}: the CBOR decoder left the stream off a word's start")
        yield item, view[begin : stream.tell()]
    if stream.tell() != len(raw):
        raise ValueError(f"{name}: the CBOR decoder left the stream off the chunk's end")


def chunk(words: list[bytes | memoryview]) -> bytes:
    """An index chunk of encoded ``words``."""
    return b"".join([head(4, 1), head(4, len(words)), *words])


def word(text: str, found: Sequence[tuple[list[Any], memoryview, Numbered]]) -> bytes | memoryview:
    """One word of the merge, CBOR-encoded, from its entries in the parts (each as read, as
    encoded, and its part): the runs' own bytes where they can be (:func:`spliced`), else
    :func:`encoded`."""
    if len(found) == 1 and found[0][2].offset == 0 and found[0][2].fields is None:
        return found[0][1]  # a word of one part whose page and field numbers are the merge's already
    made = spliced(found)
    return made if made is not None else encoded(text, found)


def spliced(found: Sequence[tuple[list[Any], memoryview, Numbered]]) -> bytes | None:
    """The word from the runs' bytes: the array's head and the text of the first part's entry,
    the pages' head with the pages of all parts, and each part's pages as encoded except the first
    page number (the difference from the last page of the part before, no longer from 0).  None
    where that is not the whole change: a word with variants (they have page lists of their own)
    or with locations in metadata fields whose numbers change, an entry whose variants are not the
    empty array (one of indefinite length), no pages at all, or an encoding other than expected."""
    out: list[bytes | memoryview] = []
    count = last = 0
    try:
        for item, raw, part in found:
            pages = item[1]
            if item[2] or raw[-1] != _EMPTY_ARRAY or (part.fields and any(p[2] for p in pages)):
                return None
            if not pages:
                continue
            _, length, text_at = read_head(raw, array_body(raw, 0))  # [text, pages, variants]
            if not out:
                out += [raw[: text_at + length]]  # the array's head and the text
            kind, n, first = read_head(raw, text_at + length)  # the pages' head
            if kind != 4:
                return None
            number = array_body(raw, first)  # the first page: [page, locations, meta locations]
            kind, _, rest = read_head(raw, number)
            if kind != 0:
                return None
            out += [raw[first:number], head(0, pages[0][0] + part.offset - last), raw[rest:-1]]
            count += n
            last = part.offset + sum(page[0] for page in pages)
    except (ValueError, IndexError):
        return None
    if not out:
        return None
    out.insert(1, head(4, count))
    out.append(bytes([_EMPTY_ARRAY]))  # no variants
    return b"".join(out)


def encoded(text: str, found: Sequence[tuple[list[Any], memoryview, Numbered]]) -> bytes:
    """The word encoded anew from its entries as read: page lists joined (:func:`joined`),
    variants of the same text joined the same way."""
    variants: dict[str, list[tuple[list[Any], Numbered]]] = {}
    for item, _, part in found:
        for variant in item[2]:
            variants.setdefault(variant[0], []).append((variant[1], part))
    pages = joined([(item[1], part) for item, _, part in found])
    return cbor2.dumps([text, pages, [[v, joined(lists)] for v, lists in variants.items()]])


def locations(pages: list[list[Any]]) -> int:
    """What a word's pages count towards a chunk's size, as Pagefind counts it: each page one, and
    one each of its locations and meta locations."""
    return len(pages) + sum(map(len, map(_LOCATIONS, pages))) + sum(map(len, map(_META_LOCATIONS, pages)))


_LOCATIONS, _META_LOCATIONS = itemgetter(1), itemgetter(2)
_EMPTY_ARRAY = 0x80  # CBOR's empty array
_WORD = bytes([0x83])  # CBOR's head of an array of three: a word of an index chunk


def head(major: int, value: int) -> bytes:
    """The shortest CBOR head of ``major`` type with ``value`` (a length, or an unsigned number)."""
    if value < 24:
        return bytes([major << 5 | value])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | info]) + value.to_bytes(size, "big")
    raise ValueError(f"CBOR value too large: {value}")


def read_head(data: bytes | memoryview, at: int) -> tuple[int, int, int]:
    """The CBOR head at ``at``: its major type, its value and where what follows it starts."""
    initial = data[at]
    major, info = initial >> 5, initial & 0x1F
    if info < 24:
        return major, info, at + 1
    if info > 27:
        raise ValueError(f"CBOR head without a definite length at {at}")
    size = 1 << (info - 24)
    return major, int.from_bytes(data[at + 1 : at + 1 + size], "big"), at + 1 + size


def array_body(data: bytes | memoryview, at: int) -> int:
    """Where the items of the array whose head is at ``at`` start."""
    major, _, after = read_head(data, at)
    if major != 4:
        raise ValueError(f"not a CBOR array at {at}")
    return after


def _words_start(chunk: bytes) -> tuple[int, int]:
    """An index chunk ``[[word, ...]]``: how many words, and where the first starts."""
    _, count, at = read_head(chunk, array_body(chunk, 0))
    return count, at


def joined(lists: Sequence[tuple[list[list[Any]], Numbered]]) -> list[list[Any]]:
    """One word's pages from several parts (each list with its part) as one list.  A list gives
    each page as the difference from the page before it (the first: from 0); a page's locations in
    metadata name each field by its place in the run's fields, renumbered for the merge's."""
    out: list[list[Any]] = []
    last = 0
    for pages, part in lists:
        if not pages:
            continue
        if part.fields is not None:
            fields = part.fields
            pages = [[p[0], p[1], [fields.get(x, x) for x in p[2]]] if p[2] else p for p in pages]
        out.append([pages[0][0] + part.offset - last, *pages[0][1:]])
        out.extend(pages[1:])
        last = part.offset + sum(page[0] for page in pages)
    return out


def replaced(kept: list[list[Any]], fresh: list[tuple[int, list[Any]]], removed: frozenset[int]) -> list[list[Any]]:
    """A word's pages ``kept`` (each page the difference from the page before it) without those
    whose number is in ``removed``, and with ``fresh`` (each page with its number) put in order.
    The commonest words have thousands of pages and an update changes a few dozen: the runs
    between changes are copied as they are (a list slice), and only the page after each change
    gets a new difference."""
    numbers = list(accumulate(map(_PAGE, kept)))
    gone = removed.intersection(numbers)
    if not gone and not fresh:
        return kept
    events = sorted(
        [(bisect_left(numbers, n), 1, n, i) for i, n in enumerate(gone)]
        + [(bisect_left(numbers, n), 0, n, i) for i, (n, _) in enumerate(fresh)]
    )  # at each place in kept: the fresh pages before it in order, then whether it goes
    out: list[list[Any]] = []
    at = last = 0  # the next page of kept to copy; the number of the last page out

    def copy(stop: int) -> None:
        nonlocal at, last
        if stop > at:
            out.append([numbers[at] - last, *kept[at][1:]])
            out.extend(kept[at + 1 : stop])  # each the difference from the one before, as before
            at, last = stop, numbers[stop - 1]

    for place, goes, number, i in events:
        copy(place)
        if goes:
            at = place + 1
        else:
            out.append([number - last, *fresh[i][1][1:]])
            last = number
    copy(len(kept))
    return out


_PAGE = itemgetter(0)
