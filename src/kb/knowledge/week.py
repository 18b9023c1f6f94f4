"""The week in one view: for each ISO week with a brief (Monday to Sunday, named ``2026-W36``), per
topic, which briefs fall in it, the main increments they bring, the anchorings they record, the
claims they resolve or drop (and raise), and the sections of the living document that grew.

* A brief belongs to the ISO week of its date.
* An **anchoring of the week** is an anchor record (:class:`kb.knowledge.history.AnchorRecord`) of
  one of the week's briefs that tells something new: the paper's first record in the topic, or one
  that puts it in other sections than the topic's previous record of it (a move).  A brief restating
  an anchoring already recorded (a carried-over entry, say) adds none.  Its date is the record's
  (:attr:`AnchorRecord.known_by`).
* A section **grew** when an anchoring of the week puts a paper in it (anchorings without a known
  section are counted apart, under ``None``).
* A claim is **resolved** or **dropped** in the week when one of the week's briefs closes it
  (:mod:`kb.knowledge.claims`); **raised** when one of them raises it.

A past week's view reads only the records of that week and of the briefs before it: later briefs
never change it.  Computed once per knowledge base (:func:`kb.knowledge.derived.memo`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from kb.data.models import ClaimAction, Increment
from kb.knowledge.claims import ClaimEvent, ClaimState
from kb.knowledge.derived import memo
from kb.knowledge.history import AnchorRecord
from kb.knowledge.index import KnowledgeBase


def week_id(day: dt.date) -> str:
    """The ISO week of a day, as its pages name it: ``2026-W36``."""
    iso = day.isocalendar()
    return f"{iso.year}-W{iso.week:02d}"


def monday_of(week: str) -> dt.date:
    """The first day of an ISO week named by :func:`week_id`."""
    year, _, number = week.partition("-W")
    return dt.date.fromisocalendar(int(year), int(number), 1)


@dataclass(frozen=True)
class WeekIncrement:
    """A main increment as its brief wrote it, with its place there (``inc-<index>``)."""

    brief: str
    index: int  # 1-based: the anchor of its part of the brief page
    increment: Increment


@dataclass(frozen=True)
class ClaimClosed:
    """A claim the week's brief ``event.brief`` resolved or dropped."""

    state: ClaimState
    event: ClaimEvent


@dataclass(frozen=True)
class SectionGrowth:
    """A section that gained papers in the week (``section`` None: anchorings with no known section)."""

    section: str | None
    papers: tuple[str, ...]  # in the order of their anchorings


@dataclass(frozen=True)
class TopicWeek:
    topic: str
    briefs: tuple[str, ...]  # brief keys, by date and round
    increments: tuple[WeekIncrement, ...]
    anchorings: tuple[AnchorRecord, ...]  # by date, then brief, then as recorded
    moved: frozenset[tuple[str, str]]  # (paper, brief) of the anchorings that move a paper
    resolved: tuple[ClaimClosed, ...]
    dropped: tuple[ClaimClosed, ...]
    raised: tuple[ClaimState, ...]
    grown: tuple[SectionGrowth, ...]  # in the living document's order, the unknown section last


@dataclass(frozen=True)
class Week:
    id: str  # 2026-W36
    monday: dt.date
    topics: tuple[TopicWeek, ...]  # the topics with a brief that week, in the knowledge base's order

    @property
    def sunday(self) -> dt.date:
        return self.monday + dt.timedelta(days=6)

    @property
    def briefs(self) -> int:
        return sum(len(t.briefs) for t in self.topics)

    @property
    def increments(self) -> int:
        return sum(len(t.increments) for t in self.topics)

    @property
    def anchorings(self) -> int:
        return sum(len(t.anchorings) for t in self.topics)

    @property
    def resolved(self) -> int:
        return sum(len(t.resolved) for t in self.topics)

    @property
    def dropped(self) -> int:
        return sum(len(t.dropped) for t in self.topics)

    @property
    def raised(self) -> int:
        return sum(len(t.raised) for t in self.topics)

    @property
    def grown(self) -> int:
        """Sections that grew, over all topics (anchorings without a known section not counted)."""
        return sum(1 for t in self.topics for g in t.grown if g.section is not None)


