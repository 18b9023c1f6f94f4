"""Validated records: topics with their living-document sections, papers and briefs.

Every string field is contributed text.  The models only check shape and
vocabulary; cross-record rules (references, duplicates, history) live in
``kb.knowledge.rules`` and computed figures in ``kb.knowledge.index``.  Field descriptions feed the
schema reference in CONTRIBUTING.md (``kb schema``), so they are written for
contributors.
"""

from __future__ import annotations

import datetime as dt
import re
from enum import Enum
from typing import Annotated, Literal

from pydantic import AfterValidator, AwareDatetime, BeforeValidator, BaseModel, ConfigDict, Field, StringConstraints

from kb.data import arxiv_id

SLUG = r"^[a-z0-9][a-z0-9-]{0,79}$"
Slug = Annotated[str, StringConstraints(pattern=SLUG)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]
Line = Annotated[str, StringConstraints(min_length=1, max_length=400, pattern=r"^[^\n]*$")]
RepoPath = Annotated[str, StringConstraints(min_length=1, max_length=300, pattern=r"^[^\s<>\"'`|]+$")]
PartialDate = Annotated[str, StringConstraints(pattern=r"^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$")]
Priority = Annotated[str, StringConstraints(pattern=r"^P[0-3]$")]


def _arxiv(value: str) -> str:
    parsed = arxiv_id.parse(value)
    if parsed is None or value.lower().startswith("arxiv:"):
        raise ValueError(
            f"expected an arXiv id such as 2505.02922, 2505.02922v2 or hep-th/9901001, got {value!r}"
        )
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
            r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})", value):
        raise ValueError(f"expected a date and time with its UTC offset, e.g. 2026-09-03T22:20:00+08:00, got {value!r}")
    return value


ArxivIdText = Annotated[str, AfterValidator(_arxiv)]
Int = Annotated[int, BeforeValidator(_int_text)]
Date = Annotated[dt.date, BeforeValidator(_date_text)]
DateTime = Annotated[AwareDatetime, BeforeValidator(_datetime_text)]
Flag = Annotated[bool, BeforeValidator(_flag)]
Value = Annotated[Int, Field(ge=1, le=5)]
Url = Annotated[str, AfterValidator(_url)]


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False, validate_default=True)


# --------------------------------------------------------------------------- topic


class Section(Record):
    id: Slug = Field(description="Stable id, used as the HTML anchor of the section in the living document.")
    number: Line | None = Field(None, description="Number as written in the document, e.g. `1.(3)`.")
    title: Line = Field(description="Heading text (Chinese or English).")
    title_en: Line | None = Field(None, description="English heading, for search and for readers.")
    summary: Text | None = Field(None, description="One paragraph on what the section covers.")
    introduced: Date | None = Field(None, description="Date the section (e.g. a new route) was opened.")
    introduced_by: Line | None = Field(None, description="Brief id that opened the section, e.g. `inference/2026-09-03-e1`.")
    children: list["Section"] = Field(default_factory=list, description="Sub-sections, same shape.")

    @property
    def ref(self) -> str:
        return f"§{self.number}" if self.number else self.title


class Topic(Record):
    id: Slug = Field(description="Topic id, equal to the file name: `data/topics/<id>.yaml`.")
    title: Line
    title_en: Line | None = None
    description: Text | None = None
    document: RepoPath = Field(description="Path of the living document in the team's notes, e.g. `organized/knowledge/inference.md`.")
    page: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_\-/]*\.md$", max_length=200)] = Field(
        description="The hand-written site page (under docs/) holding the living document, e.g. `inference.md`.")
    sections: list[Section] = Field(min_length=1)


# --------------------------------------------------------------------------- paper


class Credibility(str, Enum):
    very_high = "very-high"
    high = "high"
    medium = "medium"
    medium_low = "medium-low"
    low = "low"


CREDIBILITY_LABELS = {
    Credibility.very_high: "极高",
    Credibility.high: "高",
    Credibility.medium: "中",
    Credibility.medium_low: "中-低",
    Credibility.low: "低",
}


class CredibilityNote(Record):
    level: Credibility
    reason: Text | None = None

    @property
    def label(self) -> str:
        return CREDIBILITY_LABELS[self.level]


