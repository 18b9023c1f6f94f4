"""Sightings, status entries and the history built from them, in process: every place a brief
names a paper (kind and key path), the one first sighting, anchors derived from briefs."""

from __future__ import annotations

import datetime as dt

from briefs import brief, increment, keyed

from kb.data.models import Status
from kb.knowledge.history import build_history, sightings, status_entries


def full_brief():
    return brief(
        "2026-09-03",
        increments=[increment(["a", "b"]), increment(["c"], "pending")],
        adjacent=[{"title": "x", "text": "y", "origin": "o", "value": 3, "papers": ["d"]}],
        candidates=[{"paper": "e"}, {"paper": "f", "status": "anchored", "anchored_in": "s1"}],
        claims=[{"id": "k", "title": "t", "papers": ["g", "h"]}],
        carried=[{"paper": "i", "status": "pending"}, {"paper": "j"}],
        citable=[{"paper": "a"}],
    )


def test_sightings_name_every_place_in_the_briefs_order():
    b = full_brief()
    got = [(s.paper, s.brief, s.date, s.kind, s.keypath) for s in sightings("t/k", b)]
    day = dt.date(2026, 9, 3)
    assert got == [
        ("a", "t/k", day, "increment", ("increments", 0, "papers", 0)),
        ("b", "t/k", day, "increment", ("increments", 0, "papers", 1)),
        ("c", "t/k", day, "increment", ("increments", 1, "papers", 0)),
        ("d", "t/k", day, "adjacent", ("adjacent", 0, "papers", 0)),
        ("e", "t/k", day, "candidate", ("candidates", 0, "paper")),
        ("f", "t/k", day, "candidate", ("candidates", 1, "paper")),
        ("g", "t/k", day, "claim", ("claims", 0, "papers", 0)),
        ("h", "t/k", day, "claim", ("claims", 0, "papers", 1)),
        ("i", "t/k", day, "carried", ("carried", 0, "paper")),
        ("j", "t/k", day, "carried", ("carried", 1, "paper")),
        ("a", "t/k", day, "citable", ("citable", 0, "paper")),
    ]


def test_status_entries_are_the_entries_that_state_a_status():
    b = full_brief()
    got = [(e.paper, e.brief, e.status, e.keypath, e.anchored_in, e.anchored_since) for e in status_entries("t/k", b)]
    assert got == [
        ("a", "t/k", Status.net_new, ("increments", 0, "status"), (), None),
        ("b", "t/k", Status.net_new, ("increments", 0, "status"), (), None),
        ("c", "t/k", Status.pending, ("increments", 1, "status"), (), None),
        ("f", "t/k", Status.anchored, ("candidates", 1, "status"), ("s1",), None),
        ("i", "t/k", Status.pending, ("carried", 0, "status"), (), None),
    ]


def test_history_orders_briefs_by_date_then_round_and_finds_the_first_sighting():
    b10 = brief("2026-09-02", round_="E10", candidates=[{"paper": "x"}])
    b2 = brief(
        "2026-09-02", round_="E2", adjacent=[{"title": "t", "text": "y", "origin": "o", "value": 1, "papers": ["x"]}]
    )
    b1 = brief("2026-09-01", topic="rag", claims=[{"id": "c", "title": "t", "papers": ["y"]}])
    b3 = brief("2026-09-03", increments=[increment(["x", "y"], "pending")])
    briefs, _ = keyed(b10, b2, b1, b3)
    h = build_history(briefs)
    ranked = sorted(h.order, key=h.order.__getitem__)
    assert ranked == [
        "rag/2026-09-01-e1",
        "inference/2026-09-02-e2",
        "inference/2026-09-02-e10",
        "inference/2026-09-03-e1",
    ]
    first_x = h.first_seen("x")
    assert first_x is not None and (first_x.brief, first_x.kind) == ("inference/2026-09-02-e2", "adjacent")
    first_y = h.first_seen("y")
    assert first_y is not None and (first_y.brief, first_y.kind) == ("rag/2026-09-01-e1", "claim")  # any topic
    assert [s.brief for s in h.by_paper["x"]] == [
        "inference/2026-09-02-e2",
        "inference/2026-09-02-e10",
        "inference/2026-09-03-e1",
    ]
    assert h.first_seen("nobody") is None


