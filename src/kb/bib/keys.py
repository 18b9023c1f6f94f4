"""Citation keys: ``<first author's last name, else short name><year><first significant
title word>``, lowercase ASCII, deterministic.

Papers that would share a key get suffixes ``a``, ``b``, … in arXiv-id (then
paper-id) order, so the oldest paper keeps ``a`` when a newer one arrives.  The
year in a key comes from ``published``, else arXiv's v1 date, else ``submitted``
- not from the arXiv id's month as the entry's ``year`` may - so that the keys
already handed out stay as they are.
"""

from __future__ import annotations

import re
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kb.bib.fields import authors_of
from kb.data.models import Paper
from kb.data.text import STOPWORDS

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


Carried = dict[str, tuple[Paper, str, "str | None"]]  # paper id -> (its record, its key, its entry)


@dataclass
class Remembered:
    """What is known of the last knowledge base asked about: its keys, and entries written;
    ``carried``: entries a long-running process keeps from earlier knowledge bases (:func:`carry`)."""

    kb: Callable[[], object]  # a weak reference
    count: int
    keys: dict[str, str]
    entries: dict[str, str | None] = field(default_factory=dict)
    carried: Carried | None = None


_last: Remembered | None = None


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower())


def _key_year(paper: Paper) -> str:
    if paper.published:
        return paper.published.split("-")[0]
    meta = paper.arxiv_meta
    day = (meta.published if meta else None) or paper.submitted
    return str(day.year) if day else ""


def key_base(paper: Paper) -> str:
    """The citation key before de-duplication."""
    authors = authors_of(paper) or [""]
    who = _ascii_word(authors[0].split(" ")[-1])[:32]
    who = who or _ascii_word(paper.short)[:32] or _ascii_word(paper.id)[:32] or "paper"
    word = ""
    for w in paper.display_title.split():
        candidate = _ascii_word(w)[:20]
        if candidate and candidate not in STOPWORDS and candidate not in who:
            word = candidate
            break
    return f"{who}{_key_year(paper)}{word}"


def citation_keys(kb: KnowledgeBase) -> dict[str, str]:
    """{paper id: citation key} for every paper of the knowledge base, de-duplicated.

    Remembered for the last knowledge base asked about (pages call it once per paper)."""
    return dict(keys_of(kb))


def keys_of(kb: KnowledgeBase) -> dict[str, str]:
    """:func:`citation_keys` without the copy (read only): O(1) per paper page."""
    return remembered(kb).keys


def remembered(kb: KnowledgeBase) -> Remembered:
    """The keys (and entries written) of ``kb``, computed once while it is the one asked about."""
    global _last
    if _last is not None and _last.kb() is kb and _last.count == len(kb.papers):
        return _last
    found = Remembered(lambda: None, len(kb.papers), _compute(kb))
    try:
        found.kb = weakref.ref(kb)
        _last = found
    except TypeError:  # pragma: no cover - an object without weak references
        pass
    return found


def carry(kb: KnowledgeBase, kept: Carried) -> None:
    """Let ``kb`` take from ``kept`` each entry written for the same record (the same object: an
    unchanged file's, :class:`kb.knowledge.load.Memo`) under the same key, and leave its own there
    (``kb preview``: an entry is a pure function of the two, :func:`kb.bib.export.entry_for`)."""
    remembered(kb).carried = kept


def _compute(kb: KnowledgeBase) -> dict[str, str]:
    groups: dict[str, list[Paper]] = {}
    for paper in kb.papers.values():
        groups.setdefault(key_base(paper), []).append(paper)
    out: dict[str, str] = {}
    for base, papers in groups.items():
        if len(papers) == 1:
            out[papers[0].id] = base
            continue
        papers.sort(key=lambda p: (p.arxiv_base or "~", p.id))
        for i, paper in enumerate(papers):
            out[paper.id] = base + _suffix(i)
    return out


def _suffix(i: int) -> str:
    letters = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        letters = chr(ord("a") + r) + letters
    return letters
