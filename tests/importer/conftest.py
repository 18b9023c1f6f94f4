"""The team's seed brief is read at test time from ``shared/seeds/`` beside the repository (CI
has a copy of ``shared/`` beside its clone); its sentences are never copied into the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seeds" / "2026-09-03-inference-e1-brief.txt"


@pytest.fixture(scope="session")
def seed_text() -> str:
    if not SEED.is_file():
        pytest.skip(f"the seed brief is not beside the repository ({SEED.relative_to(ROOT.parent)} is absent)")
    return SEED.read_text("utf-8")
