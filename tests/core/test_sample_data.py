"""The shipped sample data validates and its computed figures are the seed's."""

from __future__ import annotations

import subprocess
import sys

from kb.data.models import Status

SEED = "inference/2026-09-03-e1"


def test_kb_validate_exits_zero_on_shipped_data(root):
    run = subprocess.run([sys.executable, "-m", "kb", "validate"], cwd=root, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 error(s)" in run.stdout


def test_seed_brief_counts(sample_kb):
    f = sample_kb.figures[SEED]
    assert f.increments == 5
    assert f.adjacent == 6
    assert f.net_new_ids == ["2608.20359", "2505.02922", "2605.29639", "2608.06557", "2608.13499", "2609.01925"]


def test_seed_brief_carried_over(sample_kb):
    f = sample_kb.figures[SEED]
    assert len(f.carried) == 12
    anchored = {c.paper for c in f.carried if c.status is Status.anchored}
    assert anchored == {"flashattention-4", "mlcommons-mlperf-rag"}
    origins = {c.paper: c.origin for c in f.carried}
    assert origins["tokenweave"] == "inference/2026-09-02-e1"
    assert origins["replayssm"] == "inference/2026-09-01-e1"
    assert {c.paper for c in f.carried} == {
        "flashattention-4", "replayssm", "silent-hyperparameter", "swiftcache", "albireo", "tokenweave",
        "stream2llm", "flexllm", "tokenflow", "neuroprefetcher", "oneiros", "mlcommons-mlperf-rag"}


def test_anchored_items_drop_off_after_one_carry(root, tmp_path):
    """An item carried as anchored is not carried again by the next brief."""
    import shutil

    from kb.knowledge.index import load_kb

    data = tmp_path / "data"
    shutil.copytree(root / "data", data)
    src = (data / "briefs/inference/2026-09-03-e1.yaml").read_text("utf-8")
    nxt = src.replace("date: 2026-09-03", "date: 2026-09-04").replace("2026-09-03T22:20", "2026-09-04T22:20") \
             .replace("2026-09-02T22:20", "2026-09-03T22:20").replace("updated: 2026-09-03", "updated: 2026-09-04")
    (data / "briefs/inference/2026-09-04-e1.yaml").write_text(nxt, "utf-8")
    kb = load_kb(data)
    carried = {c.paper for c in kb.figures["inference/2026-09-04-e1"].carried}
    assert "flashattention-4" not in carried and "mlcommons-mlperf-rag" not in carried
    # the 9-3 increments are raised again on 9-4, so they are not carried either
    assert "ssr" not in carried
    assert "tokenweave" in carried


def test_stated_vs_computed_disagreements_are_reported(sample_kb):
    f = sample_kb.figures[SEED]
    figures = sorted(d.figure for d in f.disagreements)
    assert figures == sorted([
        "net_new",             # "3 条 NET-new" but all five increments are NET-new
        "adjacent_ingested",   # "2 条 paper_card 邻接入库" but only CRISP is a card of another axis
        "sources_breakdown",   # "20+ 来源" but the itemised breakdown adds up to 15
        "previous_adjacent",   # 9-2 had 6 adjacent items; the reconstruction knows one
        "confirmed_pending",   # §1.8 says FlashAttention-4 is not anchored; the carried list says it is
        "baseline_labels", "baseline_labels", "baseline_labels",  # labels name 3 papers still carried as pending
    ])
    warnings = [d for d in sample_kb.warnings if d.path.endswith("2026-09-03-e1.yaml")]
    assert len(warnings) == len(f.disagreements)
    assert all(d.line > 1 for d in warnings)


def test_strict_validate_fails_on_the_disagreements(root):
    run = subprocess.run([sys.executable, "-m", "kb", "validate", "--strict"], cwd=root, capture_output=True, text=True)
    assert run.returncode == 1
    assert "stated.net_new" in run.stderr


def test_cards_and_sources(sample_kb):
    f = sample_kb.figures[SEED]
    assert f.cards == 8
    assert f.cards_in_topic == 0
    assert f.cards_adjacent == [1197, 1199]
    assert len(f.included) == 17
    assert len(f.excluded) == 6
    assert f.sources_checked == 22


def test_summary_rows(sample_kb):
    rows = sample_kb.figures[SEED].rows
    assert [r.key for r in rows] == ["1", "2", "3", "4", "5", "A", "B", "C", "D", "E", "F"]
    assert [r.value for r in rows] == [3, 5, 5, 4, 4, 4, 3, 4, 3, 4, 4]
    assert rows[-1].status == "P0 待核实"
    assert rows[-1].category == "行业事件"


def test_previous_and_next(sample_kb):
    assert sample_kb.previous(SEED) == "inference/2026-09-02-e1"
    assert sample_kb.next("inference/2026-09-01-e1") == "inference/2026-09-02-e1"
    assert sample_kb.next(SEED) is None


def test_template_pages_name_only_known_sections_and_briefs(root, tmp_path):
    import shutil

    for name in ("data", "docs", "hooks"):
        shutil.copytree(root / name, tmp_path / name)
    page = tmp_path / "docs" / "inference.md"
    page.write_text(page.read_text("utf-8").replace('section("s1-3-combination")', 'section("s1-3-combo")'), "utf-8")
    run = subprocess.run([sys.executable, "-m", "kb", "validate"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 1
    line = next(ln for ln in run.stderr.splitlines() if "s1-3-combo" in ln)
    assert line.startswith("docs/inference.md:") and "unknown section" in line


def _valid_copy(root, tmp_path):
    import shutil

    data = tmp_path / "data"
    shutil.copytree(root / "tests/fixtures/broken/_valid/data", data)
    return data, data / "briefs/inference/2026-09-03-e1.yaml"


def test_anchored_status_needs_the_papers_anchor(root, tmp_path):
    from kb.knowledge.index import build
    from kb.data.loader import load

    data, brief = _valid_copy(root, tmp_path)
    brief.write_text(brief.read_text("utf-8").replace("status: net-new", "status: anchored"), "utf-8")
    msgs = [d.message for d in build(load(data)).errors]
    assert any("marks SSR anchored, but data/papers/ssr.yaml has no anchor" in m for m in msgs), msgs


def test_one_status_per_paper_per_brief(root, tmp_path):
    from kb.knowledge.index import build
    from kb.data.loader import load

    data, brief = _valid_copy(root, tmp_path)
    brief.write_text(brief.read_text("utf-8") + "candidates:\n  - {paper: ssr, status: pending}\n", "utf-8")
    msgs = [d.message for d in build(load(data)).errors]
    assert msgs == ["SSR is listed twice in this brief, as net-new and as pending"]


def test_rounds_order_by_number(root, tmp_path):
    from kb.knowledge.index import build
    from kb.data.loader import load

    data, brief = _valid_copy(root, tmp_path)
    text = brief.read_text("utf-8").replace("papers: [ssr]", "papers: []")
    for rnd in ("E2", "E10"):
        (brief.parent / f"2026-09-03-{rnd.lower()}.yaml").write_text(text.replace("round: E1", f"round: {rnd}"), "utf-8")
    kb = build(load(data))
    assert kb.by_topic["inference"] == ["inference/2026-09-03-e1", "inference/2026-09-03-e2", "inference/2026-09-03-e10"]


def test_dates_and_numbers_must_be_written_as_such(root, tmp_path):
    from kb.knowledge.index import build
    from kb.data.loader import load

    data, brief = _valid_copy(root, tmp_path)
    brief.write_text(brief.read_text("utf-8").replace("date: 2026-09-03", 'date: "1788912000"').replace("value: 3", "value: 1_2"), "utf-8")
    msgs = sorted(d.message for d in build(load(data)).errors)
    assert msgs == ["expected a date YYYY-MM-DD, got '1788912000'", "expected a whole number, got '1_2'"]
