"""kb.data.safefile.walk lists a contributed tree without following links, and the loader
relies on it: a file inside a symlinked directory is never read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kb.data.loader import load
from kb.data.safefile import walk

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures"


def test_walk_names_every_kind_and_never_enters_a_linked_directory(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "top.yaml").write_text("x")
    (root / "a" / "b" / "deep.yaml").write_text("x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.yaml").write_text("x")
    (root / "a" / "linked").symlink_to(outside, target_is_directory=True)
    (root / "a" / "file-link.yaml").symlink_to(outside / "secret.yaml")
    os.mkfifo(root / "a" / "pipe")
    entries = walk(root)
    assert [(e.rel, e.kind) for e in entries] == [
        ("a/b/deep.yaml", "file"),
        ("a/file-link.yaml", "symlink"),
        ("a/linked", "symlink"),
        ("a/pipe", "special"),
        ("top.yaml", "file"),
    ]
    assert all(e.path == root / e.rel for e in entries)


def test_a_record_inside_a_linked_directory_is_refused_not_read(tmp_path: Path) -> None:
    data = tmp_path / "data"
    shutil.copytree(FIXTURE / "kb" / "data", data)
    briefs = data / "briefs"
    topic = next(p for p in briefs.iterdir() if p.is_dir())
    moved = tmp_path / "elsewhere"
    shutil.move(topic, moved)
    topic.symlink_to(moved, target_is_directory=True)
    loaded = load(data)
    assert not any(key.startswith(topic.name + "/") for key in loaded.briefs)
    said = [d for d in loaded.diagnostics if d.path.endswith(f"briefs/{topic.name}")]
    assert said and "symbolic link" in said[0].message
