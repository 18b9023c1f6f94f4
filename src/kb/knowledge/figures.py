"""What the knowledge base computes for each brief: counts, the computed status
of each increment, net-new arXiv ids, carried-over items, card tallies, the
number of sources listed and the living document's baseline.  These stand
beside what the author stated (see :mod:`kb.knowledge.findings`), never in
its place.  A reconstructed brief's figures are lower bounds (``partial``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kb.data import arxiv_id
from kb.data.models import Brief, DocumentUpdate, Paper, SourceGroup, Status, Topic
from kb.knowledge.history import AnchorRecord, History

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


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


def _only_adjacent_before(kb: KnowledgeBase, key: str, paper: str) -> bool:
    """Was ``paper`` named by the topic's earlier briefs only as an adjacent item (or in a claim or
    the citable ids), never put forward as a main increment, a candidate or a carried-over item?"""
    h, topic = kb.history, kb.briefs[key].topic
    kinds = {
        s.kind
        for s in h.by_paper.get(paper, ())
        if kb.briefs[s.brief].topic == topic and h.order[s.brief] < h.order[key]
    }
    return "adjacent" in kinds and not kinds & {"increment", "candidate", "carried"}


def agrees_net_new(f: BriefFigures, stated: int) -> bool:
    """The team's NET-new count may count promoted adjacent items (first time as a main increment) or not."""
    return f.net_new <= stated <= f.net_new + len(f.first_as_main)


def is_adjacent_ingest(paper: Paper | None, topic: str) -> bool:
    """A paper that entered the card library under another primary category."""
    return bool(paper and paper.cards and paper.category and paper.category.primary != topic)


def compute_all(kb: KnowledgeBase) -> dict[str, BriefFigures]:
    carried = _carried_all(kb)
    anchored = _anchored_counts(kb)
    out: dict[str, BriefFigures] = {}
    for key in kb.briefs:
        out[key] = _compute(kb, key, carried[key], anchored)
    return out


def _anchored_counts(kb: KnowledgeBase) -> dict[str, int]:
    """Brief key -> papers of its topic recorded as anchored by that brief or an earlier one
    (one pass per topic over the anchor records, in brief order)."""
    first: dict[tuple[str, str], int] = {}  # (topic, paper) -> order of its first anchoring brief
    for recs in kb.history.anchors.values():
        for rec in recs:
            k = (rec.topic, rec.paper)
            order = kb.history.order[rec.brief]
            if k not in first or order < first[k]:
                first[k] = order
    out: dict[str, int] = {}
    for topic, keys in kb.by_topic.items():
        orders = sorted(o for (t, _), o in first.items() if t == topic)
        i = 0
        for key in keys:
            while i < len(orders) and orders[i] <= kb.history.order[key]:
                i += 1
            out[key] = i
    return out


def _compute(kb: KnowledgeBase, key: str, carried: list[Carried], anchored: dict[str, int]) -> BriefFigures:
    brief = kb.briefs[key]
    h = kb.history
    f = BriefFigures(previous=kb.previous(key), next=kb.next(key), partial=brief.reconstructed is not None)
    f.increments = len(brief.increments)
    f.adjacent = len(brief.adjacent)
    f.statuses = [item_status(h, inc.papers, key, brief.topic) for inc in brief.increments]
    f.net_new = sum(1 for s in f.statuses if s is Status.net_new)
    f.first_as_main = [
        i
        for i, (inc, st) in enumerate(zip(brief.increments, f.statuses, strict=True), 1)
        if st is Status.pending and all(_only_adjacent_before(kb, key, p) for p in inc.papers)
    ]
    for i, inc in enumerate(brief.increments, 1):
        if any(is_adjacent_ingest(kb.papers.get(p), brief.topic) for p in inc.papers):
            f.ingested_items.append(i)
    f.adjacent_ingested = len(f.ingested_items)
    for s in _ordered_sightings(kb, key):
        paper = kb.papers.get(s)
        if paper is None or not paper.arxiv_base or s in f.net_new_papers:
            continue
        if paper_status(h, s, key, brief.topic) is Status.net_new:
            f.net_new_papers.append(s)
            f.net_new_ids.append(paper.arxiv_base)
    f.carried = carried
    f.cards = [_tally(kb, brief, i, g) for i, g in enumerate(brief.sources) if g.cards]
    f.sources_listed = len(_listed_files(brief))
    f.baseline = _baseline(kb, key, anchored)
    if f.next is not None:
        later = kb.briefs[f.next].stated
        told = {"increments": later.previous_increments, "adjacent": later.previous_adjacent}
        f.told = {name: value for name, value in told.items() if value is not None}
    return f


