"""Cache on and off give the same site at scale: a synthetic knowledge base of about a thousand pages
is built with the caches on (cold, then warm after one more brief arrives) and with them off, and
every built file but the search bundle (whose file names carry a run's hashes) is byte-identical."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import kbsynth as synth
from sitebuild import build, built_files, copy_project

pytestmark = pytest.mark.slow


def _project(tmp: Path) -> Path:
    project = copy_project(tmp / "project")
    shutil.rmtree(project / "data")
    synth.write(synth.build(briefs=150, papers=800, seed=7), project / "data")
    return project


def _differing(a: Path, b: Path) -> list[str]:
    left, right = built_files(a), built_files(b)  # (not the search bundle)
    return sorted(k for k in left.keys() | right.keys() if left.get(k) != right.get(k))


def test_a_synthetic_site_is_the_same_with_the_caches_on_and_off(tmp_path):
    project = _project(tmp_path)
    cache = {"KB_CACHE": str(tmp_path / "cache")}
    briefs = sorted((project / "data" / "briefs").rglob("*.yaml"))
    newest = briefs[-1]
    held = newest.read_text("utf-8")
    newest.unlink()  # arrives between the two cached builds
    run = build(tmp_path / "cold", env_extra=cache, project=project)
    assert run.returncode == 0, run.stderr
    newest.write_text(held, "utf-8")
    warm = build(tmp_path / "warm", env_extra=cache, project=project)
    assert warm.returncode == 0, warm.stderr
    assert "finished pages: 0 from the cache" not in warm.stderr  # the warm build took pages from it
    off = build(tmp_path / "off", env_extra={"KB_CACHE": "off"}, project=project)
    assert off.returncode == 0, off.stderr
    pages = [p for p in built_files(tmp_path / "off") if p.endswith(".html")]
    assert len(pages) > 900, len(pages)
    assert _differing(tmp_path / "warm", tmp_path / "off") == []
