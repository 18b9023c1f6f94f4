"""The claims' lifecycle, in process: raised with an id, updated, resolved or dropped by a
later brief of the same topic; every misuse of an id is a problem with its place."""

from __future__ import annotations

from briefs import brief, keyed

from kb.knowledge.claims import build_claims


def claim(cid: str, priority: str | None = None, **fields: object) -> dict[str, object]:
    out: dict[str, object] = {"id": cid, "title": f"title of {cid}", **fields}
    if priority:
        out["priority"] = priority
    return out


def upd(cid: str, action: str, priority: str | None = None) -> dict[str, object]:
    out: dict[str, object] = {"claim": cid, "action": action, "note": f"{action} {cid}"}
    if priority:
        out["priority"] = priority
    return out


def test_raised_claims_are_open_with_their_place_and_priority():
    b1 = brief("2026-09-01", claims=[claim("a", "P2"), claim("b")])
    claims = build_claims(*keyed(b1))
    a, b = claims.get("inference", "a"), claims.get("inference", "b")
    assert a is not None and b is not None
    assert (a.brief, a.index, a.date.isoformat(), a.topic) == ("inference/2026-09-01-e1", 1, "2026-09-01", "inference")
    assert (b.index, b.priority, b.priority_rank) == (2, None, 9)
    assert (a.priority, a.priority_rank) == ("P2", 2)
    assert a.open and b.open and a.closed_by is None and a.events == []
    assert claims.ids("inference") == ["a", "b"] and claims.ids("other") == []
    assert [s.claim.id for s in claims.of_brief("inference/2026-09-01-e1")] == ["a", "b"]
    assert claims.problems == []


def test_updates_change_the_priority_and_resolving_or_dropping_closes():
    b1 = brief("2026-09-01", claims=[claim("a", "P2"), claim("b", "P1"), claim("c", "P3")])
    b2 = brief("2026-09-02", claim_updates=[upd("a", "updated", "P0"), upd("b", "resolved")])
    b3 = brief("2026-09-03", claim_updates=[upd("c", "dropped"), upd("a", "updated")])
    claims = build_claims(*keyed(b1, b2, b3))
    a, b, c = (claims.get("inference", x) for x in "abc")
    assert a and b and c
    assert a.open and a.priority == "P0" and a.priority_rank == 0  # the latest priority given
    assert [e.brief for e in a.events] == ["inference/2026-09-02-e1", "inference/2026-09-03-e1"]
    assert [e.date.isoformat() for e in a.events] == ["2026-09-02", "2026-09-03"]
    assert not b.open and b.closed_by is not None and b.closed_by.brief == "inference/2026-09-02-e1"
    assert not c.open and c.closed_by is not None and c.closed_by.update.action.value == "dropped"
    assert [s.claim.id for s in claims.open_claims()] == ["a"]
    assert claims.problems == []


def test_open_claims_by_priority_then_date_then_place():
    b1 = brief("2026-09-01", claims=[claim("late"), claim("p1", "P1"), claim("none")])
    b2 = brief("2026-09-02", claims=[claim("p0", "P0"), claim("p1b", "P1")])
    claims = build_claims(*keyed(b1, b2))
    assert [s.claim.id for s in claims.open_claims()] == ["p0", "p1", "p1b", "late", "none"]


def test_an_adjacent_item_lends_its_priority_to_the_claim_it_names():
    b1 = brief(
        "2026-09-01",
        claims=[claim("deal")],
        adjacent=[
            {"title": "x", "text": "y", "origin": "o", "value": 3, "priority": "P0", "claim": "deal"},
            {"title": "x2", "text": "y", "origin": "o", "value": 3, "priority": "P3", "claim": "deal"},
        ],
    )
    state = build_claims(*keyed(b1)).get("inference", "deal")
    assert state is not None and state.linked_priority == "P0" and state.priority == "P0"
    b2 = brief("2026-09-02", claim_updates=[upd("deal", "updated", "P2")])
    state = build_claims(*keyed(b1, b2)).get("inference", "deal")
    assert state is not None and state.priority == "P2"  # an update's priority comes first


def test_misused_ids_are_problems_with_their_place():
    b1 = brief("2026-09-01", claims=[claim("a"), claim("a"), claim("b")], claim_updates=[upd("b", "updated")])
    b2 = brief("2026-09-02", claims=[claim("b")], claim_updates=[upd("a", "resolved"), upd("zz", "updated")])
    b3 = brief("2026-09-03", claim_updates=[upd("a", "updated")])
    claims = build_claims(*keyed(b1, b2, b3))
    got = [(p.brief, p.keypath, p.kind, p.claim, p.other) for p in claims.problems]
    assert got == [
        ("inference/2026-09-01-e1", ("claims", 1, "id"), "duplicate", "a", "inference/2026-09-01-e1"),
        ("inference/2026-09-01-e1", ("claim_updates", 0, "claim"), "same-brief", "b", None),
        ("inference/2026-09-02-e1", ("claims", 0, "id"), "duplicate", "b", "inference/2026-09-01-e1"),
        ("inference/2026-09-02-e1", ("claim_updates", 1, "claim"), "unknown", "zz", None),
        ("inference/2026-09-03-e1", ("claim_updates", 0, "claim"), "closed", "a", "inference/2026-09-02-e1"),
    ]
    a = claims.get("inference", "a")
    assert a is not None and [e.brief for e in a.events] == ["inference/2026-09-02-e1"]  # the later one is refused
    b = claims.get("inference", "b")
    assert b is not None and b.events == [] and b.brief == "inference/2026-09-01-e1"


def test_claims_are_per_topic():
    b1 = brief("2026-09-01", claims=[claim("a")])
    b2 = brief("2026-09-02", topic="rag", claims=[claim("a")], claim_updates=[])
    b3 = brief("2026-09-03", topic="rag", claim_updates=[upd("a", "resolved")])
    claims = build_claims(*keyed(b1, b2, b3))
    assert claims.problems == []
    inf, rag = claims.get("inference", "a"), claims.get("rag", "a")
    assert inf and rag and inf.open and not rag.open
    b4 = brief("2026-09-04", claim_updates=[upd("a", "dropped")])
    b5 = brief("2026-09-05", topic="rag", claim_updates=[upd("b", "updated")])
    claims = build_claims(*keyed(b1, b4, b5))
    assert [(p.kind, p.claim) for p in claims.problems] == [("unknown", "b")]
