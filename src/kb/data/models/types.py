"""Value types shared by every record: slugs, text, dates, URLs, arXiv ids.

Each type checks the text as it was written (the strict YAML reader keeps
every scalar a string), so ``2510.09660`` stays an id, ``NO`` stays a word and
``1_2`` is not a number.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from typing import Annotated

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)

from kb.data import arxiv_id
from kb.data.cjk import join_cjk

SLUG = r"^[a-z0-9][a-z0-9-]{0,79}$"
Slug = Annotated[str, StringConstraints(pattern=SLUG)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000), AfterValidator(join_cjk)]
Line = Annotated[str, StringConstraints(min_length=1, max_length=400, pattern=r"^[^\n]*$"), AfterValidator(join_cjk)]
RepoPath = Annotated[
    str, StringConstraints(min_length=1, max_length=300, pattern="^[^\\s<>\"'`|]+$")
]  # a plain quote: editors' (ECMA-262) regexes refuse an escaped one


def no_such_day(text: str) -> str:
    """``expected a date, got '…': why`` for ``YYYY-MM-DD`` text that is no day of the calendar
    ("" when it is one, or not of that form): the loader's message for any date key."""
    m = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text.strip())
    if m is None:
        return ""
    year, month, day = (int(x) for x in m.groups())
    if not 1 <= month <= 12:
        return f"expected a date, got '{text}': there is no month {month}"
    last = calendar.monthrange(year, month)[1]
    return "" if 1 <= day <= last else f"expected a date, got '{text}': {year}-{month:02d} has {last} days"


def _real_day(value: str) -> str:
    why = no_such_day(value)
    if why:
        raise ValueError(why)
    return value


PartialDate = Annotated[
    str,
    StringConstraints(pattern=r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$"),
    AfterValidator(_real_day),
    # editors read YAML 1.2: `published: 2026` is a number there, a year here
    WithJsonSchema({"type": ["string", "integer"], "description": "YYYY, YYYY-MM or YYYY-MM-DD"}),
]
Priority = Annotated[str, StringConstraints(pattern=r"^P[0-3]$")]


def _one_or_more(value: object) -> object:
    # `anchored_in: s1-2-scheduling` is the one-section form of `anchored_in: [s1-1-engines, s1-2-scheduling]`
    return [value] if isinstance(value, str) else value


SectionIds = Annotated[
    list[Slug],
    BeforeValidator(_one_or_more),
    Field(min_length=1),
    WithJsonSchema(
        {
            "anyOf": [
                {"type": "string", "pattern": SLUG},
                {"type": "array", "items": {"type": "string", "pattern": SLUG}, "minItems": 1},
            ],
            "description": "a section id, or a list of section ids",
        }
    ),
]
ROUND = r"^[A-Z][A-Z0-9]{0,5}$"  # a brief's round: E1, E2, ...
DocsPage = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_\-/]*\.md$", max_length=200)]
Round = Annotated[str, StringConstraints(pattern=ROUND)]
FindingCode = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_./:-]{0,119}$")]


def _arxiv(value: str) -> str:
    if value.lower().startswith("arxiv:"):
        raise ValueError(f"expected an arXiv id without the `arXiv:` prefix, got {value!r}")
    parsed = arxiv_id.parse(value)
    if parsed is None:  # the field's help (the loader's) then shows the right form
        why = arxiv_id.why_not(value)
        raise ValueError(f"expected an arXiv id, got {value!r}" + (f": {why}" if why else ""))
    return str(parsed)


def _url(value: str) -> str:
    if not re.fullmatch(r"https?://[^\s<>\"'`]+", value):
        raise ValueError(f"expected an http(s) URL without spaces or quotes, got {value!r}")
    return value


def _flag(value: object) -> object:
    # Only the words true/false: YAML 1.1's yes/no/on/off are text, never booleans.
    if isinstance(value, str):
        if value in ("true", "false"):
            return value == "true"
        raise ValueError(f"expected true or false, got {value!r}")
    return value


def _int_text(value: object) -> object:
    # digits only: pydantic would also take "1_2" (12) or "1e3"
    if isinstance(value, str) and not re.fullmatch(r"[+-]?\d+", value):
        raise ValueError(f"expected a whole number, got {value!r}")
    return value


def _date_text(value: object) -> object:
    # ISO dates only: pydantic would also turn "1788912000" (a timestamp) into a date
    if isinstance(value, str) and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError(f"expected a date YYYY-MM-DD, got {value!r}")
    return value


def _datetime_text(value: object) -> object:
    if isinstance(value, str) and not re.fullmatch(
        r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})", value
    ):
        raise ValueError(f"expected a date and time with its UTC offset, e.g. 2026-09-03T22:20:00+08:00, got {value!r}")
    return value


ArxivIdText = Annotated[
    str,
    AfterValidator(_arxiv),
    # editors read YAML 1.2: `arxiv: 2505.02922` is a number there, an id here
    WithJsonSchema({"type": ["string", "number"], "description": "an arXiv id such as 2505.02922"}),
]
Int = Annotated[int, BeforeValidator(_int_text)]
Count = Annotated[Int, Field(ge=0)]
Date = Annotated[dt.date, BeforeValidator(_date_text)]
DateTime = Annotated[AwareDatetime, BeforeValidator(_datetime_text)]
Flag = Annotated[bool, BeforeValidator(_flag)]
Value = Annotated[Int, Field(ge=1, le=5)]
Url = Annotated[str, AfterValidator(_url)]


class Record(BaseModel):
    """Every record: unknown keys are errors, values are frozen once read."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False, validate_default=True)


class Acknowledgement(Record):
    """A finding (a stated-vs-computed disagreement or an inconsistency) the authors know of.

    It stays visible on the page with the reason, but no longer fails
    ``kb validate --strict``; a new finding still does."""

    finding: FindingCode = Field(
        description="The finding's code as `kb validate` prints it, e.g. `stated/net_new`.", examples=["stated/net_new"]
    )
    reason: Line = Field(description="Why it stays as it is.", examples=["原文如此：作者把 2 条记作邻接入库"])


class EditorNote(Record):
    """A note by an editor of the knowledge base (编者注), never the author's words."""

    text: Text = Field(examples=["按邻接条目 F，收购方应为 NVIDIA。"])
    by: Line | None = Field(None, description="Who added it.")
