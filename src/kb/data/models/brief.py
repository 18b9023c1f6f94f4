"""A brief: one file per topic, day and round under data/briefs/<topic>/.

The brief records what its author wrote: the items, the texts and the figures
the author states (``stated:``).  What can be computed (counts, net-new ids,
carried-over items, the comparison with the previous brief, the living
document's baseline) is computed by the knowledge base and shown beside the
stated figures as a check, never in their place.
"""

from __future__ import annotations

import datetime as dt
import re

from pydantic import Field

from kb.data.models.items import AdjacentItem, Candidate, CarriedEntry, Citable, Claim, ClaimUpdate, Increment
from kb.data.models.sources import Checked, SourceGroup
from kb.data.models.types import (
    Acknowledgement,
    Count,
    Date,
    DateTime,
    EditorNote,
    Int,
    Line,
    Record,
    Round,
    Slug,
    Text,
)


class Window(Record):
    start: DateTime = Field(examples=["2026-09-02T22:20:00+08:00"])
    end: DateTime = Field(examples=["2026-09-03T22:20:00+08:00"])
    note: Line | None = Field(None, description="e.g. `约 24h` (checked against the window's length).")


class SourceCount(Record):
    label: Line
    count: Count


class Stated(Record):
    """Figures as the brief's author wrote them.  Shown as stated, with the computed figure
    beside them as a check when the two differ."""

    increments: Count | None = Field(None, description="`5 条主增量`.")
    net_new: Count | None = Field(None, description="`3 条 NET-new`.")
    adjacent_ingested: Count | None = Field(None, description="`2 条 paper_card 邻接入库`.")
    adjacent: Count | None = Field(None, description="`6 条邻接预备`.")
    arxiv_net_new: Count | None = Field(None, description="`涉及 arXiv 号：净增 6 件`.")
    carried_over: Count | None = Field(None, description="Number of carried-over items, when the author states one.")
    sources_checked_min: Count | None = Field(None, description="`20` for “20+ 来源”.")
    sources_breakdown: list[SourceCount] = Field(default_factory=list, description="The breakdown in the signature.")
    previous_increments: Count | None = Field(
        None, description="Main increments the author gives for the previous brief."
    )
    previous_adjacent: Count | None = Field(None, description="Adjacent items the author gives for the previous brief.")


class Comparison(Record):
    previous_label: Line | None = Field(
        None, description="How the author names the previous brief, e.g. `9-2 evening inference e1prep`."
    )
    previous_summary: Text | None = Field(None, description="What the previous brief brought, in a sentence.")
    this_summary: Text | None = None
    features: list[Line] = Field(default_factory=list, description="What sets this round apart.")


class Character(Record):
    title: Text = Field(description="The round's character in one line (本棒性质, the headline).")
    text: Text = Field(description="One paragraph on the round.")


class Heading(Record):
    """A part's heading as the author wrote it (``五、可引用的 arXiv 号列表（6 件 · 本棒 NET-new）``);
    ``kb export brief --text`` writes it back."""

    part: Slug = Field(examples=["citable"])
    text: Line


class Unmapped(Record):
    """Lines of a text brief that ``kb import brief`` could not put in a field: kept verbatim,
    shown on the page as the author's text."""

    part: Line | None = Field(None, description="The heading of the part the lines stood in.")
    line: Int | None = Field(None, description="Line number of the first line in the imported file.")
    why: Line | None = Field(None, description="Why they did not map.")
    lines: list[Text] = Field(min_length=1, description="The lines, each as written (a long one in parts).")


