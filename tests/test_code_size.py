"""Every function of ``kb`` stays simple enough to read in one sitting: the complexity gate is
ruff's (C901 and PLR0912, at most 15: pyproject.toml), run by scripts/test and pre-commit.  Length
is a guide, not a gate (a file is as long as its meaning needs, never split to meet a count); this
checks that the gate is configured and holds."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kb"


def test_the_complexity_gate_is_configured():
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["ruff"]["lint"]
    assert {"C901", "PLR0912"} <= set(lint["select"])
    assert lint["mccabe"]["max-complexity"] <= 15 and lint["pylint"]["max-branches"] <= 15


def test_no_function_of_the_package_is_over_the_gate():
    ruff = Path(sys.executable).parent / "ruff"
    run = subprocess.run(
        [str(ruff), "check", "--select", "C901,PLR0912", "--output-format", "concise", str(SRC), str(ROOT / "scripts")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
