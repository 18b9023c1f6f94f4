"""Smoke test of the page benchmark at small sizes (scripts/bench_pages.py): it runs, prints a
row per shape and size and a ratio per stage.  The timing claim itself (flat from 10 KB to
4 MB) is the full run's; here a 4x bound at 10-160 KB only catches a return to super-linear."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_pages_reports_flat_time_per_mb():
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_pages.py"), "--max-kb", "160"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    rows = re.findall(r"^(heading-spaces|ids|open-braces|prose)\s+(\d+)KB((?:\s+\d+){6})$", run.stdout, re.M)
    assert len(rows) == 4 * 3, run.stdout
    ratios = re.findall(r"^  (\S+)\s+(\S+)\s+([\d.]+)$", run.stdout, re.M)
    assert len(ratios) == 4 * 6, run.stdout
    assert all(float(r) <= 4 for _, _, r in ratios), run.stdout
