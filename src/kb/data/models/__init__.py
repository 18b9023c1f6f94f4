"""Validated records: topics with their living-document sections, papers, briefs and demos.

Every string field is contributed text.  The models only check shape and
vocabulary; cross-record rules (references, duplicates, history) live in
``kb.knowledge.rules`` and computed figures in ``kb.knowledge.figures``.  Field
descriptions and examples feed the schema reference in CONTRIBUTING.md and the
JSON Schemas editors use (``kb schema``), so they are written for contributors.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from kb.data.models.brief import Brief, Character, Comparison, SourceCount, Stated, Window, round_key
from kb.data.models.items import (
    ADJACENT_LABELS,
    CLAIM_ACTION_LABELS,
    LIGHTS,
    STATUS_LABELS,
    STATUS_RANK,
    AdjacentItem,
    AdjacentStatus,
    Anchoring,
    Candidate,
    CarriedEntry,
    Citable,
    Claim,
    ClaimAction,
    ClaimUpdate,
    Increment,
    Light,
    LinkOut,
    PointGroup,
    Relation,
    SourceRef,
    Status,
    Suggestion,
    SummaryRow,
)
from kb.data.models.paper import (
    CREDIBILITY_LABELS,
    RESERVED_PAPER_IDS,
    ArxivMeta,
    Category,
    Credibility,
    CredibilityNote,
    KeyNumber,
    Links,
    Paper,
    Venue,
)
from kb.data.models.sources import (
    CardEntry,
    Checked,
    CheckedFile,
    Classification,
    DateRange,
    GroupStated,
    SourceFile,
    SourceGroup,
)
from kb.data.models.topic import DocumentUpdate, Section, Topic, UpdateLabel
from kb.data.models.types import (
    ROUND,
    SLUG,
    Acknowledgement,
    ArxivIdText,
    Count,
    Date,
    DateTime,
    DocsPage,
    EditorNote,
    FindingCode,
    Flag,
    Int,
    Line,
    PartialDate,
    Priority,
    Record,
    RepoPath,
    Round,
    Slug,
    Text,
    Url,
    Value,
)


class Demo(Record):
    """A WebGPU kernel demo embedded in the pages of the papers/sections it belongs to."""

    id: Slug
    kernel: Literal["softmax", "rmsnorm", "gemv", "attention-decode"]
    title: Line
    description: Text | None = None
    papers: list[Slug] = Field(default_factory=list, examples=[["tokenweave"]])
    sections: list[Slug] = Field(default_factory=list)


__all__ = [
    "ArxivIdText",
    "Count",
    "Date",
    "DateTime",
    "DocsPage",
    "Flag",
    "FindingCode",
    "Int",
    "Line",
    "Slug",
    "Text",
    "PartialDate",
    "Priority",
    "ROUND",
    "Round",
    "RepoPath",
    "Url",
    "Value",
    "ADJACENT_LABELS",
    "CLAIM_ACTION_LABELS",
    "CREDIBILITY_LABELS",
    "LIGHTS",
    "RESERVED_PAPER_IDS",
    "SLUG",
    "STATUS_LABELS",
    "STATUS_RANK",
    "Acknowledgement",
    "AdjacentItem",
    "AdjacentStatus",
    "Anchoring",
    "Candidate",
    "ArxivMeta",
    "Brief",
    "CardEntry",
    "CarriedEntry",
    "Category",
    "Character",
    "Checked",
    "CheckedFile",
    "Citable",
    "Claim",
    "ClaimAction",
    "ClaimUpdate",
    "Classification",
    "Comparison",
    "Credibility",
    "CredibilityNote",
    "DateRange",
    "Demo",
    "DocumentUpdate",
    "EditorNote",
    "GroupStated",
    "Increment",
    "KeyNumber",
    "Light",
    "LinkOut",
    "Links",
    "Paper",
    "PointGroup",
    "Record",
    "Relation",
    "Section",
    "SourceCount",
    "SourceFile",
    "SourceGroup",
    "SourceRef",
    "Stated",
    "Status",
    "Suggestion",
    "SummaryRow",
    "Topic",
    "UpdateLabel",
    "Venue",
    "Window",
    "round_key",
]
