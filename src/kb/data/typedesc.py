"""Describing the models' types to people: the schema reference (``kb schema``) and
the fix hints of validation errors use the same words."""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from collections.abc import Callable
from typing import Annotated, Literal, Union

import annotated_types as at
from pydantic import AwareDatetime, BaseModel
from pydantic.fields import FieldInfo

from kb.data import models as m

# Named value types: (type, name, what it accepts).
NAMED: tuple[tuple[object, str, str], ...] = (
    (
        m.Slug,
        "slug",
        "lower-case letters, digits and `-`, starting with a letter or digit, at most 80 characters",
    ),
    (m.Line, "line", "one line of text, 1–400 characters"),
    (m.Text, "text", "text, 1–4000 characters; a YAML folded block (`>-`) keeps long text readable"),
    (m.RepoPath, "path", "a repository path, 1–300 characters, without spaces, quotes, `<`, `>`, `` ` `` or `|`"),
    (m.PartialDate, "partial date", "`YYYY`, `YYYY-MM` or `YYYY-MM-DD`"),
    (m.Value, "value", "an integer from 1 to 5 (shown as stars)"),
    (m.Count, "count", "a whole number ≥ 0"),
    (m.Priority, "priority", "`P0`, `P1`, `P2` or `P3`"),
    (m.DocsPage, "docs page", "a page under docs/: lower-case letters, digits, `_`, `-` and `/`, ending in `.md`"),
    (m.Round, "round", "capital letters and digits, a letter first, at most 6: `E1`, `E2`"),
    (m.ArxivIdText, "arXiv id", "`2505.02922`, `2505.02922v2` or `hep-th/9901001` (no `arXiv:` prefix)"),
    (m.Url, "URL", "an `http://` or `https://` URL without spaces or quotes"),
    (m.Flag, "true/false", "the words `true` or `false` (YAML's yes/no/on/off are text, not booleans)"),
    (m.Date, "date", "`YYYY-MM-DD`"),
    (m.DateTime, "date-time", "`YYYY-MM-DDTHH:MM:SS+08:00`: ISO 8601 with a UTC offset"),
    (m.FindingCode, "finding code", "the code `kb validate` prints for a finding, e.g. `stated/net_new`"),
)
PLAIN: dict[object, str] = {dt.date: "date", AwareDatetime: "date-time", int: "integer", str: "string"}
LABELS: dict[type, dict[typing.Any, str]] = {
    m.Credibility: m.CREDIBILITY_LABELS,
    m.Status: m.STATUS_LABELS,
    m.AdjacentStatus: m.ADJACENT_LABELS,
    m.Light: m.LIGHTS,
    m.ClaimAction: m.CLAIM_ACTION_LABELS,
}


def code(text: object) -> str:
    """A Markdown code span that survives backticks in ``text``."""
    s = str(text)
    return f"`` {s} ``" if "`" in s else f"`{s}`"


def constraints(metadata: typing.Iterable[object]) -> list[str]:
    out: list[str] = []
    for c in metadata:
        if isinstance(c, FieldInfo):
            out.extend(constraints(c.metadata))
        elif isinstance(c, at.Ge):
            out.append(f"≥ {c.ge}")
        elif isinstance(c, at.Le):
            out.append(f"≤ {c.le}")
        elif isinstance(c, at.MinLen):
            out.append(f"length ≥ {c.min_length}")
        elif isinstance(c, at.MaxLen):
            out.append(f"length ≤ {c.max_length}")
        elif pattern := getattr(c, "pattern", None):
            out.append(f"matching {code(pattern)}")
    return out


# An example of each named type, for fix hints when a field gives none.
EXAMPLES: dict[str, str] = {
    "slug": "s1-3-kv-cache",
    "line": "<one line of text>",
    "text": "<text>",
    "path": "inbox/tom/2026-09-04-radar.md",
    "partial date": "2026-09",
    "value": "4",
    "count": "3",
    "priority": "P1",
    "round": "E1",
    "docs page": "inference.md",
    "arXiv id": "2505.02922",
    "URL": "https://arxiv.org/abs/2505.02922",
    "true/false": "true",
    "date": "2026-09-04",
    "date-time": "2026-09-04T22:20:00+08:00",
}


def example_of(tp: object) -> str | None:
    """An example value of a field's type: of its named type (first one found), or None."""
    for alias, name, _ in NAMED:
        if tp == alias:
            return EXAMPLES.get(name)
    origin = typing.get_origin(tp)
    if origin in (Annotated, Union, types.UnionType):
        return next((e for a in typing.get_args(tp) if (e := example_of(a)) is not None), None)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return str(next(iter(tp)).value)
    return None


class Describer:
    """Type names in words; ``link(name, anchor)`` decorates named types and records
    (the schema reference links them), and nested records are remembered in order.
    With ``spell_out``, named types are described by what they accept (fix hints)."""

    def __init__(self, link: Callable[[str, str], str] = lambda name, anchor: name, spell_out: bool = False) -> None:
        self.link = link
        self.spell_out = spell_out
        self.found: list[type[BaseModel]] = []

    def type(self, tp: object) -> str:
        for alias, name, what in NAMED:
            if tp == alias:
                return what if self.spell_out else self.link(name, "value-types")
        origin = typing.get_origin(tp)
        if origin is Annotated:
            inner, *meta = typing.get_args(tp)
            extra = constraints(meta)
            if typing.get_origin(inner) is list:  # the list's length, not its items': after them
                extra = [e.replace("length ≥ 1", "at least one").replace("length", "number of items") for e in extra]
                return self.type(inner) + ("; " + ", ".join(extra) if extra else "")
            return self.type(inner) + (" " + ", ".join(extra) if extra else "")
        if origin in (Union, types.UnionType):
            return " or ".join(self.type(a) for a in typing.get_args(tp) if a is not type(None))
        if origin is list:
            (item,) = typing.get_args(tp)
            return f"list of {self.type(item)}"
        if origin is Literal:
            return "one of " + ", ".join(code(v) for v in typing.get_args(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            labels = LABELS.get(tp, {})
            return "one of " + ", ".join(code(v.value) + (f" ({labels[v]})" if v in labels else "") for v in tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp not in self.found:
                self.found.append(tp)
            return self.link(tp.__name__, tp.__name__.lower())
        return PLAIN.get(tp, getattr(tp, "__name__", str(tp)))


def field_at(model: type[BaseModel], loc: typing.Sequence[str | int]) -> tuple[type[BaseModel], str | None]:
    """The record class and field name a validation error's location points into."""
    current = model
    name: str | None = None
    for part in loc:
        if isinstance(part, int):
            continue
        if part not in current.model_fields:
            return current, part
        name = part
        inner = _record_in(typing.get_type_hints(current, include_extras=True)[part])
        if inner is None:
            return current, name
        current, name = inner, None
    return current, name


def _record_in(tp: object) -> type[BaseModel] | None:
    origin = typing.get_origin(tp)
    if origin is Annotated or origin in (Union, types.UnionType) or origin is list:
        for arg in typing.get_args(tp):
            found = _record_in(arg)
            if found is not None:
                return found
        return None
    return tp if isinstance(tp, type) and issubclass(tp, BaseModel) else None