class Venue(Record):
    name: Line = Field(description="e.g. `VLDB 2026`, `MLSys 2026`, `NSDI 2026`.")
    detail: Line | None = Field(None, description="e.g. `PVLDB Vol.19 Issue 5, Pages 1016-1031`.")
    note: Line | None = Field(None, description="e.g. `Best Honorable Mention`.")


class Links(Record):
    code: Url | None = None
    html: Url | None = None
    pdf: Url | None = None
    proceedings: Url | None = None
    blog: Url | None = None
    other: Url | None = None


class Category(Record):
    primary: Slug = Field(description="Primary category / topic axis, e.g. `inference`, `llm-infra`.")
    adjacent: list[Slug] = Field(default_factory=list, description="Topics it is adjacent to.")


class Anchor(Record):
    topic: Slug
    section: Slug | None = Field(None, description="Section id; omit when the document records no section.")
    since: Date = Field(description="Date it was anchored in the living document.")
    note: Line | None = None


class KeyNumber(Record):
    value: Line = Field(description="The figure as written, e.g. `-24.1%`, `4.7-6.3×`.")
    what: Line = Field(description="What it measures, e.g. `ClassEval Gemma-4 端到端延迟`.")


class ArxivMeta(Record):
    """Owned by `kb paper add/refresh`: never edit by hand, it is overwritten."""

    title: Text
    authors: list[Line] = Field(default_factory=list)
    abstract: Text | None = Field(None, max_length=8000)
    published: Date | None = None
    updated: Date | None = None
    categories: list[Line] = Field(default_factory=list)
    primary_category: Line | None = None
    doi: Line | None = None
    journal_ref: Line | None = None
    comment: Text | None = None
    version: Annotated[Int, Field(ge=1)] | None = None


# Paper ids that would collide with generated pages (papers/index.md is the papers index).
RESERVED_PAPER_IDS = frozenset({"index"})


class Paper(Record):
    id: Slug = Field(description="Paper id, equal to the file name `data/papers/<id>.yaml`.")
    arxiv: ArxivIdText | None = Field(None, description="arXiv id (`2505.02922`, `2505.02922v2`, `hep-th/9901001`).")
    kind: Literal["paper", "system", "benchmark", "report"] = "paper"
    short: Line = Field(description="Short display name, e.g. `RetroInfer`.")
    title: Text | None = Field(None, description="Full title; may be omitted when `arxiv_meta` has it.")
    authors: list[Line] = Field(default_factory=list)
    affiliations: list[Line] = Field(default_factory=list)
    authors_note: Line | None = Field(None, description="e.g. `单作，无机构标注` or how an affiliation was inferred.")
    venue: Venue | None = None
    published: PartialDate | None = Field(None, description="`YYYY`, `YYYY-MM` or `YYYY-MM-DD`.")
    submitted: Date | None = Field(None, description="Date of arXiv v1 as stated by a source, e.g. `2026-06-17`.")
    subjects: list[Line] = Field(default_factory=list, description="arXiv subject classes as stated, e.g. `cs.CL`.")
    links: Links = Field(default_factory=Links)
    credibility: CredibilityNote | None = None
    cards: list[Annotated[Int, Field(ge=1)]] = Field(default_factory=list, description="paper_card number(s).")
    category: Category | None = None
    anchors: list[Anchor] = Field(default_factory=list, description="Where and since when it is anchored.")
    key_numbers: list[KeyNumber] = Field(default_factory=list)
    notes: list[Text] = Field(default_factory=list)
    arxiv_meta: ArxivMeta | None = None

    @property
    def display_title(self) -> str:
        if self.title:
            return self.title
        return self.arxiv_meta.title if self.arxiv_meta else self.short

    @property
    def arxiv_base(self) -> str | None:
        return arxiv_id.normalize(self.arxiv) if self.arxiv else None


# --------------------------------------------------------------------------- brief


class Status(str, Enum):
    net_new = "net-new"
    pending = "pending"
    anchored = "anchored"


STATUS_LABELS = {Status.net_new: "NET-new", Status.pending: "待锚入", Status.anchored: "已锚入"}
STATUS_RANK = {Status.net_new: 0, Status.pending: 1, Status.anchored: 2}


class Light(str, Enum):
    green = "green"
    yellow = "yellow"
    red = "red"


LIGHTS = {Light.green: "🟢", Light.yellow: "🟡", Light.red: "🔴"}


