"""What a brief can compute: counts, net-new ids, carried-over items, summary rows,
source lists and the comparison with the previous brief.  Never typed twice.

Where the brief also states a figure (``stated:``) and it disagrees with the
computed one, the disagreement is kept (for the page) and reported as a warning.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from kb.data.diagnostics import Diagnostic, Severity, format_keypath
from kb.data.models import ADJACENT_LABELS, STATUS_LABELS, Brief, SourceFile, Status, round_key


@dataclass(frozen=True)
class Carried:
    paper: str
    origin: str  # brief key where it first appeared as an item
    origin_label: str  # "9-1 候选", "9-2 NET-new"
    status: Status  # status as of this brief
    anchored_since: dt.date | None
    anchored_section: str | None
    briefs: tuple[str, ...]  # every brief that raised or carried it, oldest first


@dataclass(frozen=True)
class SummaryRow:
    key: str  # "1".."5", "A".."F"
    anchor: str
    label: str
    papers: tuple[str, ...]
    sections: tuple[str, ...]
    category: str | None
    section_note: str | None
    value: int
    status: str
    note: str | None


@dataclass(frozen=True)
class Disagreement:
    figure: str
    stated: object
    computed: object
    message: str
    keypath: tuple = ()


@dataclass
class BriefFigures:
    increments: int = 0
    net_new: int = 0
    adjacent: int = 0
    adjacent_ingested: int = 0
    net_new_ids: list[str] = field(default_factory=list)
    net_new_papers: list[str] = field(default_factory=list)
    carried: list[Carried] = field(default_factory=list)
    rows: list[SummaryRow] = field(default_factory=list)
    included: list[SourceFile] = field(default_factory=list)
    excluded: list[SourceFile] = field(default_factory=list)
    sources_checked: int = 0
    cards: int = 0
    cards_in_topic: int = 0
    cards_adjacent: list[int] = field(default_factory=list)
    previous: str | None = None
    next: str | None = None
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def carried_anchored(self) -> list[Carried]:
        return [c for c in self.carried if c.status is Status.anchored]


def _item_papers(brief: Brief) -> list[tuple[str, Status, str]]:
    """(paper, status, label) for every tracked item of a brief: increments then candidates."""
    out = []
    for inc in brief.increments:
        for p in inc.papers:
            out.append((p, inc.status, STATUS_LABELS[inc.status]))
    for cand in brief.candidates:
        out.append((cand.paper, cand.status, "候选"))
    return out


def short_date(d: dt.date) -> str:
    return f"{d.month}-{d.day}"


def compute(kb, key: str) -> BriefFigures:
    brief: Brief = kb.briefs[key]
    f = BriefFigures(previous=kb.previous(key), next=kb.next(key))
    f.increments = len(brief.increments)
    f.net_new = sum(1 for i in brief.increments if i.status is Status.net_new)
    f.adjacent = len(brief.adjacent)
    for inc in brief.increments:
        papers = [kb.papers[p] for p in inc.papers if p in kb.papers]
        if any(p.cards and p.category and p.category.primary != brief.topic for p in papers):
            f.adjacent_ingested += 1

    seen: set[str] = set()
    for inc in brief.increments:
        for pid in inc.papers:
            paper = kb.papers.get(pid)
            if paper is None or not paper.arxiv_base or pid in seen:
                continue
            seen.add(pid)
            if _raised_earlier(kb, pid, brief) or kb.anchor_of(paper, brief.topic, brief.date) is not None:
                continue
            f.net_new_papers.append(pid)
            f.net_new_ids.append(paper.arxiv_base)

    f.carried = carried_over(kb, key)
    f.rows = _rows(kb, brief)
    files = [fl for g in brief.sources for fl in g.files]
    f.included = [fl for fl in files if fl.included]
    f.excluded = [fl for fl in files if not fl.included]
    f.sources_checked = len({fl.path for fl in files})
    cards = [c for g in brief.sources for c in g.cards]
    f.cards = len(cards)
    for c in cards:
        paper = kb.paper_for(c.arxiv) if c.arxiv else None
        primary = paper.category.primary if paper and paper.category else c.category
        adjacent = (paper.category.adjacent if paper and paper.category else []) or c.adjacent
        if primary == brief.topic:
            f.cards_in_topic += 1
        elif brief.topic in adjacent:
            f.cards_adjacent.append(c.number)
    f.disagreements = _disagreements(kb, key, brief, f)
    return f


def _raised_index(kb) -> tuple[dict[str, dt.date], dict[tuple[str, dt.date, str], str]]:
    """Built once per knowledge base: for every paper raised as an item or an adjacent
    paper, the first date it was raised (any topic), and for each (paper, date, topic)
    the first round that raised it that day."""
    cached = kb.cache.get("figures.raised")
    if cached is None:
        first: dict[str, dt.date] = {}
        rounds: dict[tuple[str, dt.date, str], str] = {}
        for other in kb.briefs.values():
            pids = [p for p, _, _ in _item_papers(other)]
            for adj in other.adjacent:
                pids.extend(adj.papers)
            for p in pids:
                if p not in first or other.date < first[p]:
                    first[p] = other.date
                k = (p, other.date, other.topic)
                if k not in rounds or round_key(other.round) < round_key(rounds[k]):
                    rounds[k] = other.round
        cached = kb.cache["figures.raised"] = (first, rounds)
    return cached


def _raised_earlier(kb, pid: str, brief: Brief) -> bool:
    """Was ``pid`` raised as an item or adjacent paper by a brief dated before ``brief``
    (any topic), or by an earlier round of the same topic on the same day?"""
    first, rounds = _raised_index(kb)
    d = first.get(pid)
    if d is None or d > brief.date:
        return False
    if d < brief.date:
        return True
    r = rounds.get((pid, brief.date, brief.topic))
    return r is not None and round_key(r) < round_key(brief.round)


def carried_over(kb, key: str) -> list[Carried]:
    """Items still pending after the previous brief, shown with their state as of this one.

    pending_after(b) = items(b) + carried(b) that are not anchored by b's date;
    carried(b) = pending_after(previous(b)) minus what b raises again as an item.
    An item that got anchored is carried once more (marked anchored), then drops.
    Computed for every brief in one pass per topic, then memoised.
    """
    by_key = kb.cache.get("figures.carried")
    if by_key is None:
        by_key = kb.cache["figures.carried"] = _carried_all(kb)
    return list(by_key[key])


def _carried_all(kb) -> dict[str, list[Carried]]:
    out: dict[str, list[Carried]] = {}
    for chain in kb.by_topic.values():
        keys = tuple(chain)
        # paper -> (origin, label, index in keys of the brief that first raised it).  A pending
        # item is raised or carried by every brief from its origin on, so the briefs that
        # raised or carried it are the slice keys[start:i + 1].
        pending: dict[str, tuple[str, str, int]] = {}
        for i, k in enumerate(keys):
            brief = kb.briefs[k]
            items = _item_papers(brief)
            raised = {p for p, _, _ in items}
            carried: list[Carried] = []
            for pid, (origin, label, start) in pending.items():
                if pid in raised:
                    continue
                paper = kb.papers.get(pid)
                anchor = kb.anchor_of(paper, brief.topic, brief.date) if paper else None
                carried.append(Carried(
                    pid, origin, label, Status.anchored if anchor else Status.pending,
                    anchor.since if anchor else None, anchor.section if anchor else None,
                    keys[start:i + 1],
                ))
            nxt = {c.paper: pending[c.paper] for c in carried if c.status is not Status.anchored}
            for pid, status, label in items:
                paper = kb.papers.get(pid)
                if status is Status.anchored or (paper and kb.anchor_of(paper, brief.topic, brief.date)):
                    nxt.pop(pid, None)
                    continue
                if pid in pending:
                    nxt[pid] = pending[pid]
                elif pid not in nxt:
                    nxt[pid] = (k, f"{short_date(brief.date)} {label}", i)
            pending = nxt
            out[k] = carried
    return out


def _rows(kb, brief: Brief) -> list[SummaryRow]:
    rows = []
    for i, inc in enumerate(brief.increments):
        rows.append(SummaryRow(
            str(i + 1), f"inc-{i + 1}", inc.label, tuple(inc.papers), tuple(s.section for s in inc.suggested) or tuple(inc.sections),
            None, None, inc.value, STATUS_LABELS[inc.status], inc.summary_note,
        ))
    for i, adj in enumerate(brief.adjacent):
        letter = chr(ord("A") + i)
        status = (adj.priority + " " if adj.priority else "") + ADJACENT_LABELS[adj.status]
        rows.append(SummaryRow(
            letter, f"adj-{letter.lower()}", adj.title, tuple(adj.papers), tuple(adj.sections),
            adj.category, adj.section_note, adj.value, status, adj.warning,
        ))
    return rows


def _disagreements(kb, key: str, brief: Brief, f: BriefFigures) -> list[Disagreement]:
    s = brief.stated
    out: list[Disagreement] = []

    def cmp(figure: str, stated, computed, what: str, detail: str = "") -> None:
        if stated is not None and stated != computed:
            out.append(Disagreement(figure, stated, computed,
                                    f"the brief states {stated} {what}, computed {computed}{detail}"))

    net_new_items = ", ".join(str(i + 1) for i, inc in enumerate(brief.increments) if inc.status is Status.net_new)
    cmp("increments", s.increments, f.increments, "main increments")
    cmp("net_new", s.net_new, f.net_new, "NET-new increments", f" (increments with status NET-new: {net_new_items or 'none'})")
    ingested = [str(i + 1) for i, inc in enumerate(brief.increments)
                if any(kb.papers[p].cards and kb.papers[p].category and kb.papers[p].category.primary != brief.topic
                       for p in inc.papers if p in kb.papers)]
    cmp("adjacent_ingested", s.adjacent_ingested, f.adjacent_ingested, "increments ingested as adjacent paper cards",
        f" (increments whose paper has a card and another primary category: {', '.join(ingested) or 'none'})")
    cmp("adjacent", s.adjacent, f.adjacent, "adjacent prep items")
    cmp("arxiv_net_new", s.arxiv_net_new, len(f.net_new_ids), "net-new arXiv ids")
    cmp("carried_over", s.carried_over, len(f.carried), "carried-over items")
    cmp("cards", s.cards, f.cards, "new paper cards")
    if s.sources_checked_min is not None and f.sources_checked < s.sources_checked_min:
        out.append(Disagreement("sources_checked_min", f"{s.sources_checked_min}+", f.sources_checked,
                                f"the brief states {s.sources_checked_min}+ sources checked, but lists {f.sources_checked} distinct files"))
    if s.sources_breakdown:
        total = sum(c.count for c in s.sources_breakdown)
        claimed = s.sources_checked_min
        if claimed is not None and total < claimed:
            parts = " + ".join(f"{c.label} {c.count}" for c in s.sources_breakdown)
            out.append(Disagreement("sources_breakdown", f"{claimed}+", total,
                                    f"the brief states {claimed}+ sources checked, but its own breakdown ({parts}) adds up to {total}"
                                    f"; the source lists name {f.sources_checked} distinct files"))
    prev = f.previous
    if prev is not None:
        pf = kb.figures[prev]  # briefs are computed in order, so the previous one is ready
        cmp("previous_increments", s.previous_increments, pf.increments, f"main increments for the previous brief ({prev})")
        cmp("previous_adjacent", s.previous_adjacent, pf.adjacent, f"adjacent prep items for the previous brief ({prev})")
    # statements inside the sources that contradict the anchors
    for gi, g in enumerate(brief.sources):
        for pj, pid in enumerate(g.confirmed_pending):
            paper = kb.papers.get(pid)
            anchor = kb.anchor_of(paper, brief.topic, brief.date) if paper else None
            if anchor is not None:
                out.append(Disagreement("confirmed_pending", f"{paper.short}: 未锚入", f"已锚入（{anchor.since.isoformat()}）",
                                        f"source '{g.title}' says {paper.short} is still not anchored, but it is anchored in {brief.topic} since {anchor.since.isoformat()}",
                                        ("sources", gi, "confirmed_pending", pj)))
    if brief.baseline:
        for li, label in enumerate(brief.baseline.labels):
            for pj, pid in enumerate(label.papers):
                paper = kb.papers.get(pid)
                if paper is not None and kb.anchor_of(paper, brief.topic, brief.baseline.updated) is None:
                    out.append(Disagreement("baseline_labels", label.text, f"{paper.short}: 未锚入",
                                            f"the baseline's update label '{label.text}' names {paper.short}, which is not anchored in {brief.topic} as of {brief.baseline.updated.isoformat()} (it is carried over as pending)",
                                            ("baseline", "labels", li, "papers", pj)))
    return out


def disagreement_diagnostics(kb) -> list[Diagnostic]:
    out = []
    for key, f in kb.figures.items():
        src = kb.sources[("brief", key)]
        for d in f.disagreements:
            keypath = d.keypath or ("stated", "sources_checked_min" if d.figure == "sources_breakdown" else d.figure)
            line, col = src.where(*keypath)
            out.append(Diagnostic(src.path, line, col, d.message, key=format_keypath(keypath), severity=Severity.WARNING, code="stated-vs-computed"))
    return out
