"""The mentions of each brief and paper record, kept on disk between builds.

Collecting the mentions of a year and a half of briefs (every string of every record read for
arXiv ids and references, each with its sentence) is a fair part of a build (docs/performance.md#build).  A record's
mentions are a pure function of the record, of what it asked of the rest of the knowledge base
(:class:`kb.knowledge.backlinks.Lookups`) and of the catalogue, so :class:`MentionStore` keeps the build's
:class:`~kb.knowledge.backlinks.MentionMemo` in one file, each record known by its file's digest
(:class:`kb.data.recordstore.RecordStore`), salted with this package's code and the message
catalogue's words (a mention's place is named in them): a build after one
more brief collects the mentions of that brief, and of the records that asked about a paper it
brought.  The file is JSON (:func:`kb.data.recordstore.read_kept`: data, never code, with the salt
it was written under); one that cannot be read back as this shape, or of another salt, is made
again, and a record's mentions are reused only while its file's digest is the one kept beside them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kb.data.recordstore import RecordStore, read_kept, salt_with, write_kept
from kb.knowledge.backlinks import Kept, MentionMemo
from kb.knowledge.mentions import Mention
from kb.messages import UI

if TYPE_CHECKING:  # pragma: no cover
    from kb.data.loader import Loaded


def _salt() -> str:
    """The data package and this one (:func:`kb.data.recordstore.salt_with`), and the catalogue's
    words (a mention's place is named in them)."""
    return salt_with(__file__, repr(sorted(UI.items())))


class _Record(BaseModel):
    """A record's :class:`~kb.knowledge.mentions.Kept` as JSON: its file's digest, what it asked
    (kind, name, answer) and its mentions."""

    token: str
    asked: list[tuple[str, str, tuple[str | None, ...] | str | None]]
    mentions: list[Mention]


_Shape = dict[str, _Record]


def tokens(loaded: Loaded, records: RecordStore) -> dict[str, str]:
    """Each brief and paper record ("brief:key"/"paper:id") by the digest of its file."""
    out = {}
    for kind, table in (("brief", loaded.briefs), ("paper", loaded.papers)):
        for key, (_, src) in table.items():
            digest = records.digests.get(src.path)
            if digest is not None:
                out[f"{kind}:{key}"] = digest
    return out


@dataclass
class MentionStore:
    """A :class:`MentionMemo` in ``path``: :meth:`load` before a build, :meth:`save` after it."""

    path: Path
    salt: str = field(default_factory=_salt)
    reused: int = 0  # records whose mentions the last build read back
    made: int = 0  # records whose mentions it collected

    def load(self) -> MentionMemo:
        """The memo the last build saved, or an empty one (none, unreadable, or other code's)."""
        kept = read_kept(self.path, self.salt, _Shape)
        memo = MentionMemo()
        for key, r in (kept or {}).items():
            memo.records[key] = Kept(r.token, {(kind, name): answer for kind, name, answer in r.asked}, r.mentions)
        return memo

    def save(self, memo: MentionMemo, made: bool) -> None:
        """Keep ``memo`` for the next build; ``made``: whether it differs from what :meth:`load` read."""
        self.reused, self.made = memo.reused, len(memo.records) - memo.reused
        if made or not self.path.exists():
            out = {
                key: _Record(
                    token=str(k.token),
                    asked=[(kind, name, answer) for (kind, name), answer in k.asked.items()],
                    mentions=k.mentions,
                )
                for key, k in memo.records.items()
            }
            write_kept(self.path, self.salt, out, _Shape)
