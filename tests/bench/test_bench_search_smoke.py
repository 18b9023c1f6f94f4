"""Smoke test of the search-bytes benchmark at its smallest size: it builds, searches through the
header UI in chromium and reports the bytes a query downloads (the 300 KB target is for 3,000
pages; at 100 pages a query stays under it too).  A query fetches the fragments of the first
five results only and never Pagefind's web worker (assets/kb-search.js runs it on the page)."""

from __future__ import annotations

import re

import pytest
from benchrun import run_bench

from sitebuild import CHROMIUM


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
def test_bench_search_reports_bytes_per_query():
    out = run_bench("bench_search.py", "--sizes", "100")
    # every page built but the performance log (kb.site.search.SKIP_PAGES)
    assert re.search(r"^size 100: 99 pages indexed in [\d.]+ s", out, re.M), out
    per = [int(kb) for kb in re.findall(r"^  query .*: (\d+) KB as stored", out, re.M)]
    assert len(per) >= 4 and all(0 < kb <= 300 for kb in per), out
    files = re.findall(r"^  query .*; \d+ files: (\d+) fragments, (with|no) worker\)$", out, re.M)
    assert len(files) == len(per) and all(int(n) <= 5 and worker == "no" for n, worker in files), out
    row = re.search(r"^\s+100\s+99\s+[\d.]+\s+\d+ \|\s+(\d+)\s+(\d+)\s+(\d+)$", out, re.M)
    assert row, out
