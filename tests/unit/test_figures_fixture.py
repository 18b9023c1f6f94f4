"""Each brief's computed figures on the frozen five-brief fixture, every value derived by hand
from the YAML (the reasoning is beside each one), so a change in how a figure is computed shows."""

from __future__ import annotations

import pytest

from kb.data.models import Status
from kb.knowledge.figures import is_adjacent_ingest, item_status, paper_status, short_date
from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA

D1, D2, D3, D4, D5 = (f"inference/2026-09-0{d}-e1" for d in range(1, 6))
# raised by 9-1 as candidates, in its order
NINE_ONE = [
    "flashattention-4",
    "replayssm",
    "silent-hyperparameter",
    "swiftcache",
    "albireo",
    "tokenflow",
    "neuroprefetcher",
    "oneiros",
    "mlcommons-mlperf-rag",
]


@pytest.fixture
def kb():
    # loaded per test (0.1 s): mutation testing attributes the figures computed while loading to
    # the test that loads them, so a shared load would leave the other tests unrun on a mutant
    return load_kb(FIXTURE_DATA)


def test_counts_statuses_and_neighbours(kb):
    f1, f2, f3, f4, f5 = (kb.figures[k] for k in (D1, D2, D3, D4, D5))
    # 9-1 (reconstructed) knows only candidates; 9-2 (reconstructed) three increments and one adjacent item
    assert (f1.increments, f1.adjacent, f1.partial, f1.previous, f1.next) == (0, 0, True, None, D2)
    assert (f2.increments, f2.adjacent, f2.partial, f2.previous, f2.next) == (3, 1, True, D1, D3)
    # 9-3: five increments, all first seen there; six adjacent items A-F
    assert (f3.increments, f3.adjacent, f3.net_new, f3.partial) == (5, 6, 5, False)
    assert f3.statuses == [Status.net_new] * 5
    # 9-4: PrefixPool is new; LMCache v2 was an adjacent item of 9-2, so it is pending, not net-new
    assert f4.statuses == [Status.net_new, Status.pending] and f4.net_new == 1
    # 9-5: the one increment (Cascade) is anchored by that brief; nothing is new
    assert f5.statuses == [Status.anchored] and (f5.net_new, f5.next) == (0, None)


def test_adjacent_ingested_is_a_card_under_another_primary_category(kb):
    f3 = kb.figures[D3]
    # only CRISP (increment 5) has paper cards (1197, 1199) with primary category llm-infra
    assert f3.ingested_items == [5] and f3.adjacent_ingested == 1
    assert is_adjacent_ingest(kb.papers["crisp"], "inference")
    assert not is_adjacent_ingest(kb.papers["crisp"], "llm-infra")
    assert not is_adjacent_ingest(kb.papers["ssr"], "inference")  # no card
    assert not is_adjacent_ingest(None, "inference")
    assert all(kb.figures[k].adjacent_ingested == 0 for k in (D1, D2, D4, D5))


def test_net_new_ids_in_the_order_the_brief_names_them(kb):
    # 9-1: its candidates with an arXiv id (FlashAttention-4, ReplaySSM and MLCommons have none)
    assert kb.figures[D1].net_new_papers == [
        "silent-hyperparameter",
        "swiftcache",
        "albireo",
        "tokenflow",
        "neuroprefetcher",
        "oneiros",
    ]
    # 9-2: TokenWeave (increment; Stream2LLM and FlexLLM have no id) and LMCache v2 (adjacent)
    assert kb.figures[D2].net_new_papers == ["tokenweave", "lmcache-v2"]
    # 9-3: increments in order, Meta's deployment paper has no arXiv id
    f3 = kb.figures[D3]
    assert f3.net_new_papers == ["ssr", "retroinfer", "rtp-llm", "cascade", "opscale", "crisp"]
    assert f3.net_new_ids == [kb.papers[p].arxiv_base for p in f3.net_new_papers]
    assert kb.figures[D4].net_new_papers == ["prefixpool"] and kb.figures[D5].net_new_papers == []


