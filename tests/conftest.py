"""Shared fixtures: the repository root, the sample knowledge base, and the site
built once per test session from the sample data (parsed with BeautifulSoup)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sample_kb():
    from kb.index import load_kb

    return load_kb(ROOT / "data")


def build(dest: Path, env_extra: dict | None = None, data: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env_extra or {})}
    if data is not None:
        env["KB_DATA"] = str(data)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)],
                          cwd=ROOT, capture_output=True, text=True, env=env)


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
