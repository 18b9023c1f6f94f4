"""Smoke test of the week pages' benchmark at a tiny size (scripts/bench_weeks.py): it runs and
prints each part's time and the ratio.  No timing is asserted: the year's figures are the full
run's (docs/performance.md)."""

from __future__ import annotations

import re

from benchrun import run_bench


def test_bench_weeks_runs_and_reports_each_part():
    out = run_bench("bench_weeks.py", "--briefs", "30", "--papers", "60", "--repeat", "1")
    assert re.search(r"^30 briefs, \d+ papers: [56] weeks$", out, re.M), out
    for part in ("week view", "week pages \\+ index", "weeks' feed", "timelines", "briefs' index"):
        assert re.search(rf"^{part}\s+[\d.]+ ms$", out, re.M), out
    assert re.search(r"^week pages / timelines [\d.]+$", out, re.M), out
