"""Mentions of papers: explicit references and arXiv ids written in text.

A mention knows where it stands (a brief part, a living-document section or a
hand-written page), its date, and the sentence around it, so a paper page can
list its backlinks without reading any file.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

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
    after = _SENTENCE_END.search(text, end)
    # a full stop ends the sentence quoted; a semicolon only ends its clause: not quoted
    right = after.start() + (1 if after.group() in "。！？!?" else 0) if after else len(text)
    sentence = text[left:right].strip()
    if len(sentence) <= CONTEXT_MAX:
        return sentence
    # keep the mention in view
    rel = start - left
    lo = max(0, min(rel - CONTEXT_MAX // 2, len(sentence) - CONTEXT_MAX))
    clipped = sentence[lo : lo + CONTEXT_MAX].strip()
    return ("…" if lo > 0 else "") + clipped + ("…" if lo + CONTEXT_MAX < len(sentence) else "")


def iter_strings(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """Every string in a model (or plain data), with its key path, in field order.

    Depth first with a stack of its own (not a generator per level: every string would pass up
    through one per level of nesting); each container's children go on in reverse, so they come
    off in order.  Values that hold no string (numbers, dates, ``None``) never go on it."""
    stack: list[tuple[tuple[str | int, ...], object]] = [(path, value)]
    pop, push = stack.pop, stack.append
    while stack:
        path, value = pop()
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, BaseModel):
            for name in _field_names(type(value)):
                child = getattr(value, name)
                if isinstance(child, _HOLDERS):
                    push((path + (name,), child))
        elif isinstance(value, (list, tuple)):
            for i in range(len(value) - 1, -1, -1):
                if isinstance(value[i], _HOLDERS):
                    push((path + (i,), value[i]))
        elif isinstance(value, dict):
            for k in reversed(value):
                if isinstance(value[k], _HOLDERS):
                    push((path + (k,), value[k]))


_HOLDERS = (str, BaseModel, list, tuple, dict)  # what may hold a string (iter_strings)
_FIELD_NAMES: dict[type[BaseModel], tuple[str, ...]] = {}


def _field_names(model: type[BaseModel]) -> tuple[str, ...]:
    """A model's field names, last first (as :func:`iter_strings` stacks them)."""
    names = _FIELD_NAMES.get(model)
    if names is None:
        names = _FIELD_NAMES[model] = tuple(reversed(model.model_fields))
    return names


def text_mentions(place: Place, text: str, paper_of: Callable[[str], str | None]) -> list[Mention]:
    """The arXiv ids written in ``text``; ``paper_of`` names the paper of an id (or None)."""
    out = []
    for m in arxiv_id.find_ids(text):
        base = m.id.base
        out.append(Mention(place, paper_of(base), base, sentence_around(text, m.start, m.end), False))
    return out
