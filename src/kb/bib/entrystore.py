"""Each paper's BibTeX entry, kept on disk between builds.

Writing the entries of a year and a half of papers through bibtexparser's middlewares is a fair part
of a build (docs/performance.md#build), made again on every build for ``references.bib`` and the paper pages.  An
entry is a pure function of the paper's record and its citation key (:func:`kb.bib.export.entry_for`),
so :class:`EntryStore` keeps them in one file by the digest of the paper's file
(:class:`kb.data.recordstore.RecordStore`) and the key, salted with the code: a build hands the
kept ones to the knowledge base's remembered entries (:func:`kb.bib.keys.remembered`) and writes
only those of new or changed papers, or of papers whose key changed.  The file is JSON
(:func:`kb.data.recordstore.read_kept`: data, never code, with the salt it was written under); one
that cannot be read back as this shape, or of another salt, is made again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING

from kb.bib.keys import keys_of, remembered
from kb.data.recordstore import read_kept, salt_with, write_kept

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase

Kept = dict[tuple[str, str], str | None]  # (file digest, citation key) -> entry (None: not citable)
_Shape = list[tuple[str, str, str | None]]  # Kept as JSON: (file digest, citation key, entry)


def _salt() -> str:
    """The data package, this one and its libraries (:func:`kb.data.recordstore.salt_with`)."""
    return salt_with(__file__, f"{version('bibtexparser')} {version('pylatexenc')}")


@dataclass
class EntryStore:
    """BibTeX entries in ``path``: :meth:`load` before any is written, :meth:`save` after."""

    path: Path
    salt: str = field(default_factory=_salt)
    reused: int = 0  # entries the last build read back
    _read: Kept = field(default_factory=dict, repr=False)

    def load(self, kb: KnowledgeBase, tokens: Mapping[str, str]) -> None:
        """Give ``kb`` the entries kept for its papers (``tokens``: paper id -> its file's digest)
        whose file and key are as they were."""
        self.reused, self._read = 0, {}
        rows = read_kept(self.path, self.salt, _Shape)
        if rows is None:
            return
        self._read = kept = {(token, key): entry for token, key, entry in rows}
        entries, keys = remembered(kb).entries, keys_of(kb)
        for pid in kb.papers:
            token = tokens.get(pid)
            if token is not None and (token, keys[pid]) in kept and pid not in entries:
                entries[pid] = kept[token, keys[pid]]
                self.reused += 1

    def save(self, kb: KnowledgeBase, tokens: Mapping[str, str]) -> None:
        """Keep the entries ``kb`` has written for its papers (when they differ from those read)."""
        entries, keys = remembered(kb).entries, keys_of(kb)
        out: Kept = {(tokens[pid], keys[pid]): entries[pid] for pid in kb.papers if pid in tokens and pid in entries}
        if out != self._read:
            write_kept(self.path, self.salt, [(token, key, entry) for (token, key), entry in out.items()], _Shape)
            self._read = out
