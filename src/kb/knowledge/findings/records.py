"""Paper files and topics' update logs, checked against the ids and the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.knowledge.findings.base import Finding

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


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
