"""The page cache (kb.site.cache) changes nothing a reader sees: a build from a warm cache, and one
after an edit, write exactly the bytes a build without the cache writes, and an edit re-templates
only the pages whose inputs changed, and parses only the data files that changed."""

from __future__ import annotations

import re

from sitebuild import build, built_files, copy_project


def counts(log: str) -> tuple[int, int]:
    m = re.search(r"page cache: (\d+) built from it, (\d+) built anew", log)
    assert m, log
    return int(m.group(1)), int(m.group(2))


def data_files(log: str) -> tuple[int, int]:
    """How many data files the build read back from the cache, how many it parsed (kb.data.recordstore)."""
    m = re.search(r"data files: (\d+) read from the cache, (\d+) parsed", log)
    assert m, log
    return int(m.group(1)), int(m.group(2))


def test_warm_and_edited_builds_equal_builds_without_the_cache(tmp_path):
    project = copy_project(tmp_path / "project")
    cache = {"KB_CACHE": str(tmp_path / "cache")}
    first = build(tmp_path / "first", env_extra=cache, project=project)
    assert first.returncode == 0, first.stderr
    hits, built = counts(first.stderr)
    assert hits == 0 and built > 30
    kept, parsed = data_files(first.stderr)
    assert kept == 0 and parsed > 20

    warm = build(tmp_path / "warm", env_extra=cache, project=project)
    assert warm.returncode == 0, warm.stderr
    assert counts(warm.stderr) == (built, 0)
    assert data_files(warm.stderr) == (parsed, 0)
    off = build(tmp_path / "off", env_extra={"KB_CACHE": "off"}, project=project)
    assert off.returncode == 0, off.stderr
    assert "page cache" not in off.stderr and "data files" not in off.stderr
    assert built_files(tmp_path / "warm") == built_files(tmp_path / "off")

    brief = project / "data" / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = brief.read_text("utf-8")
    assert "\ninstance: Tom\n" in text
    brief.write_text(text.replace("\ninstance: Tom\n", "\ninstance: KBCACHE\n"), "utf-8")
    edited = build(tmp_path / "edited", env_extra=cache, project=project)
    assert edited.returncode == 0, edited.stderr
    hits, anew = counts(edited.stderr)
    assert data_files(edited.stderr) == (parsed - 1, 1)
    assert 0 < anew < 5 and hits == built - anew  # the brief's page and the pages that show who wrote it
    assert "KBCACHE" in (tmp_path / "edited" / "briefs" / "inference" / "2026-09-05-e1" / "index.html").read_text(
        "utf-8"
    )
    off = build(tmp_path / "off-edited", env_extra={"KB_CACHE": "off"}, project=project)
    assert built_files(tmp_path / "edited") == built_files(tmp_path / "off-edited")
    assert len(list((tmp_path / "cache").rglob("*.html"))) == built  # the entries of the old page are gone
