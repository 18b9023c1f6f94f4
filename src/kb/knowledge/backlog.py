"""The backlog: what is still waiting, computed from the whole history.

* items still NET-new or pending anchoring: every paper a brief of the topic
  puts forward for its living document (:data:`PROPOSED`: a main increment, an
  adjacent prep item, a candidate, the author's carried-over list; and what the
  knowledge base computes as carried over) and not anchored there (first seen,
  age, value, credibility, suggested section, the briefs that named or carried
  them).  A paper named only by a claim or in the list of citable ids is seen
  but not put forward: it waits on no topic's backlog;
* arXiv ids mentioned without a paper file (cards to write);
* open claims to verify, once each, by priority (with their history);
* duplicate cards (a paper with several card numbers, or a card list naming
  one arXiv id twice).

Ages count days from the paper's first sighting (any brief, any kind of item:
the one definition of :mod:`kb.knowledge.history`) to the as-of date: the date
of the topic's latest brief, so the page is the same on every build.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from kb.data import arxiv_id
from kb.data.models import Status
from kb.knowledge.claims import ClaimState
from kb.knowledge.derived import memo
from kb.knowledge.figures import paper_status
from kb.knowledge.history import sightings
from kb.knowledge.index import KnowledgeBase

# The kinds of item by which a brief puts a paper forward for its topic's living document
# (kb.knowledge.history.SIGHTING_KINDS but claims and citable ids).
PROPOSED = frozenset({"increment", "adjacent", "candidate", "carried"})


@dataclass(frozen=True)
class PendingItem:
    paper: str
    topic: str
    status: Status  # computed as of the topic's latest brief: net-new (first seen then) or pending
    first_seen: dt.date
    first_brief: str
    first_kind: str  # the kind of item it was first seen as
    age_days: int
    value: int | None
    sections: tuple[str, ...]  # suggested sections, each once, in the brief's order
    briefs: tuple[str, ...]  # briefs of the topic that raised or carried it, oldest first


@dataclass(frozen=True)
class DuplicateCard:
    arxiv: str | None
    paper: str | None
    cards: tuple[int, ...]
    where: str  # brief key or "paper"


def as_of(kb: KnowledgeBase, topic: str) -> dt.date | None:
    keys = kb.by_topic.get(topic, [])
    return kb.briefs[keys[-1]].date if keys else None


def pending_items(kb: KnowledgeBase, topic: str) -> tuple[PendingItem, ...]:
    """The topic's items still waiting to be anchored, oldest first (computed once per
    knowledge base: several pages ask)."""
    return memo(kb, ("pending", topic), lambda: _pending_items(kb, topic))


def _pending_items(kb: KnowledgeBase, topic: str) -> tuple[PendingItem, ...]:
    keys = kb.by_topic.get(topic, [])
    if not keys:
        return ()
    latest = keys[-1]
    today = kb.briefs[latest].date
    value: dict[str, int] = {}
    sections: dict[str, tuple[str, ...]] = {}
    handled: dict[str, list[str]] = defaultdict(list)
    adjacent_value: dict[str, int] = {}  # an adjacent item's value and sections: where no increment gives them
    adjacent_sections: dict[str, tuple[str, ...]] = {}
    for key in keys:
        b = kb.briefs[key]
        for inc in b.increments:
            where = tuple(dict.fromkeys(s.section for s in inc.suggested)) or tuple(dict.fromkeys(inc.sections))
            for p in inc.papers:
                if inc.value is not None:
                    value[p] = max(value.get(p, 0), inc.value)
                if where:  # the latest increment that names a section
                    sections[p] = where
        for adj in b.adjacent:
            for p in adj.papers:
                if adj.value is not None:
                    adjacent_value[p] = max(adjacent_value.get(p, 0), adj.value)
                if adj.sections:
                    adjacent_sections[p] = tuple(dict.fromkeys(adj.sections))
        named = [s.paper for s in sightings(key, b) if s.kind in PROPOSED] + [c.paper for c in kb.figures[key].carried]
        for pid in dict.fromkeys(named):
            handled[pid].append(key)
    value = {**adjacent_value, **value}
    sections = {**adjacent_sections, **sections}
    out = []
    for pid, briefs in handled.items():
        first = kb.history.first_seen(pid)
        if pid not in kb.papers or first is None or kb.history.anchor(pid, topic, latest) is not None:
            continue
        out.append(
            PendingItem(
                pid,
                topic,
                paper_status(kb.history, pid, latest, topic),
                first.date,
                first.brief,
                first.kind,
                (today - first.date).days,
                value.get(pid),
                sections.get(pid, ()),
                tuple(dict.fromkeys(briefs)),
            )
        )
    out.sort(key=lambda i: (-i.age_days, -(i.value or 0), i.paper))
    return tuple(out)


def open_claims(kb: KnowledgeBase) -> list[ClaimState]:
    return kb.claims.open_claims()


def duplicate_cards(kb: KnowledgeBase) -> list[DuplicateCard]:
    out = []
    for pid, p in kb.papers.items():
        if len(p.cards) > 1:
            out.append(DuplicateCard(p.arxiv_base, pid, tuple(p.cards), "paper"))
    for key, b in kb.briefs.items():
        by_id: dict[str, list[int]] = defaultdict(list)
        for g in b.sources:
            for c in g.cards:
                if c.arxiv:
                    by_id[arxiv_id.normalize(c.arxiv) or c.arxiv].append(c.number)
        for ident, numbers in by_id.items():
            if len(numbers) > 1:
                paper = kb.paper_for(ident)
                out.append(DuplicateCard(ident, paper.id if paper else None, tuple(numbers), key))
    return out
