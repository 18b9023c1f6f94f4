"""Mentions kept between builds (kb.knowledge.mentionstore): a load that reads them back equals
one that collects them all, after every kind of edit, and collects only what the edit reaches."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.data.recordstore import RecordStore
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import load_kb
from kb.knowledge.mentionstore import MentionStore
from sitebuild import FIXTURE_DATA

UNKNOWN_ID = "2609.02812"  # written in the fixture's briefs, no paper file has it


@pytest.fixture
def data(tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def cached(data: Path, where: Path) -> tuple[KnowledgeBase, MentionStore]:
    store = MentionStore(where / "mentions.json")
    kb = load_kb(data, records=RecordStore(where / "records"), mentions=store)
    return kb, store


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


def records(kb: KnowledgeBase) -> int:
    return len(kb.briefs) + len(kb.papers)


def test_a_second_build_reads_every_record_s_mentions_back(data, tmp_path):
    first, store = cached(data, tmp_path / "cache")
    assert (store.reused, store.made) == (0, records(first))
    second, store = cached(data, tmp_path / "cache")
    assert (store.reused, store.made) == (records(second), 0)
    assert second.mentions == load_kb(data).mentions == first.mentions


def test_an_edited_brief_alone_is_collected_again(data, tmp_path):
    cached(data, tmp_path / "cache")
    edit(
        data / "briefs" / "inference" / "2026-09-03-e1.yaml", "\ncharacter:\n  title: ", "\ncharacter:\n  title: 新词 "
    )
    kb, store = cached(data, tmp_path / "cache")
    assert store.made == 1
    assert kb.mentions == load_kb(data).mentions


def test_a_new_paper_for_an_id_already_written_reaches_the_records_that_wrote_it(data, tmp_path):
    before, _ = cached(data, tmp_path / "cache")
    writing = {m.place.brief or m.place.page for m in before.mentions if m.arxiv == UNKNOWN_ID and m.paper is None}
    assert writing
    (data / "papers" / "newcomer.yaml").write_text(
        f"id: newcomer\narxiv: '{UNKNOWN_ID}'\nshort: Newcomer\ntitle: Newcomer\ncategory:\n  primary: inference\n",
        "utf-8",
    )
    kb, store = cached(data, tmp_path / "cache")
    fresh = load_kb(data)
    assert kb.mentions == fresh.mentions
    assert {m.place.brief or m.place.page for m in kb.mentions if m.paper == "newcomer"} == writing
    assert store.made == len(writing) + 1  # those records and the new paper's own


def test_a_renamed_paper_reaches_the_briefs_that_name_it(data, tmp_path):
    cached(data, tmp_path / "cache")
    edit(data / "papers" / "albireo.yaml", "short: Albireo", "short: Albireo2")
    kb, store = cached(data, tmp_path / "cache")
    fresh = load_kb(data)
    assert kb.mentions == fresh.mentions
    naming = {m.place.brief for m in fresh.mentions if m.paper == "albireo" and m.explicit and m.place.brief}
    assert naming and store.made == len(naming) + 1


def test_a_removed_paper_reaches_the_records_that_wrote_its_id(data, tmp_path):
    before, _ = cached(data, tmp_path / "cache")
    (data / "papers" / "albireo.yaml").write_text(
        "id: albireo\nshort: Albireo\ntitle: Albireo\ncategory:\n  primary: inference\n", "utf-8"
    )  # no arXiv id any more: ids written as text stand for no paper
    kb, _ = cached(data, tmp_path / "cache")
    assert any(m.arxiv == "2606.01927" and m.paper == "albireo" for m in before.mentions)
    assert kb.mentions == load_kb(data).mentions


@pytest.mark.parametrize("content", [b"", b"not json", None])
def test_an_unreadable_or_foreign_store_is_made_again(data, tmp_path, content):
    cached(data, tmp_path / "cache")
    path = tmp_path / "cache" / "mentions.json"
    if content is None:  # kept by other code
        MentionStore(path, salt="other").save(MentionStore(path).load(), made=True)
    else:
        path.write_bytes(content)
    kb, store = cached(data, tmp_path / "cache")
    assert (store.reused, store.made) == (0, records(kb))
    assert kb.mentions == load_kb(data).mentions


def test_a_reworded_place_name_makes_the_kept_mentions_stale(data, tmp_path, monkeypatch):
    """A mention's place is named in the catalogue's words (沿用件, 增量 N · …): a build after
    they change names its places anew, not as the kept mentions did."""
    from kb import messages

    cached(data, tmp_path / "cache")
    monkeypatch.setitem(messages.UI, "sighting.carried", "沿用")
    kb, store = cached(data, tmp_path / "cache")
    assert (store.reused, store.made) == (0, records(kb))
    assert any(m.place.label == "沿用" for m in kb.mentions)
