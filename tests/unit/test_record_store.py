"""The records kept between builds (kb.data.recordstore) change nothing a load returns: the same
records, sources and diagnostics as parsing, for valid and broken data (a file with a mistake is
not kept: parsed each time); an edited file is parsed again and its old entry removed; an entry
that cannot be read back, or that other code kept, is parsed again; a store that cannot be written
to still loads."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kb.data.loader import Loaded, load
from kb.data.recordstore import RecordStore
from overlay import materialize
from sitebuild import FIXTURE_DATA


def entries(store: RecordStore) -> list[Path]:
    return sorted(store.root.glob("*/*.json"))


def summary(loaded: Loaded) -> dict[str, object]:
    """Everything a load returns, comparable: each record with where its keys are, and every
    diagnostic."""
    out: dict[str, object] = {"diagnostics": [d.text() for d in loaded.diagnostics], "failed": loaded.failed}
    for kind in ("topics", "papers", "briefs", "demos"):
        table = getattr(loaded, kind)
        out[kind] = {
            key: (record, source.path, source.located.positions, source.located.key_positions)
            for key, (record, source) in table.items()
        }
    return out


@pytest.fixture
def data(tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def test_a_load_from_the_store_equals_parsing(data: Path, tmp_path: Path) -> None:
    parsed = summary(load(data))
    store = RecordStore(tmp_path / "records")
    first = load(data, memo=store)
    files = store.misses
    assert store.hits == 0 and files > 20
    assert summary(first) == parsed
    again = load(data, memo=store)
    assert (store.hits, store.misses) == (files, 0)
    assert summary(again) == parsed
    assert len(entries(store)) == files


@pytest.mark.parametrize("case", ["missing-and-unknown-keys", "malformed-arxiv-id", "misplaced-file"])
def test_broken_data_says_the_same_from_the_store(case: str, tmp_path: Path) -> None:
    data = materialize("broken", case, tmp_path / case) / "data"
    parsed = summary(load(data))
    assert parsed["diagnostics"], case
    store = RecordStore(tmp_path / "records")
    load(data, memo=store)
    assert store.misses > 0
    broken = {d.path for d in load(data).diagnostics}
    again = load(data, memo=store)
    assert store.misses <= len(broken) and store.hits > 0  # the broken files at most
    assert summary(again) == parsed


def test_an_edited_file_is_parsed_again_and_its_old_entry_removed(data: Path, tmp_path: Path) -> None:
    store = RecordStore(tmp_path / "records")
    load(data, memo=store)
    files = store.misses
    brief = data / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = brief.read_text("utf-8")
    assert "\ninstance: Tom\n" in text
    brief.write_text(text.replace("\ninstance: Tom\n", "\ninstance: KBSTORE\n"), "utf-8")
    edited = load(data, memo=store)
    assert (store.hits, store.misses) == (files - 1, 1)
    assert edited.briefs["inference/2026-09-05-e1"][0].instance == "KBSTORE"
    assert summary(edited) == summary(load(data))
    assert len(entries(store)) == files  # the entry of the old bytes is gone
    brief.unlink()
    load(data, memo=store)
    assert len(entries(store)) == files - 1


def test_unreadable_or_foreign_entries_are_parsed_again(data: Path, tmp_path: Path) -> None:
    store = RecordStore(tmp_path / "records")
    parsed = summary(load(data, memo=store))
    files = store.misses
    half, other = entries(store)[:2]
    half.write_bytes(half.read_bytes()[:10])  # a half-written file
    other.write_bytes(b'{"key": "not this one"}')
    again = load(data, memo=store)
    assert (store.hits, store.misses) == (files - 2, 2)
    assert summary(again) == parsed
    load(data, memo=store)
    assert store.misses == 0  # both written again
    newer = RecordStore(tmp_path / "records", salt="other code")
    assert summary(load(data, memo=newer)) == parsed
    assert newer.hits == 0 and len(entries(newer)) == files  # the other code's entries removed


def test_a_store_that_cannot_be_written_still_loads(data: Path, tmp_path: Path) -> None:
    root = tmp_path / "records"
    root.write_text("a file where the store's directory would be", "utf-8")  # no directory can be made
    store = RecordStore(root)
    assert summary(load(data, memo=store)) == summary(load(data))
    assert store.misses > 20 and store.hits == 0


def test_kb_validate_beside_a_project_keeps_the_records_and_says_the_same(data: Path, tmp_path: Path) -> None:
    """``kb validate`` of a project's data (a mkdocs.yml beside it) shares the build's store: the
    second run reads every file back and prints the same problems, every one located."""
    import subprocess
    import sys

    (tmp_path / "mkdocs.yml").write_text("site_name: test\n", "utf-8")
    paper = next((data / "papers").glob("*.yaml"))
    paper.write_text(paper.read_text("utf-8") + "venue_typo: NeurIPS\n", "utf-8")

    xdg = tmp_path.with_name(tmp_path.name + "-xdg")  # the user's cache: outside the project

    def validate() -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k != "KB_CACHE"} | {"XDG_CACHE_HOME": str(xdg)}
        cmd = [sys.executable, "-m", "kb", "validate", "--strict"]
        return subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)

    first = validate()
    assert first.returncode == 1 and f"data/papers/{paper.name}:" in first.stderr
    assert "venue_typo" in first.stderr
    (where,) = (xdg / "kb").iterdir()  # the user's cache, for this project
    store = RecordStore(where / "records")
    kept = {path: path.stat().st_ino for path in entries(store)}
    assert len(kept) > 20
    again = validate()
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)
    assert {path: path.stat().st_ino for path in entries(store)} == kept  # read back, none parsed and written again
