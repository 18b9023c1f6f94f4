"""What the briefs say about each paper over time: every sighting, the one
definition of "first seen", and the anchors derived from the briefs.

* A paper is **seen** by a brief that names it in a main increment, an adjacent
  item, a candidate, a claim, the author's carried-over list or the list of
  citable ids.  Its **first sighting** is the earliest such brief of any topic
  (by date, then round).  Net-new ids, backlog ages and the living document all
  use this one definition.
* A paper is **anchored** in a topic's living document from the first brief of
  that topic with an entry ``status: anchored`` for it (its ``anchored_in``
  sections, one or more; its date: ``anchored_since`` when given, else the
  brief's date for an increment or a candidate, which the brief anchors, and
  unknown for an entry of the carried-over list, which restates an older
  anchoring).  Several entries of one brief anchoring the same paper make one
  record: their sections merged, in the order written.  Briefs are the only
  place anchoring is recorded; paper files do not repeat it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from kb.data.models import Brief, Candidate, CarriedEntry, Status, round_key

KeyPath = tuple[str | int, ...]

SIGHTING_KINDS = ("increment", "adjacent", "candidate", "claim", "carried", "citable")


@dataclass(frozen=True)
class Sighting:
    paper: str
    brief: str  # brief key
    date: dt.date
    kind: str  # one of SIGHTING_KINDS
    keypath: KeyPath  # where in the brief file


@dataclass(frozen=True)
class StatusEntry:
    """An entry of a brief that states a paper's status."""

    paper: str
    brief: str
    status: Status
    keypath: KeyPath
    anchored_in: tuple[str, ...]
    anchored_since: dt.date | None


@dataclass(frozen=True)
class AnchorRecord:
    """A paper anchored in a topic's living document, as a brief records it."""

    paper: str
    topic: str
    sections: tuple[str, ...]  # every section it is anchored in, in the order written (may be empty)
    since: dt.date | None  # anchoring date: stated, or the brief's own for an anchoring it makes
    brief: str  # the brief that records it
    recorded_on: dt.date  # that brief's date: the paper is anchored at the latest then
    keypath: KeyPath

    @property
    def section(self) -> str | None:
        """The first section (where one place is wanted: a link's target)."""
        return self.sections[0] if self.sections else None

    @property
    def known_by(self) -> dt.date:
        """The date by which the knowledge base knows the paper is anchored."""
        return self.since if self.since and self.since < self.recorded_on else self.recorded_on


def sightings(key: str, brief: Brief) -> Iterator[Sighting]:
    """Every paper a brief names as an item, in the order of the brief."""
    d = brief.date
    for i, inc in enumerate(brief.increments):
        for j, p in enumerate(inc.papers):
            yield Sighting(p, key, d, "increment", ("increments", i, "papers", j))
    for i, adj in enumerate(brief.adjacent):
        for j, p in enumerate(adj.papers):
            yield Sighting(p, key, d, "adjacent", ("adjacent", i, "papers", j))
    for i, cand in enumerate(brief.candidates):
        yield Sighting(cand.paper, key, d, "candidate", ("candidates", i, "paper"))
    for i, claim in enumerate(brief.claims):
        for j, p in enumerate(claim.papers):
            yield Sighting(p, key, d, "claim", ("claims", i, "papers", j))
    for i, entry in enumerate(brief.carried):
        yield Sighting(entry.paper, key, d, "carried", ("carried", i, "paper"))
    for i, cit in enumerate(brief.citable):
        yield Sighting(cit.paper, key, d, "citable", ("citable", i, "paper"))


