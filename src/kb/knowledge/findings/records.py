"""Paper files and topics' update logs, checked against the ids and the history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.knowledge.finding import Finding

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
    then.  (Anchorings recorded after the log's last entry need no entry: the log is derived from
    them, kb.knowledge.updatelog.)"""
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
    return out
