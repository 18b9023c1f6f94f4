"""The status rules around an anchoring, in process (no subprocess): on the anchoring brief itself
a second status for the paper is an anchoring contradiction (one error, ``status-conflict``), never
"going backwards"; from the next brief on, a NET-new or pending entry is ``status-backwards``.

The valid base (tests/fixtures/base) records RetroInfer anchored on 2026-09-02 (a candidate of the
09-02 brief); each test lays one changed brief over it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kb.data.diagnostics import DataError
from kb.knowledge.load import load_kb
from overlay import BASE

D2 = "briefs/inference/2026-09-02-e1.yaml"
D3 = "briefs/inference/2026-09-03-e1.yaml"


def errors_with(tmp_path: Path, rel: str, change) -> list:
    """The error diagnostics of the base with ``change`` applied to the brief file ``rel``."""
    data = tmp_path / "data"
    shutil.copytree(BASE, data)
    brief = yaml.safe_load((data / rel).read_text("utf-8"))
    change(brief)
    (data / rel).write_text(yaml.safe_dump(brief, allow_unicode=True, sort_keys=False), "utf-8")
    try:
        load_kb(data)
    except DataError as exc:
        return [d for d in exc.diagnostics if d.is_error]
    return []


def test_the_base_is_valid(tmp_path):
    assert errors_with(tmp_path, D2, lambda b: None) == []


@pytest.mark.parametrize("status", ["pending", "net-new"])
def test_a_second_status_on_the_anchoring_brief_is_a_contradiction_not_backwards(tmp_path, status):
    def change(b):
        b["candidates"].append({"paper": "retroinfer", "status": status})

    errors = errors_with(tmp_path, D2, change)
    assert [d.code for d in errors] == ["status-conflict"], [d.text() for d in errors]
    assert errors[0].path.endswith("2026-09-02-e1.yaml") and errors[0].key == "candidates[1].status"
    assert "anchoring contradiction" in errors[0].message


@pytest.mark.parametrize("status", ["pending", "net-new"])
def test_a_later_brief_marking_an_anchored_paper_again_goes_backwards(tmp_path, status):
    def change(b):
        b.setdefault("candidates", []).append({"paper": "retroinfer", "status": status})

    errors = errors_with(tmp_path, D3, change)
    assert [d.code for d in errors] == ["status-backwards"], [d.text() for d in errors]
    assert errors[0].path.endswith("2026-09-03-e1.yaml")
    assert "anchored in inference since 2026-09-02" in errors[0].message and status in errors[0].message


def test_a_later_brief_confirming_the_anchoring_is_fine(tmp_path):
    def change(b):
        b.setdefault("candidates", []).append({"paper": "retroinfer", "status": "anchored"})

    assert errors_with(tmp_path, D3, change) == []
