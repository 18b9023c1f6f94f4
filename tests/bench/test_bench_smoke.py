"""Smoke test of the build benchmark at its smallest size: it runs and reports (no timing asserted)."""

from __future__ import annotations

import re

import pytest
from benchrun import run_bench


@pytest.mark.slow
def test_bench_build_reports_the_table_and_the_targets():
    out = run_bench("bench_build.py", "--sizes", "100", "--repeat", "1", "--year", "6,20")
    assert re.search(r"^size 100: \d+ briefs \+ \d+ papers -> 100 pages; project [\d.]+ s", out, re.M), out
    head = next(line for line in out.splitlines() if line.lstrip().startswith("size  pages"))
    for column in ("project cpu", "plain cpu", "cpu x", "mem x", "+1 brief cpu"):
        assert column in head, head
    row = re.search(r"^\s+100\s+100 \|(.*)\|(.*)\|(.*)\|(.*)$", out, re.M)
    assert row, out
    project, plain, ratios, warm = (part.split() for part in row.groups())
    assert len(project) == len(plain) == 5 and len(ratios) == 4 and len(warm) == 2
    assert all(float(x) > 0 for x in project + plain + ratios + warm)
    for check in (
        "project/plain CPU time <= 0.5 from 1000 pages:",
        "CPU time per page within 1.2 x",
        "peak memory <= 4096 MB (the bound at 10,000 pages):",
        "one brief added to a warm cache <= 0.3 x plain's CPU time",
        "output bytes/page flat",
        "kb validate at size 100",
        "kb validate of a synthetic year (6 briefs / 20 papers)",
    ):
        assert check in out, out
