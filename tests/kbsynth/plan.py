"""What the generator knows while it writes: one record per paper and per topic.

The topic state mirrors what :mod:`kb.knowledge` will compute from the files
(first sightings, anchor records, the carried-over items, open claims), so the
``stated:`` figures the generator writes agree with the computed ones.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from kbsynth.yamlout import Doc


@dataclass
class Paper:
    id: str
    short: str
    topic: str
    arxiv: str | None
    month: dt.date  # month of the arXiv id (first day)
    kind: str = "paper"
    primary: str | None = None
    adjacent: list[str] = field(default_factory=list)
    cards: list[int] = field(default_factory=list)
    first: str | None = None  # brief key of its first sighting
    plan: tuple[dt.date, str | None] | None = None  # when the living document anchors it, and where
    planned: bool = False  # the anchoring is decided (raised as an item, or anchored before the first brief)
    recorded: str | None = None  # brief key that first records it anchored

    @property
    def anchor_since(self) -> dt.date | None:
        return self.plan[0] if self.plan else None

    @property
    def anchor_section(self) -> str | None:
        return self.plan[1] if self.plan else None


@dataclass
class OpenClaim:
    id: str
    brief: str  # the brief that raised it
    updated: bool = False


@dataclass
class TopicState:
    id: str
    sections: list[str]  # referable section ids, in tree order
    late: dict[str, str]  # section id -> brief key that opens it
    opened: dict[str, dt.date]  # section id -> date opened
    pending: dict[str, str] = field(default_factory=dict)  # paper -> origin brief key (figures' carried-over state)
    adjacent_only: list[str] = field(default_factory=list)  # papers raised only as adjacent items so far
    recorded_on: dict[dt.date, list[str]] = field(default_factory=dict)  # date -> papers first recorded anchored
    raised: list[str] = field(default_factory=list)  # item papers, oldest first
    background: list[str] = field(default_factory=list)  # anchored before the first brief
    claims: list[OpenClaim] = field(default_factory=list)  # open claims, oldest first
    dates: list[dt.date] = field(default_factory=list)  # brief dates, in order
    prev: Doc | None = None  # previous brief summary


@dataclass
class Summary:
    briefs: int
    papers: int
    topics: int
    files: int
    bytes: int
    disagreements: int  # stated figures deliberately off (expected warnings)
    findings: tuple[str, ...] = ()  # "<brief key> <finding code>" of each deliberate disagreement
