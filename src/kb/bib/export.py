"""Papers -> BibTeX text, written by bibtexparser through its middlewares.

:func:`entry_for` gives one paper's entry (None when the paper cannot be cited,
see :func:`kb.bib.fields.uncitable`), :func:`export_library` the entries of many,
sorted by citation key.  The plain fields of :func:`kb.bib.fields.fields_for`
pass through :data:`unparse_stack`: LaTeX encoding (:mod:`kb.bib.latex`), name
protection and splitting (:mod:`kb.bib.names`), the month as BibTeX's macro
(``may``), then braces around every other value.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from bibtexparser.entrypoint import write_string
from bibtexparser.library import Library
from bibtexparser.middlewares import (
    AddEnclosingMiddleware,
    BlockMiddleware,
    MergeCoAuthors,
    MergeNameParts,
    MonthAbbreviationMiddleware,
    SplitNameParts,
)
from bibtexparser.model import Entry, Field
from bibtexparser.writer import BibtexFormat

from kb.bib.fields import fields_for, uncitable
from kb.bib.keys import key_base, keys_of, remembered
from kb.bib.latex import EncodeFields
from kb.bib.names import NAME_FIELDS, ProtectNames
from kb.data.models import Paper

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

FIELD_ORDER = (
    "title",
    "author",
    "booktitle",
    "journal",
    "note",
    "year",
    "month",
    "doi",
    "eprint",
    "archivePrefix",
    "primaryClass",
    "url",
)


def unparse_stack() -> list[BlockMiddleware]:
    return [
        EncodeFields(),
        ProtectNames(),
        SplitNameParts(name_fields=NAME_FIELDS),
        MergeNameParts(style="last", name_fields=NAME_FIELDS),
        MergeCoAuthors(name_fields=NAME_FIELDS),
        MonthAbbreviationMiddleware(),
        AddEnclosingMiddleware(reuse_previous_enclosing=False, enclose_integers=True, default_enclosing="{"),
    ]


def _entry(paper: Paper, key: str) -> Entry:
    plain = fields_for(paper)
    fields = [
        Field(name, list(value) if isinstance(value, tuple) else value)
        for name, value in ((n, plain[n]) for n in FIELD_ORDER if n in plain)
    ]
    return Entry(str(plain["ENTRYTYPE"]), key, fields)


def _format() -> BibtexFormat:
    fmt = BibtexFormat()
    fmt.indent = "  "
    fmt.block_separator = "\n"
    return fmt


def _write(entry: Entry) -> str:
    return write_string(Library([entry]), unparse_stack=unparse_stack(), bibtex_format=_format())


def _key(kb: KnowledgeBase | None, paper: Paper) -> str:
    if kb is not None and paper.id in kb.papers:
        return keys_of(kb).get(paper.id) or key_base(paper)
    return key_base(paper)


def _text(paper: Paper, key: str) -> str | None:
    return None if uncitable(paper) else _write(_entry(paper, key))


def entry_for(paper: Paper, kb: KnowledgeBase | None = None) -> str | None:
    """One BibTeX entry for ``paper`` (its library-wide key when ``kb`` is given), or None
    when it cannot be cited.  Written once per paper of the knowledge base asked about."""
    if kb is None or kb.papers.get(paper.id) is not paper:
        return _text(paper, _key(kb, paper))
    found = remembered(kb)
    entries, kept = found.entries, found.carried
    if paper.id not in entries:
        key = _key(kb, paper)
        carried = kept.get(paper.id) if kept is not None else None
        if carried is not None and carried[0] is paper and carried[1] == key:
            entries[paper.id] = carried[2]
        else:
            entries[paper.id] = _text(paper, key)
            if kept is not None:
                kept[paper.id] = (paper, key, entries[paper.id])
    return entries[paper.id]


def export_library(kb: KnowledgeBase, papers: Iterable[Paper | str]) -> str:
    """BibTeX for those of ``papers`` (Paper objects or ids) that can be cited, sorted by
    citation key."""
    chosen: dict[str, Paper] = {}
    for p in papers:
        paper = kb.papers[p] if isinstance(p, str) else p
        if not uncitable(paper):
            chosen[paper.id] = paper
    keyed = sorted((_key(kb, p), p.id, p) for p in chosen.values())
    # entry by entry: bibtexparser's writer is quadratic in the number of blocks (it copies the
    # block list once per block); with a fixed value column, joining gives the same text
    separator: str = _format().block_separator
    return separator.join(entry_for(p, kb) or "" for _, _, p in keyed)
