"""A next-day brief that anchors one paper into two sections (as a contributor wrote it: two
candidate entries, or one entry with a list) shows it under both on every view: the living
document, the paper page, `kb status`, api/papers.json and the brief's own page; two entries that
disagree on the date are a located error, never a silent choice."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from kb.data.loader import load
from kb.knowledge.load import build, load_kb
from kb.knowledge.views import api_files, paper_view
from kb.render import living, paper
from kb.render.brief import page as brief_page
from sitebuild import FIXTURE_DATA

TWO_ENTRIES = """
  - {paper: rtp-llm, status: anchored, anchored_in: s1-1-engines, note: 已锚入 §1.(1)}
  - {paper: rtp-llm, status: anchored, anchored_in: s1-2-scheduling, note: 已锚入 §1.(2)}
"""
ONE_LIST = """
  - {paper: rtp-llm, status: anchored, anchored_in: [s1-1-engines, s1-2-scheduling], note: 已锚入 §1.(1) + §1.(2)}
"""


def next_day(tmp_path, entries: str):
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    day = data / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = day.read_text("utf-8")
    assert "\ncandidates:\n" in text
    day.write_text(text.replace("\ncandidates:\n", "\ncandidates:" + entries, 1), "utf-8")
    return data


@pytest.mark.parametrize("entries", [TWO_ENTRIES, ONE_LIST], ids=["two-entries", "one-list"])
def test_a_paper_anchored_in_two_sections_is_under_both_everywhere(tmp_path, entries):
    data = next_day(tmp_path, entries)
    kb = load_kb(data)
    assert [e.message for e in kb.errors] == []
    rec = kb.history.anchor("rtp-llm", "inference")
    assert rec is not None and rec.sections == ("s1-1-engines", "s1-2-scheduling")
    for sid in rec.sections:  # the living document lists it under each section
        assert "papers/rtp-llm" in living.papers_in(kb, "inference", sid, "inference.md")
    page = paper.page(kb, "rtp-llm")
    assert "#sec-s1-1-engines" in page and "#sec-s1-2-scheduling" in page
    view = paper_view(kb, "rtp-llm")
    assert [(a.section, a.since.isoformat()) for a in view.anchors] == [
        ("s1-1-engines", "2026-09-05"),  # the brief's date: typed nowhere
        ("s1-2-scheduling", "2026-09-05"),
    ]
    api = json.loads(api_files(kb)["api/papers.json"])
    record = next(r for r in api["papers"] if r["id"] == "rtp-llm")
    assert [a["section"] for a in record["anchors"]] == ["s1-1-engines", "s1-2-scheduling"]
    run = subprocess.run(
        [sys.executable, "-m", "kb", "status", "--data", str(data), "rtp-llm"], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "§ s1-1-engines since 2026-09-05" in run.stdout and "§ s1-2-scheduling since 2026-09-05" in run.stdout
    shown = brief_page(kb, "inference/2026-09-05-e1")
    assert "锚入日期未注明" not in shown and shown.count("#sec-s1-2-scheduling") >= 1


def test_two_entries_stating_different_dates_for_one_paper_are_a_located_error(tmp_path):
    entries = TWO_ENTRIES.replace("note: 已锚入 §1.(2)", "anchored_since: 2026-09-04, note: 已锚入 §1.(2)")
    entries = entries.replace("note: 已锚入 §1.(1)}", "anchored_since: 2026-09-05, note: 已锚入 §1.(1)}")
    kb = build(load(next_day(tmp_path, entries)))
    errors = [e for e in kb.errors if "one anchoring date" in e.message]
    assert len(errors) == 1 and "RTP-LLM" in errors[0].message
    assert errors[0].path.endswith("2026-09-05-e1.yaml") and errors[0].line == 30
    assert errors[0].key == "candidates[1].anchored_since"
