"""One broken data set per rule, each with its expected errors pinned in a golden file.

A change in wording or location shows up as a diff.  Regenerate after a deliberate
change with ``KB_UPDATE_GOLDEN=1 pytest tests/core/test_broken_fixtures.py`` and review it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BROKEN = Path(__file__).resolve().parents[1] / "fixtures" / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir() and not p.name.startswith("_"))


def run_validate(case_dir: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb", "validate", *extra], cwd=case_dir,
                          capture_output=True, text=True, env={**os.environ, "GITHUB_ACTIONS": "false"})


def test_the_valid_base_passes():
    run = run_validate(BROKEN / "_valid")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("case", CASES)
def test_broken_fixture_matches_golden(case):
    case_dir = BROKEN / case
    run = run_validate(case_dir, "--format", "json")
    assert run.returncode == 1, f"{case}: expected failure\n{run.stdout}{run.stderr}"
    assert "Traceback" not in run.stderr
    got = [{k: d[k] for k in ("path", "line", "col", "key", "severity", "message")} for d in json.loads(run.stdout)]
    golden = case_dir / "expected.json"
    if os.environ.get("KB_UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert got == json.loads(golden.read_text("utf-8"))


@pytest.mark.parametrize("case", CASES)
def test_text_output_names_file_line_col(case):
    run = run_validate(BROKEN / case)
    assert run.returncode == 1
    lines = [ln for ln in run.stderr.splitlines() if ln.startswith("data/")]
    assert lines, run.stderr
    for ln in lines:
        path, line, col, _ = ln.split(":", 3)
        assert int(line) >= 1 and int(col) >= 1


def test_github_annotations(tmp_path):
    run = subprocess.run([sys.executable, "-m", "kb", "validate"], cwd=BROKEN / "unknown-paper",
                         capture_output=True, text=True, env={**os.environ, "GITHUB_ACTIONS": "true"})
    notes = [ln for ln in run.stdout.splitlines() if ln.startswith("::error ")]
    assert notes == ["::error file=data/briefs/inference/2026-09-03-e1.yaml,line=15,col=19,title=unknown-paper::"
                     "unknown paper 'not-a-paper': no data/papers/not-a-paper.yaml [increments[0].papers[1]]"]


def test_paths_limit_the_report_to_those_files():
    case = BROKEN / "missing-and-unknown-keys"
    run = subprocess.run([sys.executable, "-m", "kb", "validate", "data/briefs/inference/2026-09-03-e1.yaml"],
                         cwd=case, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([sys.executable, "-m", "kb", "validate", "data/papers/ssr.yaml"],
                         cwd=case, capture_output=True, text=True)
    assert run.returncode == 1 and "missing required key 'short'" in run.stderr
