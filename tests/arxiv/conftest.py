"""Fixtures for the arXiv tooling tests: a fake API on 127.0.0.1, a copy of the
sample data, tiny delays, and a guard so no test can reach the internet."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fakeapi import FakeArxiv

from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    """Default endpoint: a closed local port, so a test that forgets the fake API fails fast."""
    monkeypatch.setenv("KB_ARXIV_API_URL", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("KB_ARXIV_DELAY", "0.01")
    monkeypatch.setenv("KB_ARXIV_BACKOFF", "0.01")
    monkeypatch.setenv("KB_ARXIV_TIMEOUT", "2")
    monkeypatch.setenv("KB_ARXIV_RETRIES", "3")
    monkeypatch.setenv("KB_ARXIV_MAX_TIME", "30")
    monkeypatch.delenv("KB_ARXIV_BATCH_SIZE", raising=False)
    monkeypatch.setenv("KB_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def api(monkeypatch):
    fake = FakeArxiv().start()
    monkeypatch.setenv("KB_ARXIV_API_URL", fake.url)
    yield fake
    fake.stop()


@pytest.fixture
def data_dir(tmp_path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


@pytest.fixture
def run_kb(capsys):
    """Run ``kb`` in-process: returns (exit status, stdout, stderr)."""
    from kb.cli import main

    def run(*argv: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
