"""A brief's stated figures, source groups, citable list, categories and window, checked
against what the knowledge base computes."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from kb.data.diagnostics import KeyPath
from kb.data.models import Brief, Status
from kb.knowledge.figures import agrees, agrees_net_new
from kb.knowledge.finding import Finding
from kb.knowledge.finding import brief_finding as _finding
from kb.knowledge.finding import short_name as _short
from kb.knowledge.findings.history import carried, confirmed_pending, origins, statuses

if TYPE_CHECKING:
    from kb.knowledge.figures import BriefFigures
    from kb.knowledge.index import KnowledgeBase


def brief_findings(kb: KnowledgeBase, key: str) -> list[Finding]:
    brief, f = kb.briefs[key], kb.figures[key]
    out: list[Finding] = []
    for check in (_stated, _groups, _citable, carried, statuses, confirmed_pending, origins, _categories, _window):
        out.extend(check(kb, key, brief, f))
    # a paper id the knowledge base does not know is the unknown-paper error's to say: a typo is
    # nothing to acknowledge (as an extra carried-over item, a wrong origin, ...)
    return [x for x in out if "paper" not in x.params or x.params["paper"] in kb.papers]


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
        if name == "net_new" and stated is not None and agrees_net_new(f, stated):
            continue  # counting a promoted adjacent item as NET-new (or not) is the team's convention
        if stated is not None and not agrees(stated, computed, f.partial):
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
        which = [i for i, st in enumerate(f.statuses, 1) if st is Status.net_new]
        return f": {_numbered(which)} {'is' if len(which) <= 1 else 'are'} first seen in this brief and not anchored"
    if name == "adjacent_ingested":
        items = f.ingested_items
        whose, have = ("the papers of", "have") if len(items) > 1 else ("the paper of", "has")
        return f": {whose} {_numbered(items)} {have} a paper_card under another primary category"
    if name == "arxiv_net_new":
        ids = f.net_new_ids
        return f": {', '.join(ids)} {'is' if len(ids) == 1 else 'are'} first seen in this brief" if ids else ""
    return ""


def _numbered(items: list[int]) -> str:
    """``increment 2``, ``increments 1, 3``, ``no increment``: increments by their number."""
    if not items:
        return "no increment"
    return ("increment " if len(items) == 1 else "increments ") + ", ".join(map(str, items))


def _why_params(name: str, brief: Brief, f: BriefFigures) -> dict[str, object]:
    if name == "net_new":
        return {
            "items": "、".join(str(i) for i, st in enumerate(f.statuses, 1) if st is Status.net_new) or "—",
            "ingested": brief.stated.adjacent_ingested if brief.stated.adjacent_ingested is not None else "",
        }
    if name == "adjacent_ingested":
        return {"items": "、".join(map(str, f.ingested_items)) or "—"}
    if name == "arxiv_net_new":
        return {"ids": "、".join(f.net_new_ids) or "—"}
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
        if stated is None or agrees(stated, computed, pf.partial):
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
                    f"{_short(kb.papers, pid)} is put in different categories: {', '.join(distinct)}",
                    paper=pid,
                    categories="、".join(distinct),
                    primary=primary or "",
                )
            )
    return out


_ABOUT_HOURS = re.compile(r"(\d+(?:\.\d+)?)\s*h")


def _window(kb: KnowledgeBase, key: str, brief: Brief, f: BriefFigures) -> list[Finding]:
    w = brief.window
    m = _ABOUT_HOURS.search(w.note or "") if w is not None else None
    if not m or w is None:
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
