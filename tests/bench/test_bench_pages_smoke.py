"""Smoke test of the page benchmark at small sizes (scripts/bench_pages.py): it runs, prints a
row per shape and size and a ratio per stage.  The timing claim itself (flat from 10 KB to
4 MB) is the full run's; here a 4x bound at 10-160 KB only catches a return to super-linear."""

from __future__ import annotations

import re

from benchrun import run_bench


def test_bench_pages_reports_flat_time_per_mb():
    out = run_bench("bench_pages.py", "--max-kb", "160")
    rows = re.findall(r"^(heading-spaces|ids|open-braces|prose)\s+(\d+)KB((?:\s+\d+){6})$", out, re.M)
    assert len(rows) == 4 * 3, out
    ratios = re.findall(r"^  (\S+)\s+(\S+)\s+([\d.]+)$", out, re.M)
    assert len(ratios) == 4 * 6, out
    assert all(float(r) <= 4 for _, _, r in ratios), out
