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
from dataclasses import dataclass, field

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
    partial: bool = False  # a reconstructed brief of it may have more increments than it lists: a lower bound


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
    def partial(self) -> bool:
        """Whether :attr:`increments` is a lower bound (a reconstructed brief's are not all known)."""
        return any(t.partial for t in self.topics)

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
        said = _by_brief(kb)
        out = []
        for wid in sorted(keys):
            topics = sorted(keys[wid], key=order.__getitem__)
            made = tuple(_topic_week(kb, said, t, tuple(keys[wid][t])) for t in topics)
            out.append(Week(wid, monday_of(wid), made))
        return tuple(out)

    return memo(kb, "weeks", compute)


def week(kb: KnowledgeBase, wid: str) -> Week | None:
    return next((w for w in weeks(kb) if w.id == wid), None)


@dataclass
class _Said:
    """What one brief brings to its week: its news anchorings, and the claims it raises or closes."""

    anchorings: list[AnchorRecord] = field(default_factory=list)
    moved: set[tuple[str, str]] = field(default_factory=set)
    raised: list[ClaimState] = field(default_factory=list)
    closed: list[ClaimClosed] = field(default_factory=list)


def _by_brief(kb: KnowledgeBase) -> dict[str, _Said]:
    """One pass over the anchor records and the claims, by the brief that records each."""
    out: dict[str, _Said] = {key: _Said() for key in kb.briefs}
    for paper, records in kb.history.anchors.items():
        before: dict[str, AnchorRecord] = {}  # topic -> the paper's previous record there
        for rec in records:  # in brief order
            last = before.get(rec.topic)
            if last is None or set(rec.sections) != set(last.sections):  # news: a first record or a move
                out[rec.brief].anchorings.append(rec)
                if last is not None:
                    out[rec.brief].moved.add((paper, rec.brief))
            before[rec.topic] = rec
    for state in kb.claims.by_id.values():
        out[state.brief].raised.append(state)
        for event in state.events:
            if event.update.action in (ClaimAction.resolved, ClaimAction.dropped):
                out[event.brief].closed.append(ClaimClosed(state, event))
    return out


def _topic_week(kb: KnowledgeBase, said: dict[str, _Said], topic: str, keys: tuple[str, ...]) -> TopicWeek:
    rank = kb.history.order
    increments = tuple(WeekIncrement(key, i, inc) for key in keys for i, inc in enumerate(kb.briefs[key].increments, 1))
    found = sorted(
        (rec for key in keys for rec in said[key].anchorings),
        key=lambda r: (r.known_by, rank[r.brief], r.keypath, r.paper),
    )
    closed = sorted(
        (c for key in keys for c in said[key].closed), key=lambda c: (rank[c.event.brief], c.state.date, c.state.index)
    )
    raised = sorted((s for key in keys for s in said[key].raised), key=lambda s: (rank[s.brief], s.index))
    anchorings = tuple(found)
    return TopicWeek(
        topic,
        keys,
        increments,
        anchorings,
        frozenset(m for key in keys for m in said[key].moved),
        tuple(c for c in closed if c.event.update.action is ClaimAction.resolved),
        tuple(c for c in closed if c.event.update.action is ClaimAction.dropped),
        tuple(raised),
        _grown(kb, topic, anchorings),
        not all(increments_known(kb, key) for key in keys),
    )


def increments_known(kb: KnowledgeBase, key: str) -> bool:
    """Whether a brief lists all its main increments: it is no reconstruction, or the brief after it
    says how many it had, as many as it lists."""
    f = kb.figures[key]
    return not f.partial or f.told.get("increments") == f.increments


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
