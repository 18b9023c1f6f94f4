"""The schema reference, generated from the pydantic models in :mod:`kb.data.models`.

One table per record: key, type (with allowed values and patterns), whether it
is required, its default and its description.  The files (topic, paper, brief,
demo) come first, each followed by the records nested in it, in the order they
are first used.  ``kb schema --write CONTRIBUTING.md`` puts the result between
:data:`START` and :data:`END`; nothing in it is typed by hand.
"""

from __future__ import annotations

import datetime as dt
import enum
import types
import typing
from typing import Annotated, Literal, Union

import annotated_types as at
from pydantic import AwareDatetime, BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from kb.data import models as m

START = "<!-- schema:start -->"
END = "<!-- schema:end -->"

FILES: tuple[tuple[type[BaseModel], str], ...] = (
    (m.Topic, "data/topics/<id>.yaml"),
    (m.Paper, "data/papers/<id>.yaml"),
    (m.Brief, "data/briefs/<topic>/<YYYY-MM-DD>-<round>.yaml"),
    (m.Demo, "data/demos/<id>.yaml"),
)

# Named value types: (name, anchor, what it accepts).
NAMED: tuple[tuple[object, str, str], ...] = (
    (m.Slug, "slug", f"lower-case letters, digits and `-`, starting with a letter or digit, at most 80 characters: `{m.SLUG}`"),
    (m.Line, "line", "one line of text, 1–400 characters"),
    (m.Text, "text", "text, 1–4000 characters; a YAML folded block (`>-`) keeps long text readable"),
    (m.RepoPath, "path", "a repository path, 1–300 characters, without spaces, quotes, `<`, `>`, `` ` `` or `|`"),
    (m.PartialDate, "partial date", "`YYYY`, `YYYY-MM` or `YYYY-MM-DD`"),
    (m.Value, "value", "an integer from 1 to 5 (shown as stars)"),
    (m.Priority, "priority", "`P0`, `P1`, `P2` or `P3`"),
    (m.ArxivIdText, "arXiv id", "`2505.02922`, `2505.02922v2` or `hep-th/9901001` (no `arXiv:` prefix)"),
    (m.Url, "URL", "an `http://` or `https://` URL without spaces or quotes"),
    (m.Flag, "true/false", "the words `true` or `false` (YAML's yes/no/on/off are text, not booleans)"),
)
PLAIN: dict[object, tuple[str, str]] = {
    dt.date: ("date", "`YYYY-MM-DD`"),
    AwareDatetime: ("date-time", "`YYYY-MM-DDTHH:MM:SS+08:00`: ISO 8601 with a UTC offset"),
    int: ("integer", "a whole number"),
    str: ("string", "any text"),
}
LABELS: dict[type, dict] = {
    m.Credibility: m.CREDIBILITY_LABELS,
    m.Status: m.STATUS_LABELS,
    m.AdjacentStatus: m.ADJACENT_LABELS,
    m.Light: m.LIGHTS,
}


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _code(text: object) -> str:
    """A Markdown code span that survives backticks in ``text``."""
    s = str(text)
    return f"`` {s} ``" if "`" in s else f"`{s}`"


def _anchor(model: type[BaseModel]) -> str:
    return model.__name__.lower()


def _constraints(metadata) -> list[str]:
    out = []
    for c in metadata:
        if isinstance(c, FieldInfo):
            out.extend(_constraints(c.metadata))
        elif isinstance(c, at.Ge):
            out.append(f"≥ {c.ge}")
        elif isinstance(c, at.Le):
            out.append(f"≤ {c.le}")
        elif isinstance(c, at.Gt):
            out.append(f"> {c.gt}")
        elif isinstance(c, at.Lt):
            out.append(f"< {c.lt}")
        elif isinstance(c, at.MinLen):
            out.append(f"length ≥ {c.min_length}")
        elif isinstance(c, at.MaxLen):
            out.append(f"length ≤ {c.max_length}")
        elif hasattr(c, "pattern") and getattr(c, "pattern", None):
            out.append(f"matching {_code(c.pattern)}")
    return out


