"""The synthetic knowledge base: deterministic, valid, the size asked for, with a real history."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

import kbsynth as synth
from kb.data import arxiv_id
from kb.data.loader import load
from kb.data.models import Status
from kb.knowledge.load import build

ROOT = Path(__file__).resolve().parents[2]
SMALL = dict(briefs=30, papers=100, seed=1)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    files, summary = synth.generate(**SMALL)
    out = tmp_path_factory.mktemp("synth") / "data"
    synth.write(files, out)
    return files, summary, build(load(out))


def test_same_seed_same_bytes():
    assert synth.build(**SMALL) == synth.build(**SMALL)
    assert synth.build(**{**SMALL, "seed": 2}) != synth.build(**SMALL)


def test_cli_is_byte_identical_across_processes(tmp_path):
    # a different hash seed per run catches any iteration over an unordered set
    for n in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": n}
        run = subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "synth_kb.py"),
                str(tmp_path / n),
                "--briefs",
                "12",
                "--papers",
                "40",
                "--seed",
                "7",
                "--topics",
                "inference,rag",
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        assert run.returncode == 0, run.stderr
    a = {p.relative_to(tmp_path / "1"): p.read_bytes() for p in (tmp_path / "1").rglob("*.yaml")}
    b = {p.relative_to(tmp_path / "2"): p.read_bytes() for p in (tmp_path / "2").rglob("*.yaml")}
    assert a == b and len(a) == 12 + 40 + 2 + 2  # briefs, papers, topics, demos


def test_small_kb_validates_with_only_the_deliberate_warnings(small):
    files, summary, kb = small
    assert kb.errors == []
    assert len(kb.warnings) == summary.disagreements
    # each deliberate disagreement is one stated-vs-computed finding, with the code the generator names
    assert sorted(f"{d.path.split('briefs/', 1)[-1].removesuffix('.yaml')} {d.code}" for d in kb.warnings) == sorted(
        summary.findings
    )
    assert all(d.code.startswith("stated/") or d.code.endswith("/cards") for d in kb.warnings)


def test_deliberate_disagreements_are_the_findings_named(tmp_path):
    files, summary = synth.generate(briefs=20, papers=60, seed=5, disagree_rate=0.5)
    synth.write(files, tmp_path)
    kb = build(load(tmp_path))
    assert kb.errors == [] and summary.disagreements >= 5
    found = sorted(f"{d.path.split('briefs/', 1)[-1].removesuffix('.yaml')} {d.code}" for d in kb.warnings)
    assert found == sorted(summary.findings)
    assert {c.split(" ")[1].split("/")[0] for c in summary.findings} <= {"stated", "sources"}


def test_no_warnings_without_deliberate_disagreements(tmp_path):
    synth.write(synth.build(**SMALL, topics=["inference", "rag", "agent"], disagree_rate=0), tmp_path)
    kb = build(load(tmp_path))
    assert kb.diagnostics == []
    assert len(kb.topics) == 3 and sum(len(v) for v in kb.by_topic.values()) == 30


@pytest.mark.parametrize("briefs,papers", [(30, 100), (7, 3), (1, 0), (0, 5), (365, 2000)])
def test_sizes_are_as_asked(briefs, papers):
    files = synth.build(briefs=briefs, papers=papers, seed=3)
    assert sum(1 for p in files if p.startswith("briefs/")) == briefs
    assert sum(1 for p in files if p.startswith("papers/")) == papers
    assert sum(1 for p in files if p.startswith("topics/")) == 1


def test_edge_sizes_validate(tmp_path):
    for n, (briefs, papers) in enumerate([(7, 3), (1, 0), (0, 5)]):
        synth.write(synth.build(briefs=briefs, papers=papers, seed=n), tmp_path / str(n))
        assert build(load(tmp_path / str(n))).errors == []


def test_history_moves_forward(small):
    _, _, kb = small
    papers = kb.papers.values()
    assert all(p.arxiv is None or arxiv_id.parse(p.arxiv) for p in papers)
    assert sum(1 for p in papers if p.arxiv) > 0.8 * len(kb.papers)
    # some items raised NET-new get anchored later, and later briefs say so (anchoring lives in briefs only)
    assert not any("anchor" in text for path, text in small[0].items() if path.startswith("papers/"))
    later_anchored = 0
    for key in kb.briefs:
        for c in kb.figures[key].carried:
            if c.status is Status.anchored:
                later_anchored += 1
                assert (
                    c.anchor is not None
                    and c.anchor.brief == key
                    and c.anchor.section in (None, *kb.sections["inference"])
                )
                assert kb.briefs[c.origin].date < c.anchor.known_by <= kb.briefs[key].date
    assert later_anchored > 0
    # no status goes backwards: after its first anchor record, a paper is only ever marked anchored
    from kb.knowledge.history import status_entries

    for key, brief in kb.briefs.items():
        for e in status_entries(key, brief):
            rec = kb.history.first_anchor(e.paper, brief.topic)
            if rec is not None and kb.history.order[rec.brief] < kb.history.order[key]:
                assert e.status is Status.anchored, (key, e)
    # claims have ids and later briefs close some of them
    assert kb.claims.by_id and any(not s.open for s in kb.claims.by_id.values())
    assert all(e.brief != s.brief for s in kb.claims.by_id.values() for e in s.events)
    # the living document's update log: a baseline for the briefs, never stale
    topic = kb.topics["inference"]
    assert topic.updates and all(a.date < b.date for a, b in pairwise(topic.updates))
    assert sum(1 for f in kb.figures.values() if f.baseline and f.baseline.update) >= 0.8 * len(kb.briefs)
    # figures agree with stated ones except for the deliberate disagreements
    stated_ok = sum(1 for key in kb.briefs if not kb.findings("brief", key))
    assert stated_ok >= len(kb.briefs) - small[1].disagreements
    # windows hold their brief, sections introduced by briefs exist
    for brief in kb.briefs.values():
        assert brief.window.start < brief.generated_at <= brief.window.end
    introduced = [
        s.section.introduced_by for secs in kb.sections.values() for s in secs.values() if s.section.introduced_by
    ]
    assert introduced and all(k in kb.briefs for k in introduced)


def test_cli_refuses_a_non_empty_directory(tmp_path):
    (tmp_path / "keep.txt").write_text("x")
    script = str(ROOT / "scripts" / "synth_kb.py")
    run = subprocess.run(
        [sys.executable, script, str(tmp_path), "--briefs", "2", "--papers", "2"], capture_output=True, text=True
    )
    assert run.returncode == 2 and "not empty" in run.stderr
    assert (tmp_path / "keep.txt").exists()
    from kb.cli import main

    run = subprocess.run(
        [sys.executable, script, str(tmp_path / "d"), "--briefs", "3", "--papers", "9"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert main(["validate", "--data", str(tmp_path / "d"), "--docs", str(tmp_path / "no-docs")]) == 0


def test_bench_reports_and_checks():
    script = str(ROOT / "scripts" / "bench_validate.py")
    small = ["--briefs", "6", "--papers", "20", "--repeat", "1"]
    run = subprocess.run([sys.executable, script, *small], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "kb validate, 6 briefs / 20 papers:" in run.stdout and "(target 2.0 s, ratio" in run.stdout
    run = subprocess.run(
        [sys.executable, script, *small, "--target", "0.0001", "--check"], capture_output=True, text=True
    )
    assert run.returncode == 1
