"""Mentions of papers: explicit references and arXiv ids written in text.

A mention knows where it stands (a brief part, a living-document section or a
hand-written page), its date, and the sentence around it, so a paper page can
list its backlinks without reading any file.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Iterator

from pydantic import BaseModel

from kb.data import arxiv_id

_SENTENCE_END = re.compile(r"[。；;！？!?\n]|(?<=[.])\s")
CONTEXT_MAX = 220


@dataclass(frozen=True)
class Place:
    """A spot on the site: ``page`` is a docs-relative path, ``anchor`` an element id."""

    kind: str  # "brief" | "section" | "page"
    page: str
    anchor: str
    label: str
    date: dt.date | None = None
    brief: str | None = None  # brief key when kind == "brief"


@dataclass(frozen=True)
class Mention:
    place: Place
    paper: str | None  # paper id when the knowledge base has it
    arxiv: str | None  # base arXiv id when written as an id
    context: str
    explicit: bool  # a reference field (papers: [...]) rather than text


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` that contains ``text[start:end]``, trimmed to a readable length."""
    left = 0
    for m in _SENTENCE_END.finditer(text, 0, start):
        left = m.end()
    m = _SENTENCE_END.search(text, end)
    right = m.start() + (1 if m and m.group() in "。；;！？!?" else 0) if m else len(text)
    sentence = text[left:right].strip()
    if len(sentence) <= CONTEXT_MAX:
        return sentence
    # keep the mention in view
    rel = start - left
    lo = max(0, min(rel - CONTEXT_MAX // 2, len(sentence) - CONTEXT_MAX))
    clipped = sentence[lo:lo + CONTEXT_MAX].strip()
    return ("…" if lo > 0 else "") + clipped + ("…" if lo + CONTEXT_MAX < len(sentence) else "")


def iter_strings(value: object, path: tuple = ()) -> Iterator[tuple[tuple, str]]:
    """Every string in a model (or plain data), with its key path, in field order."""
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from iter_strings(getattr(value, name), path + (name,))
    elif isinstance(value, str):
        yield path, value
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from iter_strings(item, path + (i,))
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from iter_strings(v, path + (k,))


def text_mentions(place: Place, text: str, arxiv_to_paper: dict[str, str]) -> list[Mention]:
    out = []
    for m in arxiv_id.find_ids(text):
        base = m.id.base
        out.append(Mention(place, arxiv_to_paper.get(base), base, sentence_around(text, m.start, m.end), False))
    return out