class Window(Record):
    start: DateTime
    end: DateTime
    note: Line | None = Field(None, description="e.g. `约 24h`.")


class BaselineLabel(Record):
    text: Line = Field(description="Update label as written in the document.")
    papers: list[Slug] = Field(default_factory=list, description="Papers the label names, if any.")


class Baseline(Record):
    document: RepoPath
    updated: Date
    labels: list[BaselineLabel] = Field(default_factory=list)
    citations: Annotated[Int, Field(ge=0)] = Field(description="arXiv citations in the document.")
    citations_approx: Flag = Field(False, description="`true` when the count is approximate (约).")


class SourceFile(Record):
    path: RepoPath
    time: Line | None = Field(None, description="When it was written or checked, as text (`09-03 08:40`).")
    summary: Text | None = Field(None, description="What was found in it.")
    included: Flag = Field(description="`true`: it fed this brief; `false`: checked, nothing taken.")
    reason: Line | None = Field(None, description="Why (not) included; shown in the source lists.")
    key: Line | None = Field(None, description="e.g. `本棒最关键源之一`.")
    scope: Line | None = Field(None, description="Part of the file this entry is about, when a file is listed twice.")


class CardEntry(Record):
    number: Annotated[Int, Field(ge=1)]
    arxiv: ArxivIdText | None = None
    title: Line | None = None
    category: Slug | None = Field(None, description="Primary category; taken from the paper file when there is one.")
    adjacent: list[Slug] = Field(default_factory=list)
    ingested: Line | None = Field(None, description="When it entered the card library, e.g. `2026-09-03 16:30`.")
    note: Line | None = None


class SourceGroup(Record):
    title: Line = Field(description="e.g. `inbox/tom 今日 radar`.")
    time: Line | None = None
    findings: list[Text] = Field(default_factory=list)
    cards: list[CardEntry] = Field(default_factory=list, description="New paper cards seen in this source.")
    cards_window: Line | None = Field(None, description="e.g. `2026-08-31 → 2026-09-03`.")
    confirmed_pending: list[Slug] = Field(default_factory=list, description="Papers this source confirms are still not anchored.")
    files: list[SourceFile] = Field(default_factory=list)


class SourceRef(Record):
    path: RepoPath
    section: Line | None = Field(None, description="Section of the source cited, e.g. `§A1 + §A2`.")
    note: Line | None = None


class LinkOut(Record):
    label: Line
    url: Url
    note: Line | None = None


class PointGroup(Record):
    title: Line | None = Field(None, description="e.g. `要点（RTP-LLM）`; omit for plain `要点`.")
    items: list[Text] = Field(min_length=1)


class Relation(Record):
    section: Slug | None = None
    papers: list[Slug] = Field(default_factory=list)
    text: Text


class Suggestion(Record):
    section: Slug
    note: Line | None = None


class Increment(Record):
    sections: list[Slug] = Field(min_length=1, description="Sections the increment is about (heading refs).")
    light: Light | None = Field(None, description="Status light: green, yellow or red.")
    title: Text
    label: Line = Field(description="Short name for the summary table, e.g. `SSR`.")
    tags: list[Line] = Field(default_factory=list, description="Short tags, e.g. `自投机解码`.")
    papers: list[Slug] = Field(default_factory=list)
    sources: list[SourceRef] = Field(default_factory=list)
    links: list[LinkOut] = Field(default_factory=list)
    credibility_note: Line | None = Field(None, description="Extra note on credibility for the whole increment.")
    points: list[PointGroup] = Field(default_factory=list)
    defects: list[Text] = Field(default_factory=list)
    defects_source: Line | None = None
    relations: list[Relation] = Field(default_factory=list)
    suggested: list[Suggestion] = Field(default_factory=list, description="Suggested section(s) to anchor it in.")
    status: Status
    status_note: Text | None = None
    value: Value | None = Field(None, description="Value 1–5 (shown as stars).")
    summary_note: Line | None = Field(None, description="Short note for the summary table's status column.")


class AdjacentStatus(str, Enum):
    prep = "prep"
    verify = "verify"


ADJACENT_LABELS = {AdjacentStatus.prep: "邻接预备", AdjacentStatus.verify: "待核实"}


