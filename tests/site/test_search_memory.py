"""Pagefind runs with the allocator settings that lower its own peak (kb.site.search.index.ALLOCATOR),
also when a plain `mkdocs build` runs it from the plugin, in the build's process."""

from __future__ import annotations

import subprocess
import sys

from kb.site.search.index import ALLOCATOR, pagefind_env
from sitebuild import copy_project

# Stands in for Pagefind: writes a bundle directory with the allocator setting it was given.
FAKE_PAGEFIND = """\
import json, os, pathlib
out = pathlib.Path(json.load(open("pagefind.json"))["output_path"])
out.mkdir(parents=True, exist_ok=True)
(out / "allocator.txt").write_text(os.environ.get({name!r}, ""))
print("Indexed 100000 pages")
"""


def test_a_plain_mkdocs_build_runs_pagefind_with_the_allocator_set(tmp_path):
    fake = tmp_path / "pagefind"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_PAGEFIND.format(name=ALLOCATOR[0]), "utf-8")
    fake.chmod(0o755)
    site = tmp_path / "site"
    project = copy_project(tmp_path / "project")
    env = {"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "KB_CACHE": "off", "PAGEFIND_BINARY_PATH": str(fake)}
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    assert (site / "pagefind" / "allocator.txt").read_text("utf-8") == ALLOCATOR[1]


def test_an_allocator_setting_of_the_environment_is_kept():
    name, value = ALLOCATOR
    assert pagefind_env({"PATH": "/bin"}) == {"PATH": "/bin", name: value}
    assert pagefind_env({name: "narenas:4"})[name] == "narenas:4"
