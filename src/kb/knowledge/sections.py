"""The living document's sections as views: which papers are anchored in each section, every
anchoring a brief recorded there over time, and which items wait to be anchored there.  Computed
once per knowledge base (:func:`kb.knowledge.derived.memo`) and read by any page that shows a
section (the living document's sections, the section timelines)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from kb.knowledge.backlog import PendingItem, pending_items
from kb.knowledge.derived import memo
from kb.knowledge.history import AnchorRecord
from kb.knowledge.index import KnowledgeBase


def anchored_by_section(kb: KnowledgeBase, topic: str) -> Mapping[str | None, tuple[AnchorRecord, ...]]:
    """Section id (None: no known section) -> the current anchor records of the papers anchored
    there, a paper anchored in several sections under each, oldest known first, then by name."""

    def compute() -> dict[str | None, tuple[AnchorRecord, ...]]:
        out: dict[str | None, list[AnchorRecord]] = {}
        for rec in kb.anchored_in(topic):
            for sid in _listed_under(kb, topic, rec):
                out.setdefault(sid, []).append(rec)
        return {
            sid: tuple(sorted(recs, key=lambda r: (r.known_by, kb.papers[r.paper].short.lower())))
            for sid, recs in out.items()
        }

    return memo(kb, ("anchored", topic), compute)


def pending_by_section(kb: KnowledgeBase, topic: str) -> Mapping[str, tuple[PendingItem, ...]]:
    """Section id -> the items suggested for it that still wait to be anchored, oldest first."""

    def compute() -> dict[str, tuple[PendingItem, ...]]:
        out: dict[str, list[PendingItem]] = {}
        for item in pending_items(kb, topic):
            for sid in dict.fromkeys(item.sections):
                out.setdefault(sid, []).append(item)
        return {sid: tuple(items) for sid, items in out.items()}

    return memo(kb, ("pending by section", topic), compute)


def anchorings_by_section(kb: KnowledgeBase, topic: str) -> Mapping[str | None, tuple[AnchorRecord, ...]]:
    """Section id (None: no known section) -> every anchoring the topic's briefs record there, the
    current ones and those a later brief superseded (a paper anchored again on another day is listed
    at each day, one moved to another section under both), by date (:attr:`AnchorRecord.known_by`),
    then by the recording brief's rank, then by name.  A brief restating an anchoring of the same
    day in the same section adds nothing: the earliest record of it stands."""

    def compute() -> dict[str | None, tuple[AnchorRecord, ...]]:
        out: dict[str | None, dict[tuple[str, dt.date], AnchorRecord]] = {}
        order = kb.history.order
        for paper in kb.papers:
            for rec in kb.history.anchors.get(paper, ()):
                if rec.topic != topic:
                    continue
                for sid in _listed_under(kb, topic, rec):
                    out.setdefault(sid, {}).setdefault((rec.paper, rec.known_by), rec)
        return {
            sid: tuple(
                sorted(recs.values(), key=lambda r: (r.known_by, order[r.brief], kb.papers[r.paper].short.lower()))
            )
            for sid, recs in out.items()
        }

    return memo(kb, ("anchorings", topic), compute)


def _listed_under(kb: KnowledgeBase, topic: str, rec: AnchorRecord) -> list[str | None]:
    """The sections of the topic an anchoring is listed under: those it names that the living
    document has, or None (no known section)."""
    return [sid for sid in rec.sections if kb.section(topic, sid)] or [None]