class AdjacentItem(Record):
    title: Line
    text: Text
    papers: list[Slug] = Field(default_factory=list)
    source_note: Line | None = Field(None, description="Where it comes from when there is no arXiv id, e.g. `HF 官方博客`.")
    origin: Line = Field(description="Which source raised it, e.g. `jay 9-3 1735`.")
    relation: Line | None = None
    sections: list[Slug] = Field(default_factory=list)
    category: Line | None = Field(None, description="Shown instead of a section, e.g. `行业事件`.")
    section_note: Line | None = Field(None, description="Sub-area within the section, e.g. `边缘/Apple Silicon`.")
    value: Value
    status: AdjacentStatus = AdjacentStatus.prep
    priority: Priority | None = None
    warning: Line | None = Field(None, description="A warning flag, e.g. `生产警示`.")


class Candidate(Record):
    paper: Slug
    status: Status
    note: Line | None = None


class Claim(Record):
    title: Line
    priority: Priority | None = None
    resolved: Flag = False
    papers: list[Slug] = Field(default_factory=list)
    points: list[Text] = Field(default_factory=list)


class SourceCount(Record):
    label: Line
    count: Annotated[Int, Field(ge=0)]


class Stated(Record):
    """Figures as the brief's author wrote them; compared with computed ones."""

    increments: Annotated[Int, Field(ge=0)] | None = None
    net_new: Annotated[Int, Field(ge=0)] | None = None
    adjacent_ingested: Annotated[Int, Field(ge=0)] | None = None
    adjacent: Annotated[Int, Field(ge=0)] | None = None
    arxiv_net_new: Annotated[Int, Field(ge=0)] | None = None
    carried_over: Annotated[Int, Field(ge=0)] | None = None
    cards: Annotated[Int, Field(ge=0)] | None = None
    sources_checked_min: Annotated[Int, Field(ge=0)] | None = Field(None, description="`20` for “20+ 来源”.")
    sources_breakdown: list[SourceCount] = Field(default_factory=list)
    previous_increments: Annotated[Int, Field(ge=0)] | None = None
    previous_adjacent: Annotated[Int, Field(ge=0)] | None = None


class Comparison(Record):
    previous_summary: Text | None = Field(None, description="What the previous brief brought, in a sentence.")
    this_summary: Text | None = None
    features: list[Line] = Field(default_factory=list, description="What sets this round apart.")


class Character(Record):
    title: Text = Field(description="The round's character in one line.")
    text: Text = Field(description="One paragraph on the round.")


class Brief(Record):
    topic: Slug
    date: Date
    round: Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]{0,5}$")] = Field(description="e.g. `E1`.")
    round_name: Line | None = Field(None, description="e.g. `日间预消化轮`.")
    instance: Line = Field(description="Author / instance, e.g. `Tom`.")
    cron: Line | None = None
    generated_at: DateTime
    timezone: Line = Field(description="IANA name, e.g. `Asia/Shanghai`.")
    timezone_abbr: Line | None = Field(None, description="e.g. `CST`.")
    window: Window
    baseline: Baseline | None = None
    character: Character | None = None
    stated: Stated = Field(default_factory=Stated)
    sources: list[SourceGroup] = Field(default_factory=list)
    increments: list[Increment] = Field(default_factory=list)
    adjacent: list[AdjacentItem] = Field(default_factory=list, max_length=26, description="Adjacent prep items, lettered A–Z.")
    candidates: list[Candidate] = Field(default_factory=list)
    claims: list[Claim] = Field(default_factory=list)
    comparison: Comparison | None = None
    reconstructed: Line | None = Field(None, description="Set when the brief was rebuilt from later briefs: says from what.")


def round_key(round_name: str) -> tuple[str, int, str]:
    """Order of rounds within a day: by letter, then by number (E2 before E10)."""
    m = re.fullmatch(r"([A-Z]+)(\d*)(.*)", round_name)
    return (m.group(1), int(m.group(2) or 0), m.group(3)) if m else (round_name, 0, "")


class Demo(Record):
    """A WebGPU kernel demo embedded in the pages of the papers/sections it belongs to."""

    id: Slug
    kernel: Literal["softmax", "rmsnorm", "gemv", "attention-decode"]
    title: Line
    description: Text | None = None
    papers: list[Slug] = Field(default_factory=list)
    sections: list[Slug] = Field(default_factory=list)