def test_a_paper_named_twice_in_one_part_of_a_brief_is_one_sighting():
    b = brief("2026-09-01", increments=[increment(["x"]), increment(["x"], "net-new")], citable=[{"paper": "x"}])
    h = build_history(keyed(b)[0])
    assert [(s.kind, s.keypath) for s in h.by_paper["x"]] == [
        ("increment", ("increments", 0, "papers", 0)),
        ("citable", ("citable", 0, "paper")),
    ]


def test_anchors_come_from_briefs_and_the_latest_record_counts():
    b1 = brief("2026-09-01", increments=[increment(["x"])])
    b2 = brief(
        "2026-09-02",
        carried=[{"paper": "x", "status": "anchored", "anchored_in": "s1", "anchored_since": "2026-08-30"}],
    )
    b3 = brief("2026-09-03", candidates=[{"paper": "x", "status": "anchored", "anchored_in": "s2"}])
    other = brief("2026-09-02", topic="rag", candidates=[{"paper": "x", "status": "anchored"}])
    h = build_history(keyed(b1, b2, b3, other)[0])
    assert h.anchor("x", "inference", "inference/2026-09-01-e1") is None
    rec = h.anchor("x", "inference", "inference/2026-09-02-e1")
    assert rec is not None and (rec.section, rec.since, rec.brief) == (
        "s1",
        dt.date(2026, 8, 30),
        "inference/2026-09-02-e1",
    )
    assert rec.recorded_on == dt.date(2026, 9, 2) and rec.known_by == dt.date(2026, 8, 30)
    assert rec.keypath == ("carried", 0, "status") and rec.topic == "inference" and rec.paper == "x"
    latest = h.anchor("x", "inference")
    # a candidate the brief anchors is anchored on the brief's date (nobody types it again)
    assert latest is not None and (latest.sections, latest.since) == (("s2",), dt.date(2026, 9, 3))
    first = h.first_anchor("x", "inference")
    assert first is not None and first.brief == "inference/2026-09-02-e1"
    rag = h.anchor("x", "rag")
    assert rag is not None and rag.section is None and rag.sections == () and rag.topic == "rag"
    assert h.first_anchor("x", "nowhere") is None and h.anchor("y", "inference") is None


def test_a_stated_anchoring_date_after_the_record_is_no_earlier_knowledge():
    b = brief("2026-09-02", candidates=[{"paper": "x", "status": "anchored", "anchored_since": "2026-09-02"}])
    rec = build_history(keyed(b)[0]).anchor("x", "inference")
    assert rec is not None and rec.known_by == dt.date(2026, 9, 2)


def test_a_carried_entry_restating_an_anchoring_gets_no_date_the_brief_did_not_state():
    b = brief("2026-09-03", carried=[{"paper": "x", "status": "anchored", "anchored_in": "head"}])
    rec = build_history(keyed(b)[0]).anchor("x", "inference")
    assert rec is not None and (rec.sections, rec.since, rec.known_by) == (("head",), None, dt.date(2026, 9, 3))


def test_one_anchoring_takes_several_sections_and_two_entries_of_one_brief_merge():
    listed = brief("2026-09-04", candidates=[{"paper": "x", "status": "anchored", "anchored_in": ["s1", "s2"]}])
    twice = brief(
        "2026-09-04",
        increments=[increment(["x"], "anchored", anchored_in="s1")],
        candidates=[{"paper": "x", "status": "anchored", "anchored_in": "s2"}, {"paper": "y", "status": "anchored"}],
    )
    for b in (listed, twice):
        h = build_history(keyed(b)[0])
        rec = h.anchor("x", "inference")
        assert rec is not None and (rec.sections, rec.section, rec.since) == (("s1", "s2"), "s1", dt.date(2026, 9, 4))
        assert len(h.anchors["x"]) == 1  # one record: neither entry dropped