def test_carried_items_follow_raising_and_anchoring(kb):
    def carried(key):
        return [(c.paper, c.origin, c.status) for c in kb.figures[key].carried]

    assert carried(D1) == []
    # after 9-1 every candidate is pending; 9-2 raises none of them again
    assert carried(D2) == [(p, D1, Status.pending) for p in NINE_ONE]
    # 9-3 records FlashAttention-4 and MLCommons anchored: carried once more, marked anchored
    c3 = carried(D3)
    assert [p for p, _, _ in c3] == [*NINE_ONE, "tokenweave", "stream2llm", "flexllm"]
    assert {p for p, _, s in c3 if s is Status.anchored} == {"flashattention-4", "mlcommons-mlperf-rag"}
    anchored = [c for c in kb.figures[D3].carried if c.status is Status.anchored]
    assert all(c.anchor is not None and c.anchor.brief == D3 for c in anchored)
    assert all(c.anchor is None for c in kb.figures[D3].carried if c.status is Status.pending)
    # 9-4: the anchored two drop; 9-3's increments are carried; RetroInfer and Meta are candidates
    # recorded anchored by 9-4 itself (raised, so not carried); LMCache v2 is raised as an increment
    c4 = carried(D4)
    anchored_9_3 = {"flashattention-4", "mlcommons-mlperf-rag"}
    raised_9_2 = ["tokenweave", "stream2llm", "flexllm"]
    raised_9_3 = ["ssr", "rtp-llm", "cascade", "opscale", "crisp"]  # without RetroInfer and Meta (anchored)
    assert [p for p, _, _ in c4] == [p for p in NINE_ONE if p not in anchored_9_3] + raised_9_2 + raised_9_3
    assert all(s is Status.pending for _, _, s in c4)
    assert dict((p, o) for p, o, _ in c4)["ssr"] == D3
    # 9-5: ReplaySSM is raised again (a candidate) and Cascade anchored as an increment; 9-4's two
    # new items are carried with 9-4 as their origin (LMCache v2's first sighting is 9-2, but the
    # carried list counts from the brief that raised it as an item)
    c5 = carried(D5)
    assert "replayssm" not in [p for p, _, _ in c5] and "cascade" not in [p for p, _, _ in c5]
    assert c5[-2:] == [("prefixpool", D4, Status.pending), ("lmcache-v2", D4, Status.pending)]
    assert len(c5) == 15


def test_card_tallies_count_repeats_once(kb):
    (tally,) = kb.figures[D3].cards
    # source 1.7 lists cards 1195-1202; 1199 repeats 1197's arXiv id; only 1197 (CRISP) is adjacent
    # to inference and none has inference as its primary category
    assert (tally.group, tally.total, tally.distinct) == (6, 8, 7)
    assert (tally.in_topic, tally.adjacent, tally.repeats) == ((), (1197,), ((1199, 1197),))
    assert all(kb.figures[k].cards == [] for k in (D1, D2, D4, D5))


def test_sources_listed_and_baseline(kb):
    # 9-3: 10 files in the source groups and 17 + 6 in the checked lists, 22 distinct paths
    f3 = kb.figures[D3]
    assert f3.sources_listed == 22
    assert kb.figures[D1].sources_listed == 1 and kb.figures[D5].sources_listed == 0
    # the topic's update log has entries for 9-3 and 9-4; anchored as of the previous brief:
    # none before 9-3, FlashAttention-4 + MLCommons (9-3), + RetroInfer + Meta (9-4)
    got = [
        (
            kb.figures[k].baseline.update.date.isoformat() if kb.figures[k].baseline.update else None,
            kb.figures[k].baseline.anchored,
            kb.figures[k].baseline.previous,
        )
        for k in (D1, D2, D3, D4, D5)
    ]
    assert got == [(None, 0, None), (None, 0, D1), ("2026-09-03", 0, D2), ("2026-09-04", 2, D3), ("2026-09-04", 4, D4)]


def test_status_functions(kb):
    h = kb.history
    assert paper_status(h, "ssr", D3, "inference") is Status.net_new
    assert paper_status(h, "ssr", D4, "inference") is Status.pending
    assert paper_status(h, "retroinfer", D4, "inference") is Status.anchored
    assert paper_status(h, "retroinfer", D3, "inference") is Status.net_new
    assert paper_status(h, "retroinfer", D4, "rag") is Status.pending  # anchored only in inference
    assert item_status(h, [], D3, "inference") is None
    assert item_status(h, ["retroinfer", "meta-llama-inference"], D4, "inference") is Status.anchored
    assert item_status(h, ["retroinfer", "prefixpool"], D4, "inference") is Status.net_new
    assert item_status(h, ["retroinfer", "ssr"], D4, "inference") is Status.pending
    assert short_date(kb.briefs[D3].date) == "9-3"