class _Walk:
    """Type rendering; remembers nested records in the order they are met."""

    def __init__(self) -> None:
        self.found: list[type[BaseModel]] = []

    def type(self, tp) -> str:
        for alias, name, _ in NAMED:
            if tp == alias:
                return f"[{name}](#value-types)"
        origin = typing.get_origin(tp)
        if origin is Annotated:
            inner, *meta = typing.get_args(tp)
            extra = _constraints(meta)
            return self.type(inner) + (" " + ", ".join(extra) if extra else "")
        if origin in (Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            return " or ".join(self.type(a) for a in args)
        if origin is list:
            (item,) = typing.get_args(tp)
            return f"list of {self.type(item)}"
        if origin is Literal:
            return "one of " + ", ".join(_code(v) for v in typing.get_args(tp))
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            labels = LABELS.get(tp, {})
            return "one of " + ", ".join(_code(v.value) + (f" ({labels[v]})" if v in labels else "") for v in tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            if tp not in self.found:
                self.found.append(tp)
            return f"[{tp.__name__}](#{_anchor(tp)})"
        if tp in PLAIN:
            return PLAIN[tp][0]
        return getattr(tp, "__name__", str(tp))  # pragma: no cover - every model type is listed above


def _default(info: FieldInfo) -> str:
    if info.is_required():
        return ""
    if info.default_factory is not None:
        value = info.default_factory()
        if isinstance(value, list):
            return "`[]`"
        return "empty"
    value = info.default
    if value is None or value is PydanticUndefined:
        return "—"
    if isinstance(value, bool):
        return _code(str(value).lower())
    if isinstance(value, enum.Enum):
        return _code(value.value)
    return _code(value)


def _doc(model: type[BaseModel]) -> str:
    doc = model.__doc__ or ""
    if doc.startswith(("Usage docs:", "!!! abstract")):  # pydantic's inherited BaseModel docstring
        return ""
    return " ".join(doc.split())


def _table(model: type[BaseModel], walk: _Walk) -> list[str]:
    hints = typing.get_type_hints(model, include_extras=True)
    rows = ["| Key | Type | Required | Default | Description |", "|---|---|---|---|---|"]
    for name, info in model.model_fields.items():
        hint = hints[name]
        tp = walk.type(hint)
        # constraints of an Annotated type are also copied into the field's metadata: list them once
        own = []
        for o in (typing.get_args(hint)[1:] if typing.get_origin(hint) is Annotated else ()):
            own.extend(o.metadata if isinstance(o, FieldInfo) else [o])
        extra = _constraints([c for c in info.metadata if not any(c is o or c == o for o in own)])
        if extra:
            tp += " (" + ", ".join(extra) + ")"
        rows.append(f"| `{name}` | {_cell(tp)} | {'yes' if info.is_required() else 'no'} | {_cell(_default(info))} "
                    f"| {_cell(info.description or '')} |")
    return rows


def markdown(level: int = 3) -> str:
    """The whole reference; headings start at ``level`` (3: under a ``##`` section)."""
    h = "#" * level
    out = [
        "<!-- Generated by `kb schema` from src/kb/data/models.py: do not edit by hand. -->",
        f"{h} Value types",
        "Types named in the tables below.  Every string is plain text: HTML, Markdown and template "
        "syntax in it are shown as written, never interpreted.  Keys not listed are errors.",
        "| Type | Accepts |\n|---|---|\n" + "\n".join(f"| {name} | {_cell(what)} |" for _, name, what in NAMED)
        + "\n" + "\n".join(f"| {name} | {_cell(what)} |" for name, what in PLAIN.values()),
    ]
    done: set[type[BaseModel]] = set()

    def record(rec: type[BaseModel], top: type[BaseModel], path: str | None) -> None:
        done.add(rec)
        walk = _Walk()
        rows = _table(rec, walk)
        out.append(f"{h} {rec.__name__}" if path else f"{h}# {rec.__name__}")
        intro = [f"File: `{path}`." if path else f"A record inside {top.__name__}."]
        if _doc(rec):
            intro.append(_doc(rec))
        out.append(" ".join(intro))
        out.append("\n".join(rows))
        for child in walk.found:  # depth first: each record right after the one that uses it
            if child not in done:
                record(child, top, None)

    for model, path in FILES:
        record(model, model, path)
    return "\n\n".join(out) + "\n"


def insert(document: str, reference: str) -> str:
    """``document`` with the text between the markers replaced by ``reference``."""
    start = document.find(START)
    end = document.find(END)
    if start < 0 or end < 0 or end < start or document.count(START) != 1 or document.count(END) != 1:
        raise ValueError(f"expected one {START} line followed by one {END} line")
    head = document[: start + len(START)]
    return head + "\n\n" + reference.strip("\n") + "\n\n" + document[end:]


def section(document: str) -> str:
    """The text between the markers (stripped), as :func:`insert` wrote it."""
    start = document.find(START)
    end = document.find(END)
    if start < 0 or end < start:
        raise ValueError(f"expected one {START} line followed by one {END} line")
    return document[start + len(START): end].strip("\n")
