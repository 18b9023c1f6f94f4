"""What the build cache reads back is data that must match its key (kb.site.cache and its stores):
an entry that carries another key, is not valid JSON or is JSON of another shape is a miss (made
again, the same result as without the cache), never an error; an entry of the older pickle format
is never loaded, and is pruned; the cache lives outside the checkout (a directory inside it is
refused); and the files a checkout carries under ``.cache/`` are located errors (kb.site.tracked)."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
from pathlib import Path

import pytest

from kb.bib.entrystore import EntryStore
from kb.data.loader import load
from kb.data.recordstore import RecordStore
from kb.knowledge.index import paper_page
from kb.knowledge.load import load_kb
from kb.knowledge.mentionstore import MentionStore
from kb.site import cache, tracked
from kb.site.pages import inputs
from kb.site.pages.files import BIB_FILE
from kb.site.pages.layout import Options, build_site
from kb.site.pages.rendercache import Finished, RenderCache
from sitebuild import FIXTURE_DATA


@pytest.fixture
def data(tmp_path: Path) -> Path:
    dest = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, dest)
    return dest


def records(loaded: object) -> dict[str, object]:
    return {kind: {k: r for k, (r, _) in getattr(loaded, kind).items()} for kind in ("topics", "papers", "briefs")}


def test_a_record_entry_with_another_key_or_shape_is_a_miss(data: Path, tmp_path: Path) -> None:
    store = RecordStore(tmp_path / "records")
    plain = records(load(data))
    load(data, memo=store)
    files = store.misses
    first, second, third = sorted(store.root.glob("*/*.json"))[:3]
    second.write_bytes(first.read_bytes())  # a valid entry of another file, under this file's key
    third.write_text('{"key": "%s", "text": "", "record": {"id": 1}}' % third.stem, "utf-8")  # noqa: UP031
    again = load(data, memo=store)
    assert (store.hits, store.misses) == (files - 2, 2)
    assert records(again) == plain


def test_an_older_pickle_entry_is_never_loaded_and_is_pruned(data: Path, tmp_path: Path) -> None:
    marker = tmp_path / "marker"

    class Run:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return exec, (f"open({str(marker)!r}, 'w').write('ran')",)

    store = RecordStore(tmp_path / "records")
    load(data, memo=store)
    entry = sorted(store.root.glob("*/*.json"))[0]
    old = entry.with_suffix(".pickle")
    old.write_bytes(pickle.dumps(Run()))  # the entry's key, in the format the cache once had
    entry.unlink()
    assert records(load(data, memo=store)) == records(load(data))
    store.prune()
    assert not marker.exists() and not old.exists() and entry.exists()


def test_a_finished_page_under_another_key_is_a_miss(tmp_path: Path) -> None:
    kb = load_kb(FIXTURE_DATA)
    pages = [paper_page(pid) for pid in list(kb.papers)[:2]]
    kept = RenderCache(tmp_path / "finished", "salt")
    kept.start(inputs(kb, kept_only=True), {}, "options", kb)
    kept.put(pages[0], Finished("<p>kept</p>", [], frozenset(), {}, frozenset(), None, None))
    path = tmp_path / "finished" / kept.keys[pages[1]][:2] / f"{kept.keys[pages[1]]}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(next((tmp_path / "finished").rglob("*.json")), path)
    again = RenderCache(tmp_path / "finished", "salt")
    again.start(inputs(kb, kept_only=True), {}, "options", kb)
    assert again.get(pages[1]) is None and again.get(pages[0]) is not None
    path.write_text('{"key": "%s", "content": 1}' % kept.keys[pages[1]], "utf-8")  # noqa: UP031
    assert again.get(pages[1]) is None


def test_a_built_page_under_another_key_is_a_miss(tmp_path: Path) -> None:
    pages = cache.PageCache(tmp_path / "pages", "salt")
    mine, other = pages.key(["mine"]), pages.key(["other"])
    pages.put(mine, "<p>mine</p>")
    there = tmp_path / "pages" / other[:2] / f"{other}.html"
    there.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(tmp_path / "pages" / mine[:2] / f"{mine}.html", there)
    assert pages.get(other) is None and pages.get(mine) == "<p>mine</p>"
    there.write_text("<script>alert(1)</script>", "utf-8")  # a page without its key (the older format)
    assert pages.get(other) is None and (pages.hits, pages.misses) == (1, 2)


@pytest.mark.parametrize("value", ['"not the shape"', '{"x": {"token": 1}}', "[1, 2]"])
def test_mentions_and_entries_of_another_shape_are_made_again(data: Path, tmp_path: Path, value: str) -> None:
    where = tmp_path / "cache"
    mentions, bibtex = MentionStore(where / "mentions.json"), EntryStore(where / "bibtex.json")
    build_site(Options(data, records=RecordStore(where / "records"), mentions=mentions, bibtex=bibtex))
    for store in (mentions, bibtex):
        store.path.write_text('{"salt": "%s", "value": %s}' % (store.salt, value), "utf-8")  # noqa: UP031
    mentions, bibtex = MentionStore(where / "mentions.json"), EntryStore(where / "bibtex.json")
    site = build_site(Options(data, records=RecordStore(where / "records"), mentions=mentions, bibtex=bibtex))
    assert mentions.reused == 0 and bibtex.reused == 0
    plain = build_site(Options(data))
    assert site.kb.mentions == plain.kb.mentions and site.generated[BIB_FILE] == plain.generated[BIB_FILE]


def test_the_cache_is_outside_the_project_and_one_inside_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    project, other, home = tmp_path / "project", tmp_path / "other", tmp_path / "home-cache"
    project.mkdir()
    other.mkdir()
    monkeypatch.delenv(cache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    where = cache.location(project)
    assert where is not None and where.is_relative_to(home / "kb") and not where.is_relative_to(project)
    assert cache.location(project) == where != cache.location(other)  # one directory per checkout
    for inside in (".cache/kb", ".", "data/x", str(project / "deep")):
        monkeypatch.setenv(cache.ENV, inside)
        with caplog.at_level("WARNING"):
            assert cache.location(project) is None and cache.records(project) is None
        assert f"KB_CACHE={inside}: the cache directory" in caplog.text and "the build cache is off" in caplog.text
    monkeypatch.setenv(cache.ENV, str(other / "cache"))
    assert cache.location(project) == other / "cache"
    monkeypatch.setenv(cache.ENV, "off")
    assert cache.location(project) is None
    monkeypatch.delenv(cache.ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(project / ".cache"))  # the user's cache in the checkout
    assert cache.location(project) is None


def git(repo: Path, *args: str) -> None:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    env |= {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
    env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def test_files_git_tracks_under_dot_cache_are_located_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    repo = tmp_path / "repo"
    for name in (".cache/kb/records/ab/x.pickle", ".cache/arxiv/2505.02922.json", ".cache/kb/untracked", "a.txt"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text("x", "utf-8")
    (repo / ".gitignore").write_text("/.cache/\n", "utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "a.txt", ".gitignore")
    git(repo, "add", "-f", ".cache/kb/records/ab/x.pickle", ".cache/arxiv/2505.02922.json")
    found = tracked.check(repo)
    assert [(d.path, d.line, d.col, d.code, d.is_error) for d in found] == [
        ("repo/.cache/arxiv/2505.02922.json", 1, 1, "tracked-cache", True),
        ("repo/.cache/kb/records/ab/x.pickle", 1, 1, "tracked-cache", True),
    ]
    assert "git rm --cached -- '.cache/kb/records/ab/x.pickle'" in found[1].message


def test_without_git_the_files_under_dot_cache_kb_are_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # no repository above it either
    for name in (".cache/kb/mentions.pickle", ".cache/kb/preview/index.html"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x", "utf-8")
    assert [(d.path, d.code) for d in tracked.check(tmp_path)] == [(".cache/kb/mentions.pickle", "tracked-cache")]
