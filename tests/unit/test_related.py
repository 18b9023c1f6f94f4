"""Related papers (kb.knowledge.related) on the frozen fixture, against lists derived by hand from
its YAML (tests/fixtures/kb/data): each entry says where it comes from.  Weights: relation 5,
item 4, claim 3, section 2 (added to papers another tie joins), brief 1 (shared briefs counted up
to 3); at most 8 per paper, ties broken by the short name.  A change of weights, reasons, ranking
or limit fails here."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.knowledge.related import Reason, Related, related_papers, related_to, score, section_graph

B2, B3, B4, B5 = (f"inference/2026-09-0{d}-e1" for d in (2, 3, 4, 5))
SCHED, KV = ("inference", "s1-2-scheduling"), ("inference", "s1-3-kv-cache")


def shown(entries: tuple[Related, ...]) -> list[tuple[str, int, list[tuple[str, tuple[str, ...], int, int]]]]:
    return [(r.paper, r.score, [(t.reason.value, t.where, t.at, t.line) for t in r.ties]) for r in entries]


def test_cascades_related_papers_with_their_reasons(sample_kb: KnowledgeBase):
    # Cascade is named by: 9-3's 4th increment (index 3: [cascade, opscale], section and suggestions
    # s1-2-scheduling, relation lines 0 → [flexllm] and 1 → [stream2llm]), 9-3's claim
    # cascade-opscale-deployment [cascade, opscale], 9-5's increment (s1-2-scheduling, anchored there).
    # s1-2-scheduling's other papers: 9-2 stream2llm and flexllm, 9-3 meta + rtp-llm, 9-4 prefixpool;
    # a shared section adds to papers another tie joins, alone it relates none (prefixpool).
    # 9-3 lists as items: ssr, retroinfer, meta, rtp-llm, cascade, opscale, crisp (+ claims: the same);
    # 9-5: cascade and the candidate replayssm.
    assert shown(related_to(sample_kb, "cascade")) == [
        # item 4 + claim 3 + section 2 + brief 9-3 1 = 10
        (
            "opscale",
            10,
            [
                ("item", (B3,), 3, 0),
                ("claim", ("inference", "cascade-opscale-deployment"), 0, 0),
                ("section", SCHED, 0, 0),
                ("brief", (B3,), 0, 0),
            ],
        ),
        # relation 5 (9-3 inc 3 line 0 names flexllm) + section 2 = 7; flexllm is no item of 9-3: no brief
        ("flexllm", 7, [("relation", (B3,), 3, 0), ("section", SCHED, 0, 0)]),
        # relation 5 (line 1 names stream2llm) + section 2 = 7; "FlexLLM" < "Stream2LLM"
        ("stream2llm", 7, [("relation", (B3,), 3, 1), ("section", SCHED, 0, 0)]),
        # 9-3 inc 2 [meta, rtp-llm] lists s1-2-scheduling: brief 9-3 1 + section 2 = 3, "Meta…" < "RTP-LLM"
        ("meta-llama-inference", 3, [("section", SCHED, 0, 0), ("brief", (B3,), 0, 0)]),
        ("rtp-llm", 3, [("section", SCHED, 0, 0), ("brief", (B3,), 0, 0)]),
        # score 1, by short name: CRISP, ReplaySSM (9-5 candidate), RetroInfer; SSR (9-3) is past the
        # limit of 8
        ("crisp", 1, [("brief", (B3,), 0, 0)]),
        ("replayssm", 1, [("brief", (B5,), 0, 0)]),
        ("retroinfer", 1, [("brief", (B3,), 0, 0)]),
    ]


def test_retroinfers_related_papers_with_their_reasons(sample_kb: KnowledgeBase):
    # RetroInfer: 9-3 increment index 1 (s1-3-kv-cache; relation line 1 → [lmcache-v2]), 9-3 claim
    # retroinfer-maturity (itself only), 9-4 candidate anchored in s1-3-vector-storage (no other paper
    # there).  LMCache v2: 9-2 adjacent item (s1-3-kv-cache), 9-4 increment index 1 (s1-3-kv-cache,
    # relation line 0 → [retroinfer]).  s1-3-kv-cache also holds 9-2's stream2llm and 9-3's crisp.
    assert shown(related_to(sample_kb, "retroinfer")) == [
        # two relations 5 + 5, section 2, brief 9-4 (lmcache-v2 increment, retroinfer candidate) 1 = 13
        (
            "lmcache-v2",
            13,
            [
                ("relation", (B3,), 1, 1),
                ("relation", (B4,), 1, 0),
                ("section", KV, 0, 0),
                ("brief", (B4,), 0, 0),
            ],
        ),
        ("crisp", 3, [("section", KV, 0, 0), ("brief", (B3,), 0, 0)]),  # 9-3 crisp lists s1-3-kv-cache
        # 9-3 increment and 9-4 candidate name meta too: two briefs, 2 (stream2llm shares s1-3-kv-cache
        # only: not related)
        ("meta-llama-inference", 2, [("brief", (B3,), 0, 0), ("brief", (B4,), 0, 0)]),
        # score 1 by name: Cascade, OpScale, PrefixPool (9-4), RTP-LLM, SSR
        ("cascade", 1, [("brief", (B3,), 0, 0)]),
        ("opscale", 1, [("brief", (B3,), 0, 0)]),
        ("prefixpool", 1, [("brief", (B4,), 0, 0)]),
        ("rtp-llm", 1, [("brief", (B3,), 0, 0)]),
        ("ssr", 1, [("brief", (B3,), 0, 0)]),
    ]


def test_a_relation_joins_the_papers_it_names_but_not_its_increments_own_to_each_other(sample_kb: KnowledgeBase):
    # 9-3 increment index 4 (crisp) line 1 names [tokenweave, tokenflow]: the two are named together
    tokenweave = {r.paper: r for r in related_to(sample_kb, "tokenweave")}
    assert [(t.reason.value, t.where, t.at, t.line) for t in tokenweave["tokenflow"].ties] == [
        ("relation", (B3,), 4, 1)
    ]
    # Cascade and OpScale share 9-3's increment 3, whose lines name others: item, no relation
    first = related_to(sample_kb, "cascade")[0]
    assert first.paper == "opscale" and first.of(Reason.relation) == () and first.of(Reason.item)


def test_a_sections_neighbourhood(sample_kb: KnowledgeBase):
    g = section_graph(sample_kb, *SCHED)
    # the 7 papers of s1-2-scheduling (see above); joined by a relation, item or claim:
    # cascade–opscale (10), cascade–flexllm, cascade–stream2llm (7), 9-3 inc 3 line 0/1 join opscale
    # to flexllm and stream2llm too (7), meta–rtp-llm (one item 4 + sections s1-1 and s1-2 2+2 + brief 1 = 9)
    assert g.total == 7
    assert sorted(g.edges) == [
        ("cascade", "flexllm", 7),
        ("cascade", "opscale", 10),
        ("cascade", "stream2llm", 7),
        ("flexllm", "opscale", 7),
        ("meta-llama-inference", "rtp-llm", 9),
        ("opscale", "stream2llm", 7),
    ]
    # best connected first (sum of edge scores: cascade 24, opscale 24, flexllm 14, stream2llm 14,
    # meta 9, rtp-llm 9, prefixpool 0), ties by short name
    assert g.papers == ("cascade", "opscale", "flexllm", "stream2llm", "meta-llama-inference", "rtp-llm", "prefixpool")


def test_every_score_is_the_sum_of_the_weights_of_its_ties(sample_kb: KnowledgeBase):
    """The view sums scores per paper and gathers ties for the kept only: the two agree, and each
    list is ranked by score, then name, and symmetric in its scores."""
    lists = related_papers(sample_kb)
    assert len(lists) > 10
    for a, found in lists.items():
        assert all(score(r.ties) == r.score for r in found), a
        keys = [(-r.score, sample_kb.papers[r.paper].short.lower()) for r in found]
        assert keys == sorted(keys) and len(found) <= 8
        for r in found:
            back = {x.paper: x.score for x in lists[r.paper]}
            assert back.get(a, r.score) == r.score  # (a may be past the other's limit)