def weeks(kb: KnowledgeBase) -> tuple[Week, ...]:
    """Every week with at least one brief, oldest first."""

    def compute() -> tuple[Week, ...]:
        keys: dict[str, dict[str, list[str]]] = {}  # week -> topic -> brief keys
        for key in sorted(kb.briefs, key=kb.history.order.__getitem__):
            brief = kb.briefs[key]
            keys.setdefault(week_id(brief.date), {}).setdefault(brief.topic, []).append(key)
        order = {topic: i for i, topic in enumerate([*kb.topics, *kb.by_topic])}
        out = []
        for wid in sorted(keys):
            topics = sorted(keys[wid], key=order.__getitem__)
            out.append(Week(wid, monday_of(wid), tuple(_topic_week(kb, t, tuple(keys[wid][t])) for t in topics)))
        return tuple(out)

    return memo(kb, "weeks", compute)


def week(kb: KnowledgeBase, wid: str) -> Week | None:
    return next((w for w in weeks(kb) if w.id == wid), None)


def _topic_week(kb: KnowledgeBase, topic: str, keys: tuple[str, ...]) -> TopicWeek:
    increments = tuple(WeekIncrement(key, i, inc) for key in keys for i, inc in enumerate(kb.briefs[key].increments, 1))
    anchorings, moved = _anchorings(kb, topic, set(keys))
    closed: dict[ClaimAction, list[ClaimClosed]] = {ClaimAction.resolved: [], ClaimAction.dropped: []}
    raised = []
    for cid in kb.claims.ids(topic):
        state = kb.claims.by_id[(topic, cid)]
        if state.brief in keys:
            raised.append(state)
        for event in state.events:
            if event.brief in keys and event.update.action in closed:
                closed[event.update.action].append(ClaimClosed(state, event))
    rank = kb.history.order
    for found in closed.values():
        found.sort(key=lambda c: (rank[c.event.brief], c.state.date, c.state.index))
    raised.sort(key=lambda s: (rank[s.brief], s.index))
    return TopicWeek(
        topic,
        keys,
        increments,
        anchorings,
        moved,
        tuple(closed[ClaimAction.resolved]),
        tuple(closed[ClaimAction.dropped]),
        tuple(raised),
        _grown(kb, topic, anchorings),
    )


Moves = frozenset[tuple[str, str]]  # (paper, brief) of the anchorings that move a paper


def _anchorings(kb: KnowledgeBase, topic: str, keys: set[str]) -> tuple[tuple[AnchorRecord, ...], Moves]:
    """The anchor records of the week's briefs that say something new (see the module's docstring),
    and which of them move a paper."""
    rank = kb.history.order
    found: list[AnchorRecord] = []
    moved: set[tuple[str, str]] = set()
    for paper, records in kb.history.anchors.items():
        before: AnchorRecord | None = None
        for rec in records:  # in brief order
            if rec.topic != topic:
                continue
            if rec.brief in keys and (before is None or set(rec.sections) != set(before.sections)):
                found.append(rec)
                if before is not None:
                    moved.add((paper, rec.brief))
            before = rec
    found.sort(key=lambda r: (r.known_by, rank[r.brief], r.keypath, r.paper))
    return tuple(found), frozenset(moved)


def _grown(kb: KnowledgeBase, topic: str, anchorings: tuple[AnchorRecord, ...]) -> tuple[SectionGrowth, ...]:
    by_section: dict[str | None, list[str]] = {}
    for rec in anchorings:
        known: list[str | None] = [sid for sid in rec.sections if kb.section(topic, sid)]
        for sid in known or [None]:
            papers = by_section.setdefault(sid, [])
            if rec.paper not in papers:
                papers.append(rec.paper)
    order = list(kb.sections.get(topic, {}))
    place = {sid: i for i, sid in enumerate(order)}
    ranked = sorted(by_section, key=lambda s: (s is None, place.get(s, len(order)) if s else 0))
    return tuple(SectionGrowth(sid, tuple(by_section[sid])) for sid in ranked)
