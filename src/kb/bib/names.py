"""Person names between the text a paper file holds (``Zoë O'Neil-Smith``) and BibTeX.

Written: each name is LaTeX-encoded whole, split into BibTeX's parts (first, von,
last, jr) by bibtexparser's ``SplitNameParts`` and written ``von Last, Jr, First``
by ``MergeNameParts`` and ``MergeCoAuthors``.  A name BibTeX would misread as
more than one - one with a comma or the word ``and`` - is braced whole first, and
a word that starts with a command is braced (:class:`ProtectNames`).  Read:
``SeparateCoAuthors`` and ``SplitNameParts``, the parts decoded, then :func:`display_name`.
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


_COMMAND_WORD = re.compile(r"(?<!\S)(\\\S+)")  # a word that starts with a command, e.g. \&


def _protected(name: str) -> str:
    if "," in name or _AND.search(name):
        return "{" + name + "}"
    # a word that starts with a command is braced: bibtexparser's author splitter misreads a name
    # part that starts with one ("0 \&" would be written "\&, 0" and read back as "0")
    return _COMMAND_WORD.sub(r"{\1}", name)


class ProtectNames(BlockMiddleware):
    """Braces a LaTeX-encoded name with a comma or the word ``and`` in it, so that BibTeX
    reads it as one name (a team, a name written ``Last, First``), and each word of a name
    that starts with a command (bibtexparser's author splitter would misread it)."""

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
