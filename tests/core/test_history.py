"""A history of five briefs (tests/fixtures/kb): after next-day briefs that anchor papers,
resolve and update claims and raise a paper seen before, every view agrees — the
backlog, the living document's anchors, paper backlinks, net-new ids, carried-over
items, the claims, and the machine-readable views."""

from __future__ import annotations

import datetime as dt

from kb.data.models import Status
from kb.knowledge.backlog import pending_items
from kb.knowledge.views import api_files, paper_view

D4, D5 = "inference/2026-09-04-e1", "inference/2026-09-05-e1"


def test_first_seen_is_one_definition(sample_kb):
    h = sample_kb.history
    lm = h.first_seen("lmcache-v2")
    assert (lm.brief, lm.kind) == ("inference/2026-09-02-e1", "adjacent")  # an adjacent item counts
    assert h.first_seen("prefixpool").brief == D4
    assert h.first_seen("tokenflow").brief == "inference/2026-09-01-e1"


def test_net_new_ids_and_computed_statuses(sample_kb):
    f4 = sample_kb.figures[D4]
    assert f4.net_new_ids == ["2609.04417"]  # PrefixPool; LMCache v2 was seen on 9-2
    assert f4.statuses == [Status.net_new, Status.pending]
    assert (f4.increments, f4.net_new) == (2, 1)
    assert sample_kb.figures[D5].statuses == [Status.anchored]


def test_anchors_are_derived_from_the_briefs(sample_kb):
    h = sample_kb.history
    retro = h.anchor("retroinfer", "inference")
    assert (retro.brief, retro.section, retro.since) == (D4, "s1-3-vector-storage", dt.date(2026, 9, 4))
    meta = h.anchor("meta-llama-inference", "inference")
    # a candidate the brief anchors is anchored on the brief's date, typed nowhere
    assert (meta.brief, meta.sections, meta.since) == (D4, ("s1-1-engines",), dt.date(2026, 9, 4))
    cascade = h.anchor("cascade", "inference")
    assert (cascade.brief, cascade.section) == (D5, "s1-2-scheduling")
    assert h.anchor("retroinfer", "inference", as_of="inference/2026-09-03-e1") is None  # not yet on 9-3
    assert {r.paper for r in sample_kb.anchored_in("inference")} == {
        "flashattention-4",
        "mlcommons-mlperf-rag",
        "retroinfer",
        "meta-llama-inference",
        "cascade",
    }


def test_carried_over_items_follow_the_anchoring(sample_kb):
    c4 = {c.paper: c for c in sample_kb.figures[D4].carried}
    assert "retroinfer" not in c4 and "meta-llama-inference" not in c4  # raised again on 9-4 (as anchored)
    assert "flashattention-4" not in c4  # carried once as anchored on 9-3, then dropped
    assert c4["ssr"].status is Status.pending and c4["ssr"].origin == "inference/2026-09-03-e1"
    c5 = {c.paper: c for c in sample_kb.figures[D5].carried}
    assert {"prefixpool", "lmcache-v2"} <= set(c5)
    assert "cascade" not in c5 and "replayssm" not in c5  # both raised on 9-5


def test_backlog_agrees_with_anchors_and_first_seen(sample_kb):
    items = {it.paper: it for it in pending_items(sample_kb, "inference")}
    anchored = {r.paper for r in sample_kb.anchored_in("inference")}
    assert not anchored & set(items)
    lm = items["lmcache-v2"]
    assert (lm.first_seen, lm.first_kind, lm.age_days, lm.status) == (
        dt.date(2026, 9, 2),
        "adjacent",
        3,
        Status.pending,
    )
    assert (items["prefixpool"].age_days, items["prefixpool"].status) == (1, Status.pending)
    assert items["ssr"].briefs == ("inference/2026-09-03-e1", D4, D5)
    for pid, it in items.items():  # one definition of first seen everywhere
        assert it.first_seen == sample_kb.history.first_seen(pid).date


def test_claims_lifecycle(sample_kb):
    claims = sample_kb.claims
    rtp = claims.get("inference", "rtp-llm-open-source")
    assert not rtp.open and rtp.closed_by.brief == D4
    ssr = claims.get("inference", "ssr-scope")
    assert ssr.open and ssr.priority == "P1" and [e.brief for e in ssr.events] == [D4]
    assert claims.get("inference", "hf-acquisition").priority == "P0"  # from adjacent item F, which is about it
    open_ids = [s.claim.id for s in claims.open_claims()]
    assert len(open_ids) == len(set(open_ids))  # each once
    assert "rtp-llm-open-source" not in open_ids and open_ids[:2] == ["hf-acquisition", "ssr-scope"]


def test_backlinks_include_the_anchoring_and_the_next_days_mentions(sample_kb):
    places = [(m.place.kind, m.place.brief, m.place.anchor) for m in sample_kb.mentions_of("retroinfer")]
    assert ("section", None, "sec-s1-3-vector-storage") in places  # the living document's section
    assert ("brief", D4, "candidates") in places
    assert ("brief", D4, "inc-2") in places  # named by the LMCache v2 increment's relation


def test_machine_readable_views_agree(sample_kb):
    retro = paper_view(sample_kb, "2505.02922v2")
    assert retro.known and retro.id == "retroinfer" and retro.status == "anchored"
    assert [a.section for a in retro.anchors] == ["s1-3-vector-storage"]
    assert retro.first_seen.brief == "inference/2026-09-03-e1"
    lm = paper_view(sample_kb, "lmcache-v2")
    assert lm.status == "pending" and lm.first_seen.kind == "adjacent"
    unknown = paper_view(sample_kb, "2608.01526")  # KV Cache Internet: written in text, no paper file
    assert not unknown.known and unknown.status == "mentioned" and unknown.mentions >= 1
    files = api_files(sample_kb)
    assert set(files) >= {"api/papers.json", "api/briefs.json", "api/backlog.json"}
