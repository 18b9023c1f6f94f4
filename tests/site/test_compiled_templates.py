"""The theme's templates compiled once and kept in the build's cache (kb.site.theme.install): a
later build loads them instead of compiling Material's templates again, and an edited template
is compiled again, never served from the cache."""

from __future__ import annotations

from kb.site.theme import TEMPLATES
from sitebuild import build, built_files, copy_project, override

MARK = "<!-- kb-compiled-template-check -->"


def test_kept_templates_follow_their_source(tmp_path):
    project = copy_project(tmp_path / "project")
    cache = tmp_path / "cache"
    env = {"KB_CACHE": str(cache)}
    for name in ("first", "warm"):  # the warm build also renders kb-cached.html (pages from the page cache)
        assert build(tmp_path / name, env_extra=env, project=project).returncode == 0
    kept = {p.name: p.stat().st_mtime_ns for p in (cache / "templates").iterdir()}
    assert len(kept) > 10  # main.html, Material's base.html and its partials, ...

    again = build(tmp_path / "again", env_extra=env, project=project)
    assert again.returncode == 0, again.stderr
    assert {p.name: p.stat().st_mtime_ns for p in (cache / "templates").iterdir()} == kept  # loaded, not rewritten

    text = (TEMPLATES / "main.html").read_text("utf-8")  # the package's, overridden by the project's own
    override(project, "main.html", text.replace("{% block htmltitle %}", "{% block htmltitle %}" + MARK, 1))
    edited = build(tmp_path / "edited", env_extra=env, project=project)
    assert edited.returncode == 0, edited.stderr
    assert MARK in (tmp_path / "edited" / "index.html").read_text("utf-8")
    off = build(tmp_path / "off", env_extra={"KB_CACHE": "off"}, project=project)
    assert off.returncode == 0, off.stderr
    assert built_files(tmp_path / "edited") == built_files(tmp_path / "off")
