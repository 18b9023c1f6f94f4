"""Each brief's figures (:class:`kb.knowledge.figures.BriefFigures`) counted from the knowledge
base: computed statuses, net-new ids, carried-over items, card tallies and the baseline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data import arxiv_id
from kb.data.models import Brief, SourceGroup, Status, Topic
from kb.knowledge.figures import (
    Baseline,
    BriefFigures,
    CardTally,
    Carried,
    is_adjacent_ingest,
    item_status,
    paper_status,
)

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


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


def compute_all(kb: KnowledgeBase) -> dict[str, BriefFigures]:
    carried = _carried_all(kb)
    anchored = _anchored_counts(kb)
    partial = _after_reconstructed(kb)
    out: dict[str, BriefFigures] = {}
    for key in kb.briefs:
        out[key] = _compute(kb, key, carried[key])
        out[key].baseline = _baseline(kb, key, anchored, key in partial)
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


def _after_reconstructed(kb: KnowledgeBase) -> set[str]:
    """The briefs with a reconstructed brief of their topic before them (one pass per topic)."""
    out: set[str] = set()
    for keys in kb.by_topic.values():
        rebuilt = False
        for key in keys:
            if rebuilt:
                out.add(key)
            rebuilt = rebuilt or kb.briefs[key].reconstructed is not None
    return out


def _compute(kb: KnowledgeBase, key: str, carried: list[Carried]) -> BriefFigures:
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


def _baseline(kb: KnowledgeBase, key: str, anchored: dict[str, int], partial: bool) -> Baseline:
    brief = kb.briefs[key]
    topic: Topic | None = kb.topics.get(brief.topic)
    update = None
    if topic is not None:
        for u in topic.updates:
            if u.date <= brief.date:
                update = u
    prev = kb.previous(key)
    return Baseline(update, anchored[prev] if prev is not None else 0, prev, partial)


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
