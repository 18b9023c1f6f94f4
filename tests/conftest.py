"""Shared fixtures: the repository root and the sample knowledge base."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sample_kb():
    from kb.index import load_kb

    return load_kb(ROOT / "data")
