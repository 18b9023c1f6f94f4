"""BibTeX entries kept between builds (kb.bib.entrystore): the library a build writes with the
kept entries equals one written from scratch after every kind of edit, and only what an edit
reaches is written again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.bib.entrystore import EntryStore
from kb.data.recordstore import RecordStore
from kb.site.pages.files import BIB_FILE
from kb.site.pages.layout import Options, build_site
from sitebuild import FIXTURE_DATA

CITABLE = 8  # of the fixture's 21 papers, given authors (the rest have no full title or no year)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """The fixture's papers, each given an author: an entry is offered only with one."""
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    for paper in (dest / "papers").glob("*.yaml"):
        text = paper.read_text("utf-8")
        if "\nauthors:" not in text:
            paper.write_text(text + "authors: [Ada Lovelace]\n", "utf-8")
    return dest


def library(data: Path, where: Path | None) -> tuple[str, EntryStore | None]:
    if where is None:
        return build_site(Options(data)).generated[BIB_FILE], None
    store = EntryStore(where / "bibtex.json")
    site = build_site(Options(data, records=RecordStore(where / "records"), bibtex=store))
    return site.generated[BIB_FILE], store


def test_a_second_build_reads_every_entry_back(data, tmp_path):
    first, store = library(data, tmp_path / "cache")
    assert store is not None and store.reused == 0 and first.count("@") == CITABLE
    second, store = library(data, tmp_path / "cache")
    assert store is not None and store.reused == CITABLE
    assert second == first == library(data, None)[0]


def test_an_edited_paper_s_entry_is_written_again(data, tmp_path):
    library(data, tmp_path / "cache")
    path = data / "papers" / "cascade.yaml"
    path.write_text(path.read_text("utf-8").replace("published: 2026-08", "published: 2026-09"), "utf-8")
    kept, store = library(data, tmp_path / "cache")
    assert store is not None and store.reused == CITABLE - 1
    assert kept == library(data, None)[0] and "month = sep" in kept


def test_an_entry_whose_key_changed_is_written_again(data, tmp_path):
    library(data, tmp_path / "cache")
    twin = (data / "papers" / "cascade.yaml").read_text("utf-8")
    twin = twin.replace("id: cascade", "id: cascade-twin").replace("2608.06557", "2608.06560")
    (data / "papers" / "cascade-twin.yaml").write_text(twin, "utf-8")
    kept, store = library(data, tmp_path / "cache")
    assert "{lovelace2026cascadea," in kept and "{lovelace2026cascadeb," in kept
    assert store is not None and store.reused == CITABLE - 1  # cascade: same file, new key
    assert kept == library(data, None)[0]


@pytest.mark.parametrize("content", [b"", b"not json"])
def test_an_unreadable_store_is_written_again(data, tmp_path, content):
    library(data, tmp_path / "cache")
    (tmp_path / "cache" / "bibtex.json").write_bytes(content)
    kept, store = library(data, tmp_path / "cache")
    assert store is not None and store.reused == 0
    assert kept == library(data, None)[0]
    assert library(data, tmp_path / "cache")[1].reused == CITABLE  # type: ignore[union-attr]