class Brief(Record):
    topic: Slug = Field(examples=["inference"])
    date: Date = Field(examples=["2026-09-04"])
    round: Round = Field(description="e.g. `E1`.", examples=["E1"])
    round_name: Line | None = Field(None, description="e.g. `日间预消化轮`.")
    title: Line | None = Field(
        None, description="The brief's title as written, e.g. `inference · E1 预消化简报（2026-09-03）`."
    )
    instance: Line = Field(description="Author / instance, e.g. `Tom`.", examples=["Tom"])
    cron: Line | None = Field(
        None,
        description="The id of the scheduled job that wrote the brief, as it prints it; "
        "`kb new brief` keeps the previous brief's.",
    )
    generated_at: DateTime | None = Field(
        None,
        description="When the brief was written; required, except in a reconstructed brief that does not "
        "record it (nothing is invented).",
        examples=["2026-09-04T22:20:00+08:00"],
    )
    timezone: Line = Field(description="IANA name, e.g. `Asia/Shanghai`.", examples=["Asia/Shanghai"])
    timezone_abbr: Line | None = Field(None, description="e.g. `CST`.")
    window: Window | None = Field(
        None,
        description="The window the brief covers; required, except in a reconstructed brief that does not record it.",
    )
    baseline: Line | None = Field(
        None, description="The baseline document and its update labels as the header writes them (基线活文档)."
    )

    @property
    def dated_at(self) -> dt.datetime:
        """When the brief was written, for feeds: ``generated_at``, else its window's end, else its
        date (midnight UTC)."""
        if self.generated_at is not None:
            return self.generated_at
        if self.window is not None:
            return self.window.end
        return dt.datetime.combine(self.date, dt.time(0), tzinfo=dt.UTC)

    character: Character | None = None
    status_lines: list[Text] = Field(
        default_factory=list,
        description="The 状态 bullets as written (imported briefs); their figures are under `stated`, "
        "本棒性质 under `character`.",
    )
    stated: Stated = Field(default_factory=Stated)
    sources: list[SourceGroup] = Field(default_factory=list)
    increments: list[Increment] = Field(default_factory=list)
    adjacent: list[AdjacentItem] = Field(
        default_factory=list, max_length=26, description="Adjacent prep items, lettered A–Z."
    )
    claims: list[Claim] = Field(default_factory=list)
    claim_updates: list[ClaimUpdate] = Field(
        default_factory=list, description="Earlier claims this brief resolves, updates or drops."
    )
    citable: list[Citable] = Field(
        default_factory=list,
        description="The author's list of citable arXiv ids (可引用的 arXiv 号列表), with notes: the ids first "
        "seen in this brief (NET-new); checked against the ones the knowledge base computes.",
    )
    carried: list[CarriedEntry] = Field(
        default_factory=list,
        description="The author's carried-over list (沿用件), with notes: the main increments and candidates "
        "still pending after the previous brief (an adjacent item is not carried over: the backlog lists it); "
        "the knowledge base computes that list and reports what this one leaves out or adds.",
    )
    candidates: list[Candidate] = Field(default_factory=list, description="Further items this brief raises or updates.")
    summary_text: Text | None = Field(None, description="The sentence opening the summary (六、本棒小结).")
    comparison: Comparison | None = None
    checked: Checked | None = Field(None, description="The author's lists of sources included / not included.")
    signature: Text | None = Field(None, description="The author's signature line, exactly as signed.")
    reconstructed: Text | None = Field(
        None,
        description="Set when the brief was rebuilt from later briefs: says from what. "
        "Its computed figures are then lower bounds.",
    )
    headings: list[Heading] = Field(
        default_factory=list, description="Part headings as written, when the brief was imported from text."
    )
    unmapped: list[Unmapped] = Field(
        default_factory=list, description="Lines of an imported text brief that fit no field, verbatim."
    )
    editor_notes: list[EditorNote] = Field(default_factory=list)
    acknowledged: list[Acknowledgement] = Field(
        default_factory=list, description="Findings about this brief the authors know of."
    )


def round_key(round_name: str) -> tuple[str, int, str]:
    """Order of rounds within a day: by letter, then by number (E2 before E10)."""
    m = re.fullmatch(r"([A-Z]+)(\d*)(.*)", round_name)
    return (m.group(1), int(m.group(2) or 0), m.group(3)) if m else (round_name, 0, "")
