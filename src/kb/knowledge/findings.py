"""Findings: where what a record states differs from what the knowledge base
computes, or where the record disagrees with itself or with the history.

A finding is not an error: the author's words stay on the page as written and
the finding stands beside them.  Each has a stable ``code`` (unique within its
file) so the file can acknowledge it (``acknowledged: [{finding: code, reason}]``):
an acknowledged finding is still shown but no longer fails ``kb validate
--strict``.  Messages here are for contributors (English); the site shows the
same finding in Chinese from the renderers' message catalogue, using ``params``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kb.data.models import Brief, Status

if TYPE_CHECKING:
    from kb.knowledge.figures import BriefFigures
    from kb.knowledge.index import KnowledgeBase

KeyPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Finding:
    owner: str  # "brief" | "paper" | "topic"
    key: str  # brief key, paper id or topic id
    code: str  # stable within the file, e.g. "stated/net_new", "origin/tokenflow"
    kind: str  # the message's kind, e.g. "stated", "origin" (the catalogue's key)
    keypath: KeyPath
    message: str  # for contributors (English)
    params: dict[str, str] = field(default_factory=dict)  # for the site's message


def brief_findings(kb: KnowledgeBase, key: str) -> list[Finding]:
    brief, f = kb.briefs[key], kb.figures[key]
    out: list[Finding] = []
    for check in (_stated, _groups, _citable, _carried, _statuses, _confirmed_pending, _origins, _categories, _window):
        out.extend(check(kb, key, brief, f))
    return out


def _finding(key: str, code: str, kind: str, keypath: KeyPath, message: str, **params: object) -> Finding:
    return Finding("brief", key, code, kind, keypath, message, {k: str(v) for k, v in params.items()})


def _stated(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    s = brief.stated
    out = []
    pairs = (
        ("increments", s.increments, f.increments, "main increments"),
        ("net_new", s.net_new, f.net_new, "NET-new increments"),
        ("adjacent_ingested", s.adjacent_ingested, f.adjacent_ingested, "increments ingested as adjacent paper cards"),
        ("adjacent", s.adjacent, f.adjacent, "adjacent prep items"),
        ("arxiv_net_new", s.arxiv_net_new, len(f.net_new_ids), "net-new arXiv ids"),
        ("carried_over", s.carried_over, len(f.carried), "carried-over items"),
    )
    for name, stated, computed, what in pairs:
        if stated is not None and stated != computed and not (f.partial and computed < stated):
            out.append(
                _finding(
                    key,
                    f"stated/{name}",
                    f"stated/{name}",
                    ("stated", name),
                    f"the brief states {stated} {what}; computed {computed}{_why(name, brief, f)}",
                    stated=stated,
                    computed=computed,
                    **_why_params(name, brief, f),
                )
            )
    listed = f.sources_listed
    if s.sources_checked_min is not None and listed < s.sources_checked_min:
        out.append(
            _finding(
                key,
                "stated/sources",
                "stated/sources",
                ("stated", "sources_checked_min"),
                f"the brief states {s.sources_checked_min}+ sources checked; its lists name {listed} distinct files",
                stated=s.sources_checked_min,
                computed=listed,
            )
        )
    if s.sources_breakdown and s.sources_checked_min is not None:
        total = sum(c.count for c in s.sources_breakdown)
        if total < s.sources_checked_min:
            out.append(
                _finding(
                    key,
                    "stated/sources_breakdown",
                    "stated/sources_breakdown",
                    ("stated", "sources_breakdown"),
                    f"the brief states {s.sources_checked_min}+ sources checked, but its breakdown adds up to {total} "
                    f"(the source lists name {listed} distinct files)",
                    stated=s.sources_checked_min,
                    total=total,
                    listed=listed,
                )
            )
    out.extend(_previous(kb, key, brief, f))
    return out


def _why(name: str, brief: Brief, f: BriefFigures) -> str:
    if name == "net_new":
        items = ", ".join(str(i) for i, st in enumerate(f.statuses, 1) if st is Status.net_new) or "none"
        return f" (increments first seen in this brief and not anchored: {items})"
    if name == "adjacent_ingested":
        items = ", ".join(map(str, f.ingested_items)) or "none"
        return f" (increments whose paper has a card under another primary category: {items})"
    return ""


def _why_params(name: str, brief: Brief, f: BriefFigures) -> dict[str, object]:
    if name == "net_new":
        return {
            "items": "、".join(str(i) for i, st in enumerate(f.statuses, 1) if st is Status.net_new) or "—",
            "ingested": brief.stated.adjacent_ingested if brief.stated.adjacent_ingested is not None else "",
        }
    if name == "adjacent_ingested":
        return {"items": "、".join(map(str, f.ingested_items)) or "—"}
    return {}


def _previous(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    if f.previous is None:
        return []
    pf = kb.figures[f.previous]
    out = []
    for name, stated, computed, what in (
        ("previous_increments", brief.stated.previous_increments, pf.increments, "main increments"),
        ("previous_adjacent", brief.stated.previous_adjacent, pf.adjacent, "adjacent prep items"),
    ):
        if stated is None or stated == computed or (pf.partial and computed < stated):
            continue  # a reconstructed previous brief only gives a lower bound: shown as partially known
        out.append(
            _finding(
                key,
                f"stated/{name}",
                "stated/previous",
                ("stated", name),
                f"the brief states {stated} {what} for the previous brief ({f.previous}); computed {computed}",
                stated=stated,
                computed=computed,
                previous=f.previous,
            )
        )
    return out


def _groups(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    out = []
    tallies = {t.group: t for t in f.cards}
    for i, g in enumerate(brief.sources):
        t = tallies.get(i)
        st = g.stated
        computed = {
            "cards": t.total if t else 0,
            "cards_in_topic": len(t.in_topic) if t else 0,
            "cards_adjacent": len(t.adjacent) if t else 0,
        }
        for name in ("cards", "cards_in_topic", "cards_adjacent"):
            stated = getattr(st, name)
            if stated is not None and stated != computed[name]:
                repeats = "、".join(f"{a}={b}" for a, b in t.repeats) if t else ""
                out.append(
                    _finding(
                        key,
                        f"sources/{i + 1}/{name}",
                        f"group/{name}",
                        ("sources", i, "stated", name),
                        f"source {i + 1} ({g.title}) states {stated} for {name}; its card list gives {computed[name]}",
                        stated=stated,
                        computed=computed[name],
                        group=i + 1,
                        repeats=repeats,
                    )
                )
        if g.cards_window is not None:
            out.extend(_range(key, i, g.cards_window.label, g.cards_window.start, g.cards_window.end))
    return out


_RANGE_LABEL = re.compile(r"(\d+)\s*(?:日|天|days?)")


def _range(key: str, group: int, label: str, start: dt.date, end: dt.date) -> list[Finding]:
    m = _RANGE_LABEL.search(label)
    if not m:
        return []
    said, days = int(m.group(1)), (end - start).days + 1
    if said == days:
        return []
    return [
        _finding(
            key,
            f"sources/{group + 1}/range",
            "range",
            ("sources", group, "cards_window", "label"),
            f"'{label}' but {start.isoformat()} → {end.isoformat()} spans {days} calendar days",
            label=label,
            start=start.isoformat(),
            end=end.isoformat(),
            days=days,
        )
    ]


def _citable(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    if not brief.citable:
        return []
    out = []
    listed = [c.paper for c in brief.citable]
    for pid in f.net_new_papers:
        if pid not in listed:
            out.append(
                _finding(
                    key,
                    f"citable/missing/{pid}",
                    "citable/missing",
                    ("citable",),
                    f"{kb.papers[pid].short} ({kb.papers[pid].arxiv_base}) is first seen in this brief "
                    "but not in its citable list",
                    paper=pid,
                )
            )
    for i, c in enumerate(brief.citable):
        if c.paper in kb.papers and c.paper not in f.net_new_papers:
            first = kb.history.first_seen(c.paper)
            out.append(
                _finding(
                    key,
                    f"citable/not-new/{c.paper}",
                    "citable/not-new",
                    ("citable", i, "paper"),
                    f"{kb.papers[c.paper].short} is listed as citable NET-new, "
                    f"but it was first seen in {first.brief if first else '?'}",
                    paper=c.paper,
                    first=first.brief if first else "",
                )
            )
    return out


def _carried(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    if not brief.carried:
        return []
    out = []
    computed = {c.paper: c for c in f.carried}
    for i, entry in enumerate(brief.carried):
        c = computed.get(entry.paper)
        if c is None:
            out.append(
                _finding(
                    key,
                    f"carried/extra/{entry.paper}",
                    "carried/extra",
                    ("carried", i, "paper"),
                    f"the brief carries {entry.paper} over, but it was not pending after the previous brief",
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
    for c in f.carried:
        if c.paper not in listed:
            out.append(
                _finding(
                    key,
                    f"carried/missing/{c.paper}",
                    "carried/missing",
                    ("carried",),
                    f"{c.paper} is still pending after the previous brief but is not in the brief's carried-over list",
                    paper=c.paper,
                )
            )
    return out


def _statuses(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    from kb.knowledge.figures import paper_status
    from kb.knowledge.history import status_entries

    out = []
    seen: set[str] = set()
    for e in status_entries(key, brief):
        if e.status is Status.anchored or e.paper in seen or e.paper not in kb.papers:
            continue
        computed = paper_status(kb.history, e.paper, key, brief.topic)
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
                    + (f" (first seen in {first.brief}, {first.kind})" if first and first.brief != key else ""),
                    paper=e.paper,
                    stated=e.status.value,
                    computed=computed.value,
                    first=first.brief if first else "",
                    first_kind=first.kind if first else "",
                )
            )
    return out


def _confirmed_pending(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
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


def _origins(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
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
                f"{_short(kb, pid)} is said to come from the brief(s) of {', '.join(d.isoformat() for d in dates)}; "
                f"first seen in {first.brief if first else '?'}",
                paper=pid,
                said=shown,
                first=first.brief if first else "",
                partial="1" if any(_is_partial(kb, brief.topic, d) for d in wrong) else "",
            )
        )
    return out


def _short(kb: KnowledgeBase, pid: str) -> str:
    paper = kb.papers.get(pid)
    return paper.short if paper else pid


def _brief_names(kb: KnowledgeBase, topic: str, day: dt.date, paper: str) -> bool:
    return any(s.date == day and kb.briefs[s.brief].topic == topic for s in kb.history.by_paper.get(paper, ()))


def _is_partial(kb: KnowledgeBase, topic: str, day: dt.date) -> bool:
    return any(kb.briefs[k].date == day and kb.briefs[k].reconstructed for k in kb.by_topic.get(topic, ()))


def _categories(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    said: dict[str, list[tuple[str, KeyPath]]] = {}
    for gi, g in enumerate(brief.sources):
        for fi, fl in enumerate(g.files):
            for ci, c in enumerate(fl.classifies):
                said.setdefault(c.paper, []).append(
                    (c.category, ("sources", gi, "files", fi, "classifies", ci, "category"))
                )
        for card in g.cards:
            paper = kb.paper_for(card.arxiv) if card.arxiv else None
            if paper is not None and card.category:
                said.setdefault(paper.id, []).append((card.category, ("sources", gi, "cards")))
    out = []
    for pid, cats in said.items():
        paper = kb.papers.get(pid)
        primary = paper.category.primary if paper and paper.category else None
        distinct = sorted({c for c, _ in cats} | ({primary} if primary else set()))
        disagree = [c for c, _ in cats if primary and primary not in c.split("/")]
        if disagree or (primary is None and len(distinct) > 1):
            out.append(
                _finding(
                    key,
                    f"category/{pid}",
                    "category",
                    cats[0][1],
                    f"{_short(kb, pid)} is put in different categories: {', '.join(distinct)}",
                    paper=pid,
                    categories="、".join(distinct),
                    primary=primary or "",
                )
            )
    return out


_ABOUT_HOURS = re.compile(r"(\d+(?:\.\d+)?)\s*h")


def _window(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    w = brief.window
    m = _ABOUT_HOURS.search(w.note or "")
    if not m:
        return []
    said, hours = float(m.group(1)), (w.end - w.start).total_seconds() / 3600
    if abs(hours - said) <= max(1.0, said * 0.1):
        return []
    return [
        _finding(
            key,
            "window/note",
            "window",
            ("window", "note"),
            f"the window note says {w.note} but the window is {hours:g} hours long",
            note=w.note or "",
            hours=f"{hours:g}",
        )
    ]


# --------------------------------------------------------------------------- papers and topics


def paper_findings(kb: KnowledgeBase, pid: str) -> list[Finding]:
    """A stated v1 date outside the month a new-style arXiv id encodes (the seed's SSR)."""
    paper = kb.papers[pid]
    base = paper.arxiv_base
    if not (paper.submitted and base and "/" not in base):
        return []
    yy, mm = int(base[:2]), int(base[2:4])
    if (paper.submitted.year % 100, paper.submitted.month) == (yy, mm):
        return []
    month = f"20{yy:02d}-{mm:02d}"
    return [
        Finding(
            "paper",
            pid,
            "submitted-vs-id",
            "submitted-vs-id",
            ("submitted",),
            f"v1 date {paper.submitted.isoformat()} is not in {month}, the month its arXiv id {base} encodes",
            {"submitted": paper.submitted.isoformat(), "month": month, "arxiv": base},
        )
    ]


def topic_findings(kb: KnowledgeBase, tid: str) -> list[Finding]:
    """The living document's update log: labels naming papers no brief records as anchored by
    then, and a log older than anchorings recorded since (a stale baseline)."""
    topic = kb.topics[tid]
    out = []
    for ui, update in enumerate(topic.updates):
        for li, label in enumerate(update.labels):
            for pj, pid in enumerate(label.papers):
                rec = kb.history.first_anchor(pid, tid)
                if pid in kb.papers and (rec is None or rec.known_by > update.date):
                    out.append(
                        Finding(
                            "topic",
                            tid,
                            f"update-label/{update.date.isoformat()}/{pid}",
                            "update-label",
                            ("updates", ui, "labels", li, "papers", pj),
                            f"the update label '{label.text}' of {update.date.isoformat()} names "
                            f"{kb.papers[pid].short}, which no brief records as anchored by then",
                            {"label": label.text, "date": update.date.isoformat(), "paper": pid},
                        )
                    )
    if topic.updates:
        last = topic.updates[-1]
        # a paper's first anchoring only: later briefs repeating "已锚入" change nothing
        later = sorted(
            {
                r.paper
                for r in (kb.history.first_anchor(p, tid) for p in kb.history.anchors)
                if r is not None and r.paper in kb.papers and r.recorded_on > last.date
            }
        )
        if later:
            out.append(
                Finding(
                    "topic",
                    tid,
                    "updates/stale",
                    "stale-baseline",
                    ("updates", len(topic.updates) - 1, "date"),
                    f"the update log ends on {last.date.isoformat()}, but briefs record papers anchored since "
                    f"({', '.join(later)}): add an entry to updates: with the new labels and citation count",
                    {"date": last.date.isoformat(), "papers": "、".join(later)},
                )
            )
    return out
