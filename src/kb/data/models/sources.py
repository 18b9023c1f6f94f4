"""What a brief checked: source groups (一、来源清单) with their files and new
paper cards, and the author's own lists of sources included / not included
(七、检查过的来源汇总)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from kb.data.models.types import ArxivIdText, Count, Date, Int, Line, Record, RepoPath, Slug, Text


class Classification(Record):
    """A source classifying a paper (e.g. a radar saying CRISP is an evaluation/agent item);
    checked against the paper file's category."""

    paper: Slug = Field(examples=["tokenweave"])
    category: Line = Field(description="As written, e.g. `evaluation/agent`.", examples=["evaluation/agent"])


class SourceFile(Record):
    path: RepoPath = Field(examples=["inbox/tom/2026-09-03T0840-agent-rag-longcontext-radar.md"])
    time: Line | None = Field(None, description="When it was written or checked, as text (`09-03 08:40`).")
    summary: Text | None = Field(None, description="What was found in it.")
    key: Line | None = Field(None, description="e.g. `本棒最关键源之一`.")
    scope: Line | None = Field(None, description="Part of the file this entry is about, when a file is listed twice.")
    classifies: list[Classification] = Field(default_factory=list, description="Papers this source puts in a category.")


class CardEntry(Record):
    number: Annotated[Int, Field(ge=1)]
    arxiv: ArxivIdText | None = None
    title: Line | None = None
    category: Slug | None = Field(None, description="Primary category as the card list gives it.")
    adjacent: list[Slug] = Field(default_factory=list)
    ingested: Line | None = Field(None, description="When it entered the card library, e.g. `2026-09-03 16:30`.")
    note: Line | None = None


class DateRange(Record):
    """A labelled range of days, e.g. `近 3 日（2026-08-31 → 2026-09-03）`; the label's count is checked."""

    label: Line = Field(examples=["近 3 日"])
    start: Date
    end: Date


class GroupStated(Record):
    """Tallies of a source group as the author wrote them, compared with the card list."""

    cards: Count | None = Field(None, description="New cards in the batch (`8 张新卡`).")
    cards_in_topic: Count | None = Field(None, description="New cards whose primary category is the topic.")
    cards_adjacent: Count | None = Field(
        None, description="New cards ingested as adjacent to the topic (`邻接入库 1 件`)."
    )


class SourceGroup(Record):
    title: Line = Field(description="e.g. `inbox/tom 今日 radar`.", examples=["inbox/tom 今日 radar"])
    time: Line | None = None
    findings: list[Text] = Field(
        default_factory=list, description="The author's bullets, shown before the files and cards."
    )
    files: list[SourceFile] = Field(default_factory=list)
    cards_window: DateRange | None = Field(None, description="The days the new-card list covers.")
    cards: list[CardEntry] = Field(default_factory=list, description="New paper cards seen in this source.")
    tally: list[Text] = Field(default_factory=list, description="The author's closing bullets, shown after the cards.")
    stated: GroupStated = Field(default_factory=GroupStated)
    confirmed_pending: list[Slug] = Field(
        default_factory=list, description="Papers this source confirms are still not anchored."
    )


class CheckedFile(Record):
    path: RepoPath
    note: Line | None = Field(None, description="The author's note in brackets.")


class Checked(Record):
    """七、检查过的来源汇总: the author's lists, as written."""

    included: list[CheckedFile] = Field(default_factory=list, description="已检查 / 已纳入本棒.")
    excluded: list[CheckedFile] = Field(default_factory=list, description="已检查 / 未纳入.")
    excluded_label: Line | None = Field(None, description="Qualifier of the second list, e.g. `无 inference 净新增`.")
