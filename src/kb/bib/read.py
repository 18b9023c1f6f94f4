"""BibTeX text -> what each entry says about a paper, as plain text (``kb bib import``).

bibtexparser parses the text and its middlewares (:data:`parse_stack`) resolve
``@string`` macros, remove the enclosing braces or quotes, lower-case the field
names, turn the month (``aug``, ``{August}``, ``8``) into a number, split the
author list into names and each name into its parts, and decode the LaTeX of
every text field (:class:`kb.bib.latex.DecodeFields`).  :func:`paper_fields_from_entry`
then reads an entry into a :class:`BibPaper`; :func:`entry_arxiv` finds its arXiv
id (``eprint``, else an arXiv URL or ``arXiv:`` tag in ``url``, ``journal``,
``note`` or ``howpublished``).  An entry that :mod:`kb.bib.export` wrote reads
back as the fields it was written from.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

from bibtexparser.entrypoint import parse_string
from bibtexparser.library import Library
from bibtexparser.middlewares import (
    BlockMiddleware,
    LibraryMiddleware,
    MonthIntMiddleware,
    NormalizeFieldKeys,
    RemoveEnclosingMiddleware,
    ResolveStringReferencesMiddleware,
    SeparateCoAuthors,
    SplitNameParts,
)
from bibtexparser.model import Entry

from kb.bib.latex import DecodeFields
from kb.bib.names import NAME_FIELDS, display_name
from kb.data import arxiv_id

_ARXIV_IN_TEXT = re.compile(r"arxiv\.org/(?:abs|pdf)/(?P<url>[^\s?#}]+)|arXiv:\s*(?P<tag>\S+)", re.IGNORECASE)
_ARXIV_JOURNAL = re.compile(r"arxiv\b", re.IGNORECASE)


@dataclass(frozen=True)
class BibPaper:
    """What an entry says about a paper, as plain text (see :func:`paper_fields_from_entry`)."""

    key: str
    line: int  # 1-based line of the entry
    entry_type: str
    arxiv: str | None
    title: str | None
    authors: tuple[str, ...]
    year: str | None
    month: int | None
    venue: str | None
    venue_detail: str | None
    journal: str | None
    doi: str | None
    primary_class: str | None
    url: str | None


def parse_stack() -> list[BlockMiddleware | LibraryMiddleware]:
    return [
        ResolveStringReferencesMiddleware(),
        RemoveEnclosingMiddleware(),
        NormalizeFieldKeys(),
        MonthIntMiddleware(),
        SeparateCoAuthors(name_fields=NAME_FIELDS),
        SplitNameParts(name_fields=NAME_FIELDS),
        DecodeFields(),
    ]


def parse(text: str) -> Library:
    """The library in ``text``; blocks that fail are in its ``failed_blocks``, not logged."""
    log = logging.getLogger("bibtexparser")
    level, log.level = log.level, logging.CRITICAL + 1  # the caller reports failures, located
    try:
        return parse_string(text, parse_stack=parse_stack())
    finally:
        log.setLevel(level)


def _value(entry: Entry, name: str) -> str | None:
    field = entry.fields_dict.get(name)
    if field is None or field.value is None:
        return None
    value = field.value if isinstance(field.value, str) else str(field.value)
    return value.strip() or None


def entry_arxiv(entry: Entry) -> tuple[str | None, str | None]:
    """(arXiv id as written, or None; a problem with it, or None)."""
    prefix = (_value(entry, "archiveprefix") or _value(entry, "eprinttype") or "").lower()
    eprint = _value(entry, "eprint")
    if eprint and prefix in ("", "arxiv"):
        parsed = arxiv_id.parse(eprint)
        if parsed is None:
            return None, f"eprint '{eprint}' is not an arXiv id"
        return str(parsed), None
    for name in ("url", "journal", "note", "howpublished"):
        m = _ARXIV_IN_TEXT.search(_value(entry, name) or "")
        if m:
            found = (m.group("url") or m.group("tag")).rstrip(".,;").removesuffix(".pdf")
            parsed = arxiv_id.parse(found)
            if parsed:
                return str(parsed), None
    return None, None


def _authors(entry: Entry) -> tuple[str, ...]:
    field = entry.fields_dict.get("author")
    names = field.value if field is not None and isinstance(field.value, list) else []
    return tuple(name for name in (display_name(parts) for parts in names) if name)


def _month(entry: Entry) -> int | None:
    field = entry.fields_dict.get("month")
    value = field.value if field is not None else None
    return value if isinstance(value, int) and 1 <= value <= 12 else None


def paper_fields_from_entry(entry: Entry) -> BibPaper:
    """Read an entry's fields as plain text."""
    journal = _value(entry, "journal")
    if journal and _ARXIV_JOURNAL.match(journal):
        journal = None  # "arXiv preprint arXiv:…" is no journal reference
    year = _value(entry, "year")
    return BibPaper(
        key=entry.key,
        line=(entry.start_line or 0) + 1,
        entry_type=entry.entry_type.lower(),
        arxiv=entry_arxiv(entry)[0],
        title=_value(entry, "title"),
        authors=_authors(entry),
        year=year if year and re.fullmatch(r"\d{4}", year) else None,
        month=_month(entry),
        venue=_value(entry, "booktitle"),
        venue_detail=_value(entry, "note") if _value(entry, "booktitle") else None,
        journal=journal,
        doi=_value(entry, "doi"),
        primary_class=_value(entry, "primaryclass"),
        url=_value(entry, "url"),
    )
