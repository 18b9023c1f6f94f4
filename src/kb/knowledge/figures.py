"""What the knowledge base computes for each brief: counts, the computed status
of each increment, net-new arXiv ids, carried-over items, card tallies, the
number of sources listed and the living document's baseline.  These stand
beside what the author stated (see :mod:`kb.knowledge.findings`), never in
its place.  A reconstructed brief's figures are lower bounds (``partial``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from kb.data.models import DocumentUpdate, Paper, Status
from kb.knowledge.history import AnchorRecord, History


@dataclass(frozen=True)
class Carried:
    """An item still pending after the previous brief, with its state as of this one."""

    paper: str
    origin: str  # brief key of its first sighting in this topic's items
    status: Status  # as of this brief: pending, or anchored (carried once more, then dropped)
    anchor: AnchorRecord | None


@dataclass(frozen=True)
class CardTally:
    group: int  # index of the source group
    total: int  # card entries listed
    distinct: int  # distinct arXiv ids (cards without an id count once each)
    in_topic: tuple[int, ...]  # card numbers whose primary category is the topic (first card per id)
    adjacent: tuple[int, ...]  # card numbers ingested as adjacent to the topic (first card per id)
    repeats: tuple[tuple[int, int], ...]  # (card number, earlier card number with the same id)


@dataclass(frozen=True)
class Baseline:
    """The living document as of a brief: its latest update entry on or before the brief's
    date (from the topic's update log) and how many papers briefs record as anchored by then."""

    update: DocumentUpdate | None
    anchored: int  # papers anchored in the topic as of the previous brief
    previous: str | None
    partial: bool = False  # an earlier brief is reconstructed: ``anchored`` is a lower bound


@dataclass
class BriefFigures:
    increments: int = 0
    net_new: int = 0
    adjacent: int = 0
    adjacent_ingested: int = 0
    ingested_items: list[int] = field(default_factory=list)  # 1-based increments counted as adjacent-ingested
    statuses: list[Status | None] = field(default_factory=list)  # computed status per increment
    # increments (1-based) computed pending whose papers were, before, only adjacent items of the topic:
    # the team calls such a promoted item NET-new (first time as a main increment), or pending (seen before)
    first_as_main: list[int] = field(default_factory=list)
    net_new_papers: list[str] = field(default_factory=list)
    net_new_ids: list[str] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)
    cards: list[CardTally] = field(default_factory=list)
    sources_listed: int = 0  # distinct files named in the source groups and the author's checked lists
    previous: str | None = None
    next: str | None = None
    partial: bool = False
    baseline: Baseline | None = None
    # what the next brief states of this one ("increments", "adjacent": its previous_* figures), for
    # a brief whose own count is unknown (reconstructed): shown as that brief's word, beside the data's
    told: dict[str, int] = field(default_factory=dict)

    @property
    def carried_anchored(self) -> list[Carried]:
        return [c for c in self.carried if c.status is Status.anchored]


def agrees(stated: int, computed: int, partial: bool) -> bool:
    """Whether a figure a brief states agrees with the computed one: equal, or not below it where the
    brief is reconstructed (``partial``: what is computed of it is a lower bound)."""
    return stated == computed or (partial and computed < stated)


def paper_status(history: History, paper: str, key: str, topic: str) -> Status:
    """A paper's status as of brief ``key``: anchored (recorded by then), net-new (first seen
    in this brief) or pending (seen before)."""
    if history.anchor(paper, topic, key) is not None:
        return Status.anchored
    first = history.first_seen(paper)
    return Status.net_new if first is not None and first.brief == key else Status.pending


def item_status(history: History, papers: list[str], key: str, topic: str) -> Status | None:
    """An item's computed status: anchored when all its papers are, net-new when one of them is
    new here, else pending; None for an item naming no paper."""
    if not papers:
        return None
    statuses = [paper_status(history, p, key, topic) for p in papers]
    if all(s is Status.anchored for s in statuses):
        return Status.anchored
    return Status.net_new if Status.net_new in statuses else Status.pending


def agrees_net_new(f: BriefFigures, stated: int) -> bool:
    """The team's NET-new count may count promoted adjacent items (first time as a main increment) or not."""
    return f.net_new <= stated <= f.net_new + len(f.first_as_main)


def is_adjacent_ingest(paper: Paper | None, topic: str) -> bool:
    """A paper that entered the card library under another primary category."""
    return bool(paper and paper.cards and paper.category and paper.category.primary != topic)


def short_date(d: dt.date) -> str:
    return f"{d.month}-{d.day}"
