"""Directories made aside and swapped in (the search bundle, an edition): readable as a plain
``mkdir`` makes them, and a swap that fails halfway puts the old directory back."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.data import atomic
from kb.data.atomic import new_dir
from kb.site.search import index as search_index


def mkdir_mode(tmp_path: Path) -> int:
    plain = tmp_path / "plain"
    plain.mkdir()
    return plain.stat().st_mode & 0o777


def test_a_new_directory_has_the_mode_mkdir_gives(tmp_path):
    made = new_dir(tmp_path, ".kb-x-")
    assert made.parent == tmp_path and made.name.startswith(".kb-x-") and not any(made.iterdir())
    assert made.stat().st_mode & 0o777 == mkdir_mode(tmp_path)


def test_the_umask_decides_the_mode(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "_UMASK", 0o027)  # read once, as the module loads
    assert atomic.new_dir(tmp_path, ".kb-y-").stat().st_mode & 0o777 == 0o750


def test_swap_in_replaces_the_directory(tmp_path):
    out, made = tmp_path / "pagefind", tmp_path / ".kb-pagefind-1"
    out.mkdir()
    (out / "old.txt").write_text("old")
    made.mkdir()
    (made / "new.txt").write_text("new")
    search_index.swap_in(made, out)
    assert [p.name for p in out.iterdir()] == ["new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pagefind"]


def test_a_swap_that_fails_halfway_puts_the_old_directory_back(tmp_path, monkeypatch):
    out, made = tmp_path / "pagefind", tmp_path / ".kb-pagefind-1"
    out.mkdir()
    (out / "old.txt").write_text("old")
    made.mkdir()
    rename = Path.rename

    def refused(self: Path, target: Path) -> Path:
        if self == made:  # as Windows refuses while a file of the target is open
            raise PermissionError(13, "in use", str(target))
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", refused)
    with pytest.raises(PermissionError):
        search_index.swap_in(made, out)
    assert (out / "old.txt").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".kb-pagefind-1", "pagefind"]
