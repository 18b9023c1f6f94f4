"""Pagefind and the build's process are resident at the same time, so while Pagefind indexes the
site the process holds no page's HTML any more (each page's is let go once it is written), and
Pagefind runs with the allocator settings that lower its own peak (kb.site.search.index.ALLOCATOR)."""

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

# A real `mkdocs build`; when Pagefind would start, it counts the pages that still hold HTML.
DRIVER = """\
import gc, sys
from mkdocs.__main__ import cli
from mkdocs.structure.pages import Page
import kb.site.search.index as search

run = search._run
def counted(site_dir, out, stop):
    found = [o for o in gc.get_objects() if isinstance(o, Page)]
    held = [o.file.src_uri for o in found if o.content or o.markdown]
    print("pages", len(found), "holding", len(held), held[:5], file=sys.stderr)
    return run(site_dir, out, stop)
search._run = counted
cli(["build", "--strict", "-q", "-d", {site!r}])
"""


def test_while_pagefind_runs_no_page_holds_its_html_and_the_allocator_is_set(tmp_path):
    fake = tmp_path / "pagefind"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_PAGEFIND.format(name=ALLOCATOR[0]), "utf-8")
    fake.chmod(0o755)
    site = tmp_path / "site"
    project = copy_project(tmp_path / "project")
    env = {"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin", "KB_CACHE": "off", "PAGEFIND_BINARY_PATH": str(fake)}
    run = subprocess.run(
        [sys.executable, "-c", DRIVER.format(site=str(site))], cwd=project, capture_output=True, text=True, env=env
    )
    assert run.returncode == 0, run.stderr
    counts = run.stderr.rsplit("pages ", 1)[1].split()
    assert int(counts[0]) > 10 and counts[1:3] == ["holding", "0"], run.stderr
    assert (site / "pagefind" / "allocator.txt").read_text("utf-8") == ALLOCATOR[1]


def test_an_allocator_setting_of_the_environment_is_kept():
    name, value = ALLOCATOR
    assert pagefind_env({"PATH": "/bin"}) == {"PATH": "/bin", name: value}
    assert pagefind_env({name: "narenas:4"})[name] == "narenas:4"
