"""The backlog: what is still waiting, computed from the whole history.

* items still NET-new or pending anchoring (first seen, age, value,
  credibility, suggested section, the briefs that carried them);
* arXiv ids mentioned without a paper file (cards to write);
* open claims to verify, by priority;
* duplicate cards (a paper with several card numbers, or a card list naming
  one arXiv id twice).

Ages count days from the first brief that raised the item to the as-of date:
the date of the topic's latest brief, so the page is the same on every build.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from kb.knowledge.index import KnowledgeBase
from kb.data.models import Claim, Status


@dataclass(frozen=True)
class PendingItem:
    paper: str
    topic: str
    status: Status
    first_seen: dt.date
    first_brief: str
    age_days: int
    value: int | None
    sections: tuple[str, ...]
    briefs: tuple[str, ...]


@dataclass(frozen=True)
class OpenClaim:
    brief: str
    index: int  # 1-based position in the brief
    claim: Claim

    @property
    def priority_rank(self) -> int:
        return int(self.claim.priority[1]) if self.claim.priority else 9


@dataclass(frozen=True)
class DuplicateCard:
    arxiv: str | None
    paper: str | None
    cards: tuple[int, ...]
    where: str  # brief key or "paper"


def as_of(kb: KnowledgeBase, topic: str) -> dt.date | None:
    keys = kb.by_topic.get(topic, [])
    return kb.briefs[keys[-1]].date if keys else None


def pending_items(kb: KnowledgeBase, topic: str) -> list[PendingItem]:
    keys = kb.by_topic.get(topic, [])
    if not keys:
        return []
    cache = kb.cache.setdefault("pending", {})
    if topic in cache:
        return cache[topic]
    today = kb.briefs[keys[-1]].date
    first: dict[str, str] = {}
    value: dict[str, int | None] = {}
    sections: dict[str, tuple[str, ...]] = {}
    status: dict[str, Status] = {}
    seen_in: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        b = kb.briefs[key]
        for inc in b.increments:
            for p in inc.papers:
                first.setdefault(p, key)
                seen_in[p].append(key)
                status[p] = inc.status
                if inc.value is not None:
                    value[p] = max(value.get(p) or 0, inc.value)
                secs = tuple(s.section for s in inc.suggested) or tuple(inc.sections)
                sections[p] = secs
        for c in b.candidates:
            first.setdefault(c.paper, key)
            seen_in[c.paper].append(key)
            status[c.paper] = c.status
        for c in kb.figures[key].carried:
            seen = seen_in[c.paper]
            if not seen or seen[-1] != key:  # keys come in order: only the last can be this one
                seen.append(key)
    out = []
    for pid, key in first.items():
        paper = kb.papers.get(pid)
        if paper is None or status[pid] is Status.anchored or kb.anchor_of(paper, topic, today) is not None:
            continue
        fs = kb.briefs[key].date
        out.append(PendingItem(pid, topic, status[pid], fs, key, (today - fs).days, value.get(pid),
                               sections.get(pid, ()), tuple(seen_in[pid])))
    out.sort(key=lambda i: (-i.age_days, -(i.value or 0), i.paper))
    cache[topic] = out
    return out


def open_claims(kb: KnowledgeBase) -> list[OpenClaim]:
    out = [OpenClaim(key, i, c) for key, b in kb.briefs.items() for i, c in enumerate(b.claims, 1) if not c.resolved]
    out.sort(key=lambda o: (o.priority_rank, kb.briefs[o.brief].date, o.index))
    return out


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
                    by_id[c.arxiv].append(c.number)
        for ident, numbers in by_id.items():
            if len(numbers) > 1:
                paper = kb.paper_for(ident)
                out.append(DuplicateCard(ident, paper.id if paper else None, tuple(numbers), key))
    return out
