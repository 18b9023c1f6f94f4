"""Shared fixtures: the repository root, the sample knowledge base, and the site
built once per test session from the sample data (parsed with BeautifulSoup)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sitebuild import build

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sample_kb():
    from kb.knowledge.index import load_kb

    return load_kb(ROOT / "data")


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    dest = tmp_path_factory.mktemp("site")
    run = build(dest)
    assert run.returncode == 0, run.stdout + run.stderr
    (dest / ".build-log").write_text(run.stdout + run.stderr, "utf-8")
    return dest


class Pages:
    def __init__(self, root: Path):
        self.root = root
        self._cache: dict[str, BeautifulSoup] = {}

    def soup(self, rel: str) -> BeautifulSoup:
        if rel not in self._cache:
            self._cache[rel] = BeautifulSoup((self.root / rel).read_text("utf-8"), "lxml")
        return self._cache[rel]

    def article(self, rel: str):
        return self.soup(rel).select_one("article")


@pytest.fixture(scope="session")
def pages(site) -> Pages:
    return Pages(site)
