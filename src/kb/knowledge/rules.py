"""Cross-record rules: references, duplicates and history that no single file can check."""

from __future__ import annotations

import datetime as dt
from typing import Iterator

from kb.data.diagnostics import Diagnostic, Severity, format_keypath
from kb.data.models import STATUS_RANK, Brief, Section, Status


def _diag(kb, kind: str, key: str, keypath: tuple, message: str, code: str) -> Diagnostic:
    src = kb.sources[(kind, key)]
    line, col = src.located.value_where(keypath)
    return Diagnostic(src.path, line, col, message, key=format_keypath(keypath), code=code)


def _brief_refs(brief: Brief) -> Iterator[tuple[tuple, str, str]]:
    """(keypath, kind, value) for every reference a brief makes: kind is 'section' or 'paper'."""
    for i, inc in enumerate(brief.increments):
        for j, s in enumerate(inc.sections):
            yield ("increments", i, "sections", j), "section", s
        for j, p in enumerate(inc.papers):
            yield ("increments", i, "papers", j), "paper", p
        for j, r in enumerate(inc.relations):
            if r.section:
                yield ("increments", i, "relations", j, "section"), "section", r.section
            for k, p in enumerate(r.papers):
                yield ("increments", i, "relations", j, "papers", k), "paper", p
        for j, sg in enumerate(inc.suggested):
            yield ("increments", i, "suggested", j, "section"), "section", sg.section
    for i, adj in enumerate(brief.adjacent):
        for j, s in enumerate(adj.sections):
            yield ("adjacent", i, "sections", j), "section", s
        for j, p in enumerate(adj.papers):
            yield ("adjacent", i, "papers", j), "paper", p
    for i, c in enumerate(brief.candidates):
        yield ("candidates", i, "paper"), "paper", c.paper
    for i, c in enumerate(brief.claims):
        for j, p in enumerate(c.papers):
            yield ("claims", i, "papers", j), "paper", p
    for i, g in enumerate(brief.sources):
        for j, p in enumerate(g.confirmed_pending):
            yield ("sources", i, "confirmed_pending", j), "paper", p
    if brief.baseline:
        for i, label in enumerate(brief.baseline.labels):
            for j, p in enumerate(label.papers):
                yield ("baseline", "labels", i, "papers", j), "paper", p


