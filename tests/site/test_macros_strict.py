"""Macros: usable from reviewed hand-written pages; any macro error or undefined
variable fails the build."""

from __future__ import annotations

import os
import subprocess
import sys

from bs4 import BeautifulSoup

from sitebuild import copy_project


def build_in(project):
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def test_brief_macro_from_a_hand_written_page(tmp_path):
    project = copy_project(tmp_path)
    index = project / "docs" / "index.md"
    index.write_text(index.read_text("utf-8") + '\n\n{{ brief("inference/2026-09-01-e1") }}\n', "utf-8")
    run = build_in(project)
    assert run.returncode == 0, run.stdout + run.stderr
    soup = BeautifulSoup((project / "site" / "index.html").read_text("utf-8"), "lxml")
    assert "ReplaySSM" in soup.select_one("article").get_text()


def test_undefined_variable_fails_the_build(tmp_path):
    project = copy_project(tmp_path)
    page = project / "docs" / "inference.md"
    page.write_text(page.read_text("utf-8") + "\n\n{{ no_such_variable }}\n", "utf-8")
    run = build_in(project)
    assert run.returncode != 0
    assert "no_such_variable" in run.stdout + run.stderr


def test_macro_error_fails_the_build(tmp_path):
    project = copy_project(tmp_path)
    page = project / "docs" / "inference.md"
    page.write_text(page.read_text("utf-8") + '\n\n{{ section("no-such-section") }}\n', "utf-8")
    run = build_in(project)
    assert run.returncode != 0
    assert "no-such-section" in run.stdout + run.stderr