def status_entries(key: str, brief: Brief) -> Iterator[StatusEntry]:
    """Every entry that states a paper's status: increments (one per paper), candidates and
    carried entries that state one.  An increment's or candidate's anchoring is dated the brief's
    date unless it states another; a carried entry's only by what it states."""
    for i, inc in enumerate(brief.increments):
        for p in inc.papers:
            yield StatusEntry(
                p, key, inc.status, ("increments", i, "status"), tuple(inc.anchored_in or ()), inc.anchored_since
            )
    stated: list[tuple[str, Sequence[Candidate | CarriedEntry]]] = [
        ("candidates", brief.candidates),
        ("carried", brief.carried),
    ]
    for part, entries in stated:
        for i, entry in enumerate(entries):
            if entry.status is not None:
                sections = tuple(entry.anchored_in or ())
                yield StatusEntry(entry.paper, key, entry.status, (part, i, "status"), sections, entry.anchored_since)


def anchoring_date(e: StatusEntry, brief: Brief) -> dt.date | None:
    """The date of the anchoring an entry records: the one it states, else the brief's own for an
    increment or a candidate (the brief anchors it), else unknown (a carried entry restates it)."""
    if e.anchored_since is not None:
        return e.anchored_since
    return brief.date if e.keypath[0] in ("increments", "candidates") else None


@dataclass
class History:
    """Sightings and anchors over all briefs, computed once per knowledge base."""

    by_paper: dict[str, list[Sighting]] = field(default_factory=dict)  # in brief order
    anchors: dict[str, list[AnchorRecord]] = field(default_factory=dict)  # paper -> records in brief order
    order: dict[str, int] = field(default_factory=dict)  # brief key -> global (date, round) rank

    def first_seen(self, paper: str) -> Sighting | None:
        seen = self.by_paper.get(paper)
        return seen[0] if seen else None

    def anchor(self, paper: str, topic: str, as_of: str | None = None) -> AnchorRecord | None:
        """The paper's anchor in ``topic`` recorded by brief ``as_of`` or an earlier one
        (``None``: by any brief); the latest such record, since a later one may move it."""
        found = None
        for rec in self.anchors.get(paper, ()):
            if rec.topic == topic and (as_of is None or self.order[rec.brief] <= self.order[as_of]):
                found = rec
        return found

    def first_anchor(self, paper: str, topic: str) -> AnchorRecord | None:
        return next((r for r in self.anchors.get(paper, ()) if r.topic == topic), None)

    def anchored_before(self, paper: str, topic: str, key: str) -> AnchorRecord | None:
        """The paper's first anchor in ``topic`` if a brief ordered before ``key`` recorded it: marking
        it anything else in ``key`` is a status going backwards."""
        rec = self.first_anchor(paper, topic)
        return rec if rec is not None and self.order[rec.brief] < self.order[key] else None


def build_history(briefs: dict[str, Brief]) -> History:
    """``briefs`` in (topic, date, round) order, as the index keeps them."""
    h = History()
    ranked = sorted(briefs, key=lambda k: (briefs[k].date, round_key(briefs[k].round), briefs[k].topic))
    h.order = {k: i for i, k in enumerate(ranked)}
    for key in ranked:
        brief = briefs[key]
        for s in sightings(key, brief):
            seen = h.by_paper.setdefault(s.paper, [])
            if not seen or seen[-1].brief != key or seen[-1].kind != s.kind:
                seen.append(s)
        merged: dict[str, AnchorRecord] = {}  # one record per paper and brief: the entries' sections merged
        for e in status_entries(key, brief):
            if e.status is not Status.anchored:
                continue
            since = anchoring_date(e, brief)
            rec = merged.get(e.paper)
            if rec is None:
                merged[e.paper] = AnchorRecord(e.paper, brief.topic, e.anchored_in, since, key, brief.date, e.keypath)
            else:  # differing dates are an error of rules.history; the earliest stated one stands
                dates = [d for d in (rec.since, since) if d is not None]
                sections = tuple(dict.fromkeys(rec.sections + e.anchored_in))
                merged[e.paper] = replace(rec, sections=sections, since=min(dates) if dates else None)
        for rec in merged.values():
            h.anchors.setdefault(rec.paper, []).append(rec)
    return h