def check(kb, dup_sections: list[tuple[str, Section, tuple]]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for tid, section, keypath in dup_sections:
        out.append(_diag(kb, "topic", tid, keypath, f"duplicate section id '{section.id}': section ids must be unique within a topic", "duplicate-section"))
    for tid, topic in kb.topics.items():
        for info in kb.sections[tid].values():
            ib = info.section.introduced_by
            if ib and ib not in kb.briefs and ib.rsplit("/", 1)[-1] not in kb.failed.get("briefs", ()):
                out.append(_diag(kb, "topic", tid, ("sections",), f"section '{info.id}' is introduced_by unknown brief '{ib}'", "unknown-brief"))

    # papers: one file per arXiv id, one paper per card number, anchors that resolve
    first_by_arxiv: dict[str, str] = {}
    first_by_card: dict[int, str] = {}
    for pid, paper in kb.papers.items():
        base = paper.arxiv_base
        if base:
            if base in first_by_arxiv:
                first = kb.sources[("paper", first_by_arxiv[base])].path
                out.append(_diag(kb, "paper", pid, ("arxiv",), f"duplicate paper: arXiv {base} already has the paper file {first}", "duplicate-paper"))
            else:
                first_by_arxiv[base] = pid
        for i, card in enumerate(paper.cards):
            if card in first_by_card and first_by_card[card] != pid:
                first = kb.sources[("paper", first_by_card[card])].path
                out.append(_diag(kb, "paper", pid, ("cards", i), f"paper_card {card} already belongs to {first}", "duplicate-card"))
            first_by_card.setdefault(card, pid)
        out.extend(_submitted_vs_id(kb, pid, paper))
        for i, anchor in enumerate(paper.anchors):
            if anchor.topic in kb.failed.get("topics", ()):
                continue  # its file is broken: reported there, once
            if anchor.topic not in kb.topics:
                out.append(_diag(kb, "paper", pid, ("anchors", i, "topic"), f"unknown topic '{anchor.topic}'; expected one of: {', '.join(kb.topics) or 'none'}", "unknown-topic"))
            elif anchor.section and kb.section(anchor.topic, anchor.section) is None:
                out.append(_diag(kb, "paper", pid, ("anchors", i, "section"), f"unknown section '{anchor.section}' in topic '{anchor.topic}'", "unknown-section"))

    for did, demo in kb.demos.items():
        for i, p in enumerate(demo.papers):
            if p not in kb.papers and p not in kb.failed.get("papers", ()):
                out.append(_diag(kb, "demo", did, ("papers", i), f"unknown paper '{p}': no data/papers/{p}.yaml", "unknown-paper"))
        for i, s in enumerate(demo.sections):
            if kb.find_section(s) is None and not kb.failed.get("topics"):
                out.append(_diag(kb, "demo", did, ("sections", i), f"unknown section '{s}'", "unknown-section"))

    for key, brief in kb.briefs.items():
        if brief.topic not in kb.topics:
            if brief.topic in kb.failed.get("topics", ()):
                continue
            out.append(_diag(kb, "brief", key, ("topic",), f"unknown topic '{brief.topic}'; expected one of: {', '.join(kb.topics) or 'none'}", "unknown-topic"))
            continue
        for keypath, kind, value in _brief_refs(brief):
            if kind == "section" and kb.section(brief.topic, value) is None and brief.topic not in kb.failed.get("topics", ()):
                out.append(_diag(kb, "brief", key, keypath, f"unknown section '{value}' in topic '{brief.topic}'", "unknown-section"))
            if kind == "paper" and value not in kb.papers and value not in kb.failed.get("papers", ()):
                out.append(_diag(kb, "brief", key, keypath, f"unknown paper '{value}': no data/papers/{value}.yaml", "unknown-paper"))
        out.extend(_window(kb, key, brief))
    out.extend(_history(kb))
    return out


def submitted_mismatch(paper) -> str | None:
    """A new-style arXiv id encodes the month of v1 (YYMM): a stated v1 date in another month
    means one of the two is wrong (the seed's SSR says v1 2026-06-17 for 2608.20359)."""
    base = paper.arxiv_base
    if not (paper.submitted and base and "/" not in base):
        return None
    yy, mm = int(base[:2]), int(base[2:4])
    if (paper.submitted.year % 100, paper.submitted.month) == (yy, mm):
        return None
    return f"v1 date {paper.submitted.isoformat()} is not in 20{yy:02d}-{mm:02d}, the month its arXiv id {base} encodes"


def _submitted_vs_id(kb, pid: str, paper) -> list[Diagnostic]:
    message = submitted_mismatch(paper)
    if message is None:
        return []
    d = _diag(kb, "paper", pid, ("submitted",), message, "submitted-vs-id")
    return [Diagnostic(d.path, d.line, d.col, d.message, d.key, Severity.WARNING, d.code)]


def _window(kb, key: str, brief: Brief) -> list[Diagnostic]:
    out = []
    w = brief.window
    if w.end <= w.start:
        out.append(_diag(kb, "brief", key, ("window", "end"), f"window ends ({w.end.isoformat()}) before it starts ({w.start.isoformat()})", "window"))
        return out
    tz = w.end.tzinfo
    start_day, end_day = w.start.astimezone(tz).date(), w.end.astimezone(tz).date()
    if not (start_day <= brief.date <= end_day):
        out.append(_diag(kb, "brief", key, ("date",), f"brief date {brief.date.isoformat()} is outside its window {w.start.isoformat()} → {w.end.isoformat()}", "window"))
    slack = dt.timedelta(hours=1)
    if not (w.start <= brief.generated_at <= w.end + slack):
        out.append(_diag(kb, "brief", key, ("generated_at",), f"generated_at {brief.generated_at.isoformat()} is outside the window {w.start.isoformat()} → {w.end.isoformat()}", "window"))
    return out


def _history(kb) -> list[Diagnostic]:
    """Status only moves forward (NET-new → pending → anchored) across a topic's briefs;
    one brief gives one status per paper; "anchored" needs the paper file's anchor."""
    out = []
    for topic, keys in kb.by_topic.items():
        best: dict[str, tuple[Status, str]] = {}
        for key in keys:
            brief = kb.briefs[key]
            items = [(("increments", i, "status"), p, inc.status) for i, inc in enumerate(brief.increments) for p in inc.papers]
            items += [(("candidates", i, "status"), c.paper, c.status) for i, c in enumerate(brief.candidates)]
            here: dict[str, Status] = {}
            for keypath, pid, status in items:
                paper = kb.papers.get(pid)
                if paper is None:
                    continue  # reported as an unknown paper
                if pid in here and here[pid] is not status:
                    out.append(_diag(kb, "brief", key, keypath,
                                     f"{paper.short} is listed twice in this brief, as {here[pid].value} and as {status.value}",
                                     "status-conflict"))
                    continue
                here[pid] = status
                if status is Status.anchored and kb.anchor_of(paper, topic, brief.date) is None:
                    out.append(_diag(kb, "brief", key, keypath,
                                     f"this brief marks {paper.short} anchored, but data/papers/{pid}.yaml has no anchor in "
                                     f"{topic} on or before {brief.date.isoformat()} (add anchors: [{{topic: {topic}, since: …}}])",
                                     "status-anchor"))
                    continue
                anchor = kb.anchor_of(paper, topic)
                if anchor and anchor.since < brief.date and status is not Status.anchored:
                    out.append(_diag(kb, "brief", key, keypath,
                                     f"status going backwards: {paper.short} is anchored in {topic} since {anchor.since.isoformat()}, "
                                     f"but this brief marks it {status.value}", "status-backwards"))
                    continue
                prev = best.get(pid)
                if prev and STATUS_RANK[status] < STATUS_RANK[prev[0]]:
                    out.append(_diag(kb, "brief", key, keypath,
                                     f"status going backwards: {paper.short} was {prev[0].value} in {prev[1]}, "
                                     f"but this brief marks it {status.value}", "status-backwards"))
                    continue
                best[pid] = (status, key)
    return out
