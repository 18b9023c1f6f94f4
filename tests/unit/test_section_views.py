"""The section views of the knowledge layer (kb.knowledge.sections): every anchored paper under each
of its known sections, every pending item under each section it is suggested for, computed once per
knowledge base and dropped with it."""

from __future__ import annotations

from kb.knowledge.backlog import pending_items
from kb.knowledge.load import load_kb
from kb.knowledge.sections import anchored_by_section, pending_by_section
from sitebuild import FIXTURE_DATA


def test_each_anchored_paper_is_under_each_of_its_known_sections_and_nowhere_else():
    kb = load_kb(FIXTURE_DATA)
    for topic in kb.topics:
        view = anchored_by_section(kb, topic)
        for rec in kb.anchored_in(topic):
            known = [sid for sid in rec.sections if kb.section(topic, sid)] or [None]
            for sid in known:
                assert rec in view[sid], (rec.paper, sid)
        listed = sum(len(recs) for recs in view.values())
        assert listed == sum(
            len([s for s in r.sections if kb.section(topic, s)] or [None]) for r in kb.anchored_in(topic)
        )
        assert view, topic  # the fixture anchors papers in every topic
        assert anchored_by_section(kb, topic) is view  # once per knowledge base


def test_pending_items_stand_under_the_sections_they_are_suggested_for():
    kb = load_kb(FIXTURE_DATA)
    for topic in kb.topics:
        view = pending_by_section(kb, topic)
        for item in pending_items(kb, topic):
            for sid in item.sections:
                assert item in view[sid]
        assert sorted((sid, i.paper) for sid, items in view.items() for i in items) == sorted(
            (sid, i.paper) for i in pending_items(kb, topic) for sid in dict.fromkeys(i.sections)
        )
    other = load_kb(FIXTURE_DATA)
    assert pending_by_section(other, next(iter(other.topics))) is not pending_by_section(kb, next(iter(kb.topics)))
