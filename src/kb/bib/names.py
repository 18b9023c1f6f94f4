"""Person names between the text a paper file holds (``Zoë O'Neil-Smith``) and BibTeX.

Written: each name is LaTeX-encoded whole, split into BibTeX's parts (first, von,
last, jr) by bibtexparser's ``SplitNameParts`` and written ``von Last, Jr, First``
by ``MergeNameParts`` and ``MergeCoAuthors``.  A name BibTeX would misread as
more than one - one with a comma or the word ``and`` - is braced whole first, and
so is one that starts with a command (:class:`ProtectNames`).  Read: ``SeparateCoAuthors`` and ``SplitNameParts``, the
parts decoded, then :func:`display_name`.
"""

from __future__ import annotations

import re

from bibtexparser.library import Library
from bibtexparser.middlewares import BlockMiddleware, NameParts
from bibtexparser.model import Block, Entry

from kb.bib.latex import one_line

_AND = re.compile(r"(?:^|\s)and(?:\s|$)", re.IGNORECASE)
NAME_FIELDS = ("author",)


def display_name(parts: NameParts) -> str:
    """Decoded name parts -> the name as a paper file writes it (``First von Last Jr``)."""
    return one_line(parts.merge_first_name_first)


def _protected(name: str) -> str:
    if "," in name or _AND.search(name) or name.startswith("\\"):
        return "{" + name + "}"
    return name


class ProtectNames(BlockMiddleware):
    """Braces a LaTeX-encoded name with a comma or the word ``and`` in it, so that BibTeX
    reads it as one name (a team, a name written ``Last, First``), and one that starts with
    a command (bibtexparser's author splitter would read it as part of the name before)."""

    def __init__(self) -> None:
        super().__init__(allow_inplace_modification=True, allow_parallel_execution=True)

    @classmethod
    def metadata_key(cls) -> str:
        return "kb_protect_names"

    def transform_entry(self, entry: Entry, library: Library) -> Block:
        for field in entry.fields:
            if field.key in NAME_FIELDS and isinstance(field.value, list):
                field.value = [_protected(name) for name in field.value]
        return entry
