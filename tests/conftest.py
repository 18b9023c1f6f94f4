"""Shared fixtures: the repository root, the frozen knowledge base of the tests
(``tests/fixtures/kb``), and its site built once per test session (parsed with
BeautifulSoup).  Nothing here reads the live ``data/``."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from sitebuild import FIXTURE_DATA, TEAM, build, copy_project

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    """Builds keep their cache in the user's cache directory (kb.site.cache): the tests' in one of
    their own ($XDG_CACHE_HOME, inherited by every build they run), removed when they end."""
    config._kb_cache_home = tempfile.mkdtemp(prefix="kb-test-cache-")  # type: ignore[attr-defined]
    os.environ["XDG_CACHE_HOME"] = config._kb_cache_home  # type: ignore[attr-defined]


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(getattr(config, "_kb_cache_home", ""), ignore_errors=True)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sample_kb():
    from kb.knowledge.load import load_kb

    return load_kb(FIXTURE_DATA)


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("project"))
    dest = tmp_path_factory.mktemp("site")
    run = build(dest, project=project)
    assert run.returncode == 0, run.stdout + run.stderr
    (dest / ".build-log").write_text(run.stdout + run.stderr, "utf-8")
    (dest / ".project").write_text(str(project), "utf-8")
    return dest


@pytest.fixture(scope="session")
def team_site(tmp_path_factory) -> Path:
    """The site of three topics (``tests/fixtures/team``), built once per session as CI builds."""
    project = copy_project(tmp_path_factory.mktemp("team-project"), fixture=TEAM)
    dest = tmp_path_factory.mktemp("team-site")
    run = build(dest, project=project)
    assert run.returncode == 0, run.stdout + run.stderr
    return dest


@pytest.fixture(scope="session")
def team_kb():
    from kb.knowledge.load import load_kb

    return load_kb(TEAM / "data")


class Pages:
    def __init__(self, root: Path):
        self.root = root
        self._cache: dict[str, BeautifulSoup] = {}

    def soup(self, rel: str) -> BeautifulSoup:
        """The page as a reader sees it: what it hides (``hidden``: the marks and words it carries
        for the search index, kb.site.search) is left out; not a sidebar Material hides on a
        desktop (a page that is a tab of its own): the phone's drawer shows it."""
        if rel not in self._cache:
            soup = BeautifulSoup((self.root / rel).read_text("utf-8"), "lxml")
            for gone in soup.select("[hidden]:not(.md-sidebar)"):
                gone.decompose()
            soup.smooth()  # the text around a hidden element is one string again, as it reads
            self._cache[rel] = soup
        return self._cache[rel]

    def article(self, rel: str):
        return self.soup(rel).select_one("article")


@pytest.fixture(scope="session")
def pages(site) -> Pages:
    return Pages(site)


@pytest.fixture(scope="session")
def team_pages(team_site) -> Pages:
    return Pages(team_site)
