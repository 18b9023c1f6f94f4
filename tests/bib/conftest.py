"""Fixtures for the BibTeX tests: copies of the sample data (optionally with the
arxiv_meta blocks ``kb paper refresh`` would write from the recorded answers) and
an in-process ``kb`` runner.  Nothing here uses the network."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = ROOT / "tests" / "fixtures" / "arxiv" / "entries"
FEED_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
    'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n'
)


@pytest.fixture(autouse=True)
def offline(monkeypatch, tmp_path):
    monkeypatch.setenv("KB_ARXIV_API_URL", "http://127.0.0.1:9/api/query")
    monkeypatch.setenv("KB_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture
def data_dir(tmp_path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def recorded_meta() -> dict:
    from kb.arxiv import feed

    body = FEED_HEAD + "".join(p.read_text("utf-8") for p in sorted(ENTRIES.glob("*.xml"))) + "</feed>\n"
    _, found = feed.parse(body.encode("utf-8"))
    return found


@pytest.fixture
def refreshed_data_dir(data_dir) -> Path:
    """The sample data with arxiv_meta blocks from the recorded arXiv answers."""
    from kb.data import paperfile

    index = paperfile.scan(data_dir)
    for base, meta in recorded_meta().items():
        paperfile.update_file(index.by_base[base], meta)
    return data_dir


@pytest.fixture
def run_kb(capsys):
    from kb.cli import main

    def run(*argv) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
