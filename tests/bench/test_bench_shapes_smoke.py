"""Smoke test of the Markdown-shapes benchmark at tiny sizes (scripts/bench_shapes.py): it runs,
prints a row per shape with a ratio, and the pathological shapes are refused.  No timing is
asserted: the ratios at 8 and 64 KB are the full run's (docs/performance.md)."""

from __future__ import annotations

import re

from benchrun import run_bench


def test_bench_shapes_runs_and_refuses_the_slow_shapes():
    out = run_bench("bench_shapes.py", "--sizes", "1,2")
    rows = dict(re.findall(r"^(\S+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(yes|no)$", out, re.M))
    assert len(rows) > 40, out
    for shape in ("link-open", "image-open", "link-nested", "tag-open", "autolink-open", "setext-same"):
        assert rows[shape] == "yes", out
    assert rows["prose"] == "no" and rows["table"] == "no", out
    assert re.search(r"^worst ratio [\d.]+ \(limit 1\.5\)$", out, re.M), out
