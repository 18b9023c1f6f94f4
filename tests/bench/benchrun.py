"""Running a benchmark script as its user does, for the smoke tests (no timing asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_bench(script: str, *args: str, timeout: int = 600) -> str:
    """``python scripts/<script> args…`` from the repository root; its output, after asserting it succeeded."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout
