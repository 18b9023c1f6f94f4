"""Small data sets for the rule tests: the valid base ``tests/fixtures/base/data``
with one case's files laid over it (``tests/fixtures/<group>/<case>/data`` holds
only what differs), so a case shows its mistake and nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BASE = FIXTURES / "base" / "data"


def cases(group: str) -> list[str]:
    return sorted(p.name for p in (FIXTURES / group).iterdir() if p.is_dir())


def materialize(group: str, case: str, dest: Path) -> Path:
    """``dest`` holding ``data/``: the base with the case's files laid over it."""
    shutil.copytree(BASE, dest / "data")
    overlay = FIXTURES / group / case / "data"
    for path in sorted(overlay.rglob("*")):
        if path.is_file():
            target = dest / "data" / path.relative_to(overlay)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return dest