def _ordered_sightings(kb: KnowledgeBase, key: str) -> list[str]:
    from kb.knowledge.history import sightings

    seen: list[str] = []
    for s in sightings(key, kb.briefs[key]):
        if s.paper not in seen:
            seen.append(s.paper)
    return seen


def _listed_files(brief: Brief) -> set[str]:
    files = {fl.path for g in brief.sources for fl in g.files}
    if brief.checked:
        files |= {c.path for c in brief.checked.included + brief.checked.excluded}
    return files


def _tally(kb: KnowledgeBase, brief: Brief, index: int, group: SourceGroup) -> CardTally:
    first_by_id: dict[str, int] = {}
    repeats: list[tuple[int, int]] = []
    in_topic: list[int] = []
    adjacent: list[int] = []
    for card in group.cards:
        if card.arxiv:
            base = arxiv_id.normalize(card.arxiv) or card.arxiv
            if base in first_by_id:
                repeats.append((card.number, first_by_id[base]))
                continue
            first_by_id[base] = card.number
        paper = kb.paper_for(card.arxiv) if card.arxiv else None
        primary = paper.category.primary if paper and paper.category else card.category
        adjacent_to = (paper.category.adjacent if paper and paper.category else []) or card.adjacent
        if primary == brief.topic:
            in_topic.append(card.number)
        elif brief.topic in adjacent_to:
            adjacent.append(card.number)
    return CardTally(
        index, len(group.cards), len(group.cards) - len(repeats), tuple(in_topic), tuple(adjacent), tuple(repeats)
    )


def _baseline(kb: KnowledgeBase, key: str, anchored: dict[str, int]) -> Baseline:
    brief = kb.briefs[key]
    topic: Topic | None = kb.topics.get(brief.topic)
    update = None
    if topic is not None:
        for u in topic.updates:
            if u.date <= brief.date:
                update = u
    prev = kb.previous(key)
    return Baseline(update, anchored[prev] if prev is not None else 0, prev)


def _carried_all(kb: KnowledgeBase) -> dict[str, list[Carried]]:
    """Items still pending after the previous brief, for every brief in one pass per topic.

    pending_after(b) = items(b) + carried(b) that are not anchored as of b;
    carried(b) = pending_after(previous(b)) minus what b raises again as an item.
    An item that got anchored is carried once more (marked anchored), then drops.
    Items are main increments and candidates: what a brief raises and the next one carries.  An
    adjacent item is not carried (the backlog lists it with the briefs that named it).
    """
    out: dict[str, list[Carried]] = {}
    h = kb.history
    for topic, keys in kb.by_topic.items():
        pending: dict[str, str] = {}  # paper -> origin key
        for k in keys:
            brief = kb.briefs[k]
            raised = [p for inc in brief.increments for p in inc.papers] + [c.paper for c in brief.candidates]
            carried = []
            for pid, origin in pending.items():
                if pid in raised:
                    continue
                anchor = h.anchor(pid, topic, k)
                carried.append(Carried(pid, origin, Status.anchored if anchor else Status.pending, anchor))
            nxt = {c.paper: pending[c.paper] for c in carried if c.status is not Status.anchored}
            for pid in raised:
                if h.anchor(pid, topic, k) is not None:
                    nxt.pop(pid, None)
                elif pid not in nxt:
                    nxt[pid] = pending.get(pid, k)
            pending = nxt
            out[k] = carried
    return out


def short_date(d: dt.date) -> str:
    return f"{d.month}-{d.day}"
