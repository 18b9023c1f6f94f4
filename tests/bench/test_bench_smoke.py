"""Smoke test of the build benchmark at its smallest size: it runs and reports (no timing asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_bench_build_reports_the_table_and_the_targets():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_build.py"), "--sizes", "100", "--repeat", "1", "--year", "6,20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert re.search(r"^size 100: \d+ briefs \+ \d+ papers -> 100 pages; project [\d.]+ s", out, re.M), out
    head = next(line for line in out.splitlines() if line.lstrip().startswith("size  pages"))
    assert "project s" in head and "plain s" in head and "time x" in head
    row = re.search(r"^\s+100\s+100 \|(.*)\|(.*)\|(.*)$", out, re.M)
    assert row, out
    project, plain, ratios = (part.split() for part in row.groups())
    assert len(project) == len(plain) == 4 and len(ratios) == 3
    assert all(float(x) > 0 for x in project + plain + ratios)
    for check in (
        "project/plain time <= 1.3 at every size:",
        "time/page at 100 <= 1.3 x at 100:",
        "output bytes/page flat",
        "kb validate at size 100",
        "kb validate of a synthetic year (6 briefs / 20 papers)",
    ):
        assert check in out, out
