"""Smoke test of the editions benchmark at a tiny size: it runs, builds, deploys and
reports the table and the targets (no size or time is asserted)."""

from __future__ import annotations

import re

import pytest
from benchrun import run_bench


@pytest.mark.slow
def test_bench_editions_reports_sizes_per_year_and_the_deployment():
    out = run_bench("bench_editions.py", "--years", "0.02,0.04", "--horizon", "3", timeout=900)
    assert re.search(r"^measured 0\.02 year\(s\): 7 briefs \+ 40 papers -> \d+ pages, built in [\d.]+ s", out, re.M), (
        out
    )
    rows = re.findall(r"^\s+([123]) \|\s+([\d,.]+)\s+([\d,.]+)\s+([\d,.]+)\s+(\d+)% \|", out, re.M)
    assert [r[0] for r in rows] == ["1", "2", "3"], out
    for _, current, editions, published, _share in rows:
        c, e, p = (float(x.replace(",", "")) for x in (current, editions, published))
        assert c > 0 and e > 0 and abs(c + e - p) < 0.2
    assert re.search(
        r"^deployment at 0\.04 year\(s\) \(\d+ files, [\d.]+ MB tree\): first [\d.]+ s, next month [\d.]+ s", out, re.M
    ), out
    for check in ("published size after 3 years < 1 GB:", "one deployment < 60 s:", "mike/published"):
        assert check in out, out
