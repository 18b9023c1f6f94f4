"""The living document's update log (更新标注), derived from the briefs' anchorings.

A brief that anchors a paper (an increment or a candidate with ``status: anchored``) records the
document's update of that date: the log gets a label for the paper, named by its short name.  The
topic file's ``updates:`` holds only what no brief records: the author's label text where it
differs (a label naming papers stands for them), labels without a paper, and the citation count.
Nothing is typed twice: an anchored paper is no longer named again in ``updates:``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from kb.knowledge.derived import memo
from kb.knowledge.index import KnowledgeBase


@dataclass(frozen=True)
class LogLabel:
    text: str
    papers: tuple[str, ...]
    derived: bool  # made from a brief's anchoring, not typed in the topic file


@dataclass(frozen=True)
class LogEntry:
    date: dt.date
    labels: tuple[LogLabel, ...]
    citations: int | None
    approx: bool
    briefs: tuple[str, ...]  # the briefs whose anchorings made its derived labels


def update_log(kb: KnowledgeBase, topic: str) -> tuple[LogEntry, ...]:
    """The topic's update log, oldest first: the typed entries merged with the anchorings of each date."""
    return memo(kb, ("update-log", topic), lambda: _update_log(kb, topic))


def _update_log(kb: KnowledgeBase, topic: str) -> tuple[LogEntry, ...]:
    top = kb.topics.get(topic)
    typed = {u.date: u for u in top.updates} if top else {}
    anchored: dict[dt.date, list[tuple[str, str]]] = {}  # date -> (paper, brief), in paper order
    for pid in kb.papers:
        rec = kb.history.first_anchor(pid, topic)
        if rec is not None and rec.since is not None:  # a carried entry's undated anchoring has no date to log
            anchored.setdefault(rec.since, []).append((pid, rec.brief))
    out = []
    for day in sorted(set(typed) | set(anchored)):
        u = typed.get(day)
        labels = [LogLabel(lb.text, tuple(lb.papers), False) for lb in (u.labels if u else [])]
        named = {pid for lb in labels for pid in lb.papers}
        made = [(pid, key) for pid, key in anchored.get(day, []) if pid not in named]
        labels += [LogLabel(kb.papers[pid].short, (pid,), True) for pid, _ in made]
        out.append(
            LogEntry(
                day,
                tuple(labels),
                u.citations if u else None,
                bool(u and u.citations_approx),
                tuple(dict.fromkeys(key for _, key in made)),
            )
        )
    return tuple(out)
