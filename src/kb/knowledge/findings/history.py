"""A brief's carried-over list, statuses, confirmed-pending lists and origins, checked against
the history (first sightings and anchorings)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from kb.data.diagnostics import KeyPath
from kb.data.models import Brief, Status
from kb.knowledge.finding import Finding
from kb.knowledge.finding import brief_finding as _finding
from kb.knowledge.finding import short_name as _short

if TYPE_CHECKING:
    from kb.knowledge.figures import BriefFigures
    from kb.knowledge.index import KnowledgeBase


def carried(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    if not brief.carried:
        return []
    out = []
    computed = {c.paper: c for c in f.carried}
    for i, entry in enumerate(brief.carried):
        c = computed.get(entry.paper)
        if c is None:
            adjacent = _adjacent_only(kb, key, entry.paper)
            why = (
                "it was put forward only as an adjacent item, and adjacent items are not carried over "
                "(the backlog lists them with the briefs that named them)"
                if adjacent
                else "it is no main increment or candidate still pending after the previous brief"
            )
            out.append(
                _finding(
                    key,
                    f"carried/extra/{entry.paper}",
                    "carried/extra-adjacent" if adjacent else "carried/extra",
                    ("carried", i, "paper"),
                    f"the brief carries {entry.paper} over, but {why}",
                    paper=entry.paper,
                )
            )
        elif entry.status is not None and entry.status is not c.status and entry.status is not Status.anchored:
            out.append(
                _finding(
                    key,
                    f"carried/status/{entry.paper}",
                    "carried/status",
                    ("carried", i, "status"),
                    f"the brief says {entry.paper} is {entry.status.value}; computed {c.status.value}",
                    paper=entry.paper,
                    stated=entry.status.value,
                    computed=c.status.value,
                )
            )
    listed = {e.paper for e in brief.carried}
    missing = [c.paper for c in f.carried if c.paper not in listed]
    if missing:  # one finding for the list (a list left short on purpose is acknowledged once)
        out.append(
            _finding(
                key,
                "carried/missing",
                "carried/missing",
                ("carried",),
                f"the brief's carried-over list leaves out {len(missing)} item(s) still pending after the previous "
                f"brief: {', '.join(missing)}",
                papers="、".join(_short(kb.papers, pid) for pid in missing),
                n=len(missing),
            )
        )
    return out


def _adjacent_only(kb: KnowledgeBase, key: str, paper: str) -> bool:
    """Whether the briefs of the topic before ``key`` name ``paper`` in an adjacent item and never
    as a main increment or candidate (what the computed carried-over list holds): its sightings."""
    h, topic = kb.history, kb.briefs[key].topic
    kinds = {
        s.kind
        for s in h.by_paper.get(paper, ())
        if kb.briefs[s.brief].topic == topic and h.order[s.brief] < h.order[key]
    }
    return "adjacent" in kinds and not kinds & {"increment", "candidate"}


def statuses(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    from kb.knowledge.figures import paper_status
    from kb.knowledge.history import status_entries

    out = []
    seen: set[str] = set()
    for e in status_entries(key, brief):
        if e.status is Status.anchored or e.paper in seen or e.paper not in kb.papers:
            continue
        computed = paper_status(kb.history, e.paper, key, brief.topic)
        if computed is Status.anchored and kb.history.anchored_before(e.paper, brief.topic, key):
            continue  # an error, not a finding to acknowledge: kb.knowledge.rules.history (status going backwards)
        if (
            e.status is Status.net_new
            and computed is Status.pending
            and e.keypath[0] == "increments"
            and int(e.keypath[1]) + 1 in f.first_as_main
        ):
            continue  # NET-new: first time as a main increment, as the team writes a promoted adjacent item
        if computed is not e.status:
            seen.add(e.paper)
            first = kb.history.first_seen(e.paper)
            out.append(
                _finding(
                    key,
                    f"status/{e.paper}",
                    "status",
                    e.keypath,
                    f"the brief marks {kb.papers[e.paper].short} {e.status.value}; computed {computed.value}"
                    + (
                        f" (first seen in {first.brief}, {first.kind})"
                        if first and first.brief != key
                        else " (first seen in this brief, not anchored)"
                        if computed is Status.net_new
                        else ""
                    ),
                    paper=e.paper,
                    stated=e.status.value,
                    computed=computed.value,
                    first=first.brief if first else "",
                    first_kind=first.kind if first else "",
                )
            )
    return out


def confirmed_pending(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    out = []
    for gi, g in enumerate(brief.sources):
        for pj, pid in enumerate(g.confirmed_pending):
            anchor = kb.history.anchor(pid, brief.topic, key)
            if anchor is not None and pid in kb.papers:
                out.append(
                    _finding(
                        key,
                        f"confirmed-pending/{pid}",
                        "confirmed-pending",
                        ("sources", gi, "confirmed_pending", pj),
                        f"source {gi + 1} ({g.title}) says {kb.papers[pid].short} is still not anchored, but "
                        f"{anchor.brief} records it anchored",
                        paper=pid,
                        group=gi + 1,
                        anchor_brief=anchor.brief,
                    )
                )
    return out


def origins(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    """Text that says which earlier brief an item came from, checked against the history."""
    claims: dict[str, list[tuple[dt.date, KeyPath]]] = {}
    for i, inc in enumerate(brief.increments):
        for j, rel in enumerate(inc.relations):
            if rel.origin is not None:
                for p in rel.papers:
                    claims.setdefault(p, []).append((rel.origin, ("increments", i, "relations", j, "origin")))
    for i, entry in enumerate(brief.carried):
        if entry.origin is not None:
            claims.setdefault(entry.paper, []).append((entry.origin, ("carried", i, "origin")))
    out = []
    for pid, said in claims.items():
        dates = sorted({d for d, _ in said})
        first = kb.history.first_seen(pid)
        wrong = [d for d in dates if not _brief_names(kb, brief.topic, d, pid)]
        if len(dates) < 2 and not wrong:
            continue
        shown = "、".join(f"{d.month}-{d.day}" for d in dates)
        out.append(
            _finding(
                key,
                f"origin/{pid}",
                "origin",
                said[0][1],
                f"{_short(kb.papers, pid)} is said to come from the brief(s) of "
                f"{', '.join(d.isoformat() for d in dates)}; "
                f"first seen in {first.brief if first else '?'}",
                paper=pid,
                said=shown,
                first=first.brief if first else "",
                partial="1" if any(_is_partial(kb, brief.topic, d) for d in wrong) else "",
            )
        )
    return out


def _brief_names(kb: KnowledgeBase, topic: str, day: dt.date, paper: str) -> bool:
    return any(s.date == day and kb.briefs[s.brief].topic == topic for s in kb.history.by_paper.get(paper, ()))


def _is_partial(kb: KnowledgeBase, topic: str, day: dt.date) -> bool:
    return any(kb.briefs[k].date == day and kb.briefs[k].reconstructed for k in kb.by_topic.get(topic, ()))
