"""Smoke test of the preview benchmark (scripts/bench_preview.py) at a tiny size: it starts
``kb preview`` on 127.0.0.1, edits a brief, sees the served page change and reports (no timing
asserted; the 3,000-page target is the full run's)."""

from __future__ import annotations

import re

import pytest
from benchrun import run_bench


@pytest.mark.slow
def test_bench_preview_reports_first_build_and_latency():
    # the pause is longer than the preview's 1.5 s without changes: the first edit's update starts
    out = run_bench("bench_preview.py", "--sizes", "60", "--edits", "2", "--pause", "2.5")
    m = re.search(
        r"^size 60: (\d+) briefs \+ (\d+) papers -> (\d+) pages; first build [\d.]+ s; after an edit: (.*) s; "
        r"search index updates: (\d+) done, (\d+) stopped by a save$",
        out,
        re.M,
    )
    assert m, out
    assert int(m[3]) == 60 and len(m[4].split(", ")) == 2
    assert 1 <= int(m[5]) + int(m[6]) <= 2  # the first build indexes the site; at most one update per edit
    head = next(line for line in out.splitlines() if line.lstrip().startswith("size  pages"))
    for column in ("first s", "median s", "max s", "rebuild s", "pages rebuilt", "first/median", "peak MB"):
        assert column in head
    row = re.search(
        r"^\s+60\s+60 \|\s+([\d.]+) \|\s+([\d.]+)\s+([\d.]+) \|\s+([\d.]+)\s+(\d+) \|\s+([\d.]+)x \|\s+(\d+)$",
        out,
        re.M,
    )
    assert row, out
    assert all(float(x) > 0 for x in row.groups()[:-1])  # peak memory: 0 where /proc is missing
    assert "median at 3000 pages <= 3.0 s: not measured" in out
