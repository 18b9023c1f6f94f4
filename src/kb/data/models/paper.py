"""A paper (or system, benchmark, report): one file under data/papers/.

Where a paper is anchored in a living document is not written here: briefs
record it (an item with ``status: anchored``), and the knowledge base derives
the paper's anchors from them, so the fact is entered once.
"""

from __future__ import annotations

from enum import Enum
from functools import cached_property
from typing import Annotated, Literal

from pydantic import Field

from kb.data import arxiv_id
from kb.data.models.types import Acknowledgement, ArxivIdText, Date, Int, Line, PartialDate, Record, Slug, Text, Url

RESERVED_PAPER_IDS = frozenset({"index"})  # generated pages: papers/index.md is the papers index


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
    level: Credibility = Field(examples=["high"])
    light: Literal["green", "yellow", "red"] | None = Field(
        None, description="A light the author put before the level, e.g. `yellow` for 🟡 中-低."
    )
    reason: Text | None = None

    @property
    def label(self) -> str:
        return CREDIBILITY_LABELS[self.level]

    @property
    def rank(self) -> int:
        """Higher for more credible (a table sorts the levels by it, not by their labels)."""
        return len(Credibility) - list(Credibility).index(self.level)


class Venue(Record):
    name: Line = Field(description="e.g. `VLDB 2026`, `MLSys 2026`, `NSDI 2026`.", examples=["VLDB 2026"])
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
    primary: Slug = Field(
        description="Primary category / topic axis, e.g. `inference`, `llm-infra`.", examples=["llm-infra"]
    )
    adjacent: list[Slug] = Field(default_factory=list, description="Topics it is adjacent to.")


class KeyNumber(Record):
    value: Line = Field(description="The figure as written, e.g. `-24.1%`, `4.7-6.3×`.", examples=["-24.1%"])
    what: Line = Field(
        description="What it measures, e.g. `ClassEval Gemma-4 端到端延迟`.",
        examples=["ClassEval · Gemma-4 端到端延迟"],
    )


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


class Paper(Record):
    id: Slug = Field(description="Paper id, equal to the file name `data/papers/<id>.yaml`.", examples=["retroinfer"])
    arxiv: ArxivIdText | None = Field(
        None, description="arXiv id (`2505.02922`, `2505.02922v2`, `hep-th/9901001`).", examples=["2505.02922"]
    )
    kind: Literal["paper", "system", "benchmark", "report"] = "paper"
    short: Line = Field(description="Short display name, e.g. `RetroInfer`.", examples=["RetroInfer"])
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
    key_numbers: list[KeyNumber] = Field(default_factory=list)
    notes: list[Text] = Field(default_factory=list)
    acknowledged: list[Acknowledgement] = Field(
        default_factory=list, description="Findings about this file the authors know of."
    )
    arxiv_meta: ArxivMeta | None = None

    @property
    def display_title(self) -> str:
        if self.title:
            return self.title
        return self.arxiv_meta.title if self.arxiv_meta else self.short

    @cached_property  # read for every link to the paper; a record is frozen once read
    def arxiv_base(self) -> str | None:
        return arxiv_id.normalize(self.arxiv) if self.arxiv else None
