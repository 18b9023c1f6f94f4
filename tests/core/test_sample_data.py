"""The frozen knowledge base's 2026-09-03 brief (the seed) and what is computed beside it.

Everything here reads tests/fixtures/kb, never the live data/ (tests/live does that)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from kb.data.loader import load
from kb.data.models import Status
from kb.knowledge.load import build
from overlay import BASE
from sitebuild import FIXTURE, FIXTURE_DATA

SEED = "inference/2026-09-03-e1"


def test_the_frozen_knowledge_base_validates():
    run = subprocess.run(
        [sys.executable, "-m", "kb", "validate", "--data", str(FIXTURE_DATA)],
        cwd=FIXTURE,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 error(s)" in run.stdout


def test_seed_brief_counts(sample_kb):
    f = sample_kb.figures[SEED]
    assert (f.increments, f.adjacent, f.net_new, f.adjacent_ingested) == (5, 6, 5, 1)
    assert f.net_new_ids == ["2608.20359", "2505.02922", "2605.29639", "2608.06557", "2608.13499", "2609.01925"]
    assert f.statuses == [Status.net_new] * 5
    assert f.ingested_items == [5]  # CRISP: a card (1197) under another primary category (llm-infra)


def test_seed_brief_carried_over(sample_kb):
    f = sample_kb.figures[SEED]
    assert {c.paper for c in f.carried} == {
        "flashattention-4",
        "replayssm",
        "silent-hyperparameter",
        "swiftcache",
        "albireo",
        "tokenweave",
        "stream2llm",
        "flexllm",
        "tokenflow",
        "neuroprefetcher",
        "oneiros",
        "mlcommons-mlperf-rag",
    }
    anchored = {c.paper: c.anchor for c in f.carried if c.status is Status.anchored}
    assert set(anchored) == {"flashattention-4", "mlcommons-mlperf-rag"}
    fa4 = anchored["flashattention-4"]
    assert (fa4.section, fa4.since, fa4.recorded_on.isoformat()) == ("head", None, "2026-09-03")  # no date is invented
    origins = {c.paper: c.origin for c in f.carried}
    assert origins["tokenweave"] == "inference/2026-09-02-e1" and origins["replayssm"] == "inference/2026-09-01-e1"
    assert sample_kb.figures[SEED].carried[0].origin == "inference/2026-09-01-e1"


def test_the_seeds_own_disagreements_are_findings_each_acknowledged(sample_kb):
    noted = {n.finding.code: n for n in sample_kb.findings("brief", SEED)}
    assert set(noted) == {
        "stated/net_new",  # "3 条 NET-new" but all five increments are first seen and not anchored
        "stated/adjacent_ingested",  # "2 条 paper_card 邻接入库" but only CRISP is a card of another axis
        "stated/sources_breakdown",  # "20+ 来源" but the signature's breakdown adds up to 15
        "confirmed-pending/flashattention-4",  # §1.8 says not anchored; the carried list says anchored
        "origin/tokenflow",  # a 9-2 item in one place, a 9-1 candidate in another
        "category/crisp",  # evaluation/agent in the 14:40 radar, llm-infra on its card
        "sources/7/range",  # "近 3 日" spans four calendar days
    }
    assert all(n.acknowledged for n in noted.values())
    topic = {n.finding.code for n in sample_kb.findings("topic", "inference")}
    assert {c for c in topic if c.startswith("update-label/2026-09-03/")} == {
        "update-label/2026-09-03/tokenweave",
        "update-label/2026-09-03/stream2llm",
        "update-label/2026-09-03/flexllm",
    }
    assert [n.finding.code for n in sample_kb.findings("paper", "ssr")] == ["submitted-vs-id"]


def test_the_partial_previous_brief_is_no_disagreement(sample_kb):
    """09-03 states 6 adjacent items for 09-02, whose reconstruction knows one: partially known, not wrong."""
    assert sample_kb.briefs[SEED].stated.previous_adjacent == 6
    assert sample_kb.figures["inference/2026-09-02-e1"].adjacent == 1
    assert sample_kb.figures["inference/2026-09-02-e1"].partial
    assert not [n for n in sample_kb.findings("brief", SEED) if "previous" in n.finding.code]


def test_cards_and_sources(sample_kb):
    f = sample_kb.figures[SEED]
    (tally,) = f.cards
    assert (tally.group, tally.total, tally.distinct) == (6, 8, 7)
    assert tally.in_topic == () and tally.adjacent == (1197,)  # 1199 repeats 1197's id: one ingest, as the author says
    assert tally.repeats == ((1199, 1197),)
    assert f.sources_listed == 22


def test_baseline_comes_from_the_topic_update_log(sample_kb):
    b = sample_kb.figures[SEED].baseline
    assert b.update is not None and b.update.date.isoformat() == "2026-09-03" and b.update.citations == 430
    assert [lb.text for lb in b.update.labels][:2] == ["TokenWeave/Stream2LLM/FlexLLM", "llm-d v0.7 CNCF"]
    assert sample_kb.figures["inference/2026-09-01-e1"].baseline.update is None  # nothing recorded before 9-3


def test_previous_and_next(sample_kb):
    assert sample_kb.previous(SEED) == "inference/2026-09-02-e1"
    assert sample_kb.next("inference/2026-09-01-e1") == "inference/2026-09-02-e1"
    assert sample_kb.next(SEED) == "inference/2026-09-04-e1"


def test_template_pages_name_only_known_sections_and_briefs(tmp_path):
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    shutil.copytree(FIXTURE / "docs", tmp_path / "docs")
    shutil.copytree(FIXTURE / "hooks", tmp_path / "hooks")
    page = tmp_path / "docs" / "inference.md"
    page.write_text(page.read_text("utf-8").replace('section("s1-3-combination")', 'section("s1-3-combo")'), "utf-8")
    run = subprocess.run([sys.executable, "-m", "kb", "validate"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1
    line = next(ln for ln in run.stderr.splitlines() if "s1-3-combo" in ln)
    assert line.startswith("docs/inference.md:") and "unknown section" in line


@pytest.fixture
def base(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    return data, data / "briefs/inference/2026-09-03-e1.yaml"


def test_rounds_order_by_number(base):
    data, brief = base
    text = brief.read_text("utf-8").replace("papers: [ssr]", "papers: []")
    for rnd in ("E2", "E10"):
        (brief.parent / f"2026-09-03-{rnd.lower()}.yaml").write_text(
            text.replace("round: E1", f"round: {rnd}"), "utf-8"
        )
    kb = build(load(data))
    assert kb.by_topic["inference"][-3:] == [
        "inference/2026-09-03-e1",
        "inference/2026-09-03-e2",
        "inference/2026-09-03-e10",
    ]


def test_dates_and_numbers_must_be_written_as_such(base):
    data, brief = base
    brief.write_text(
        brief.read_text("utf-8").replace("date: 2026-09-03", 'date: "1788912000"').replace("value: 3", "value: 1_2"),
        "utf-8",
    )
    msgs = sorted(d.message.split(" (")[0] for d in build(load(data)).errors)
    assert msgs == ["expected a date YYYY-MM-DD, got '1788912000'", "expected a whole number, got '1_2'"]


def test_anchored_on_its_own_day_is_no_contradiction(base):
    """The anchoring brief itself may say `anchored`: only a later brief going back is an error
    (the status-going-backwards rule compares strictly earlier briefs)."""
    data, brief = base
    brief.write_text(
        brief.read_text("utf-8").replace("status: net-new", "status: anchored\n    anchored_in: s1-1-spec-decoding"),
        "utf-8",
    )
    kb = build(load(data))
    assert kb.errors == []
    rec = kb.history.anchor("ssr", "inference")
    assert rec is not None and rec.brief == "inference/2026-09-03-e1" and rec.section == "s1-1-spec-decoding"
