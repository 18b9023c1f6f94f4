"""``kb build`` (kb.cli.build, kb.site.search.index): the site ``mkdocs build`` makes, with the search
index made by Pagefind's command line once MkDocs' process has ended."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kb.cli import build
from kb.site.search import index as search_index
from sitebuild import copy_project

# Stands in for Pagefind: says which process started it, and how many other processes that one has.
FAKE_PAGEFIND = """\
import json, os, pathlib
out = pathlib.Path(json.load(open("pagefind.json"))["output_path"])
out.mkdir(parents=True, exist_ok=True)
parent = pathlib.Path(f"/proc/{os.getppid()}/cmdline").read_bytes().replace(b"\\0", b" ").decode()
tasks = pathlib.Path(f"/proc/{os.getppid()}/task").iterdir()
others = {c for t in tasks for c in (t / "children").read_text().split()} - {str(os.getpid())}
(out / "started-by.txt").write_text(parent + "\\n" + str(len(others)))
print("Indexed 100000 pages")
"""


def _kb_build(project: Path, site: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS")}
    return subprocess.run(
        [sys.executable, "-m", "kb", "build", "--strict", "-d", str(site), *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={**base, "NO_MKDOCS_2_WARNING": "1", "KB_CACHE": "off", **(env or {})},
    )


def test_kb_build_makes_the_site_mkdocs_build_makes(tmp_path, site):
    """Page for page the same bytes, and a search index with the same pages (Pagefind names each
    page's fragment by a hash of its content)."""
    project = Path((site / ".project").read_text("utf-8"))
    alone = tmp_path / "alone"
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS", search_index.LATER_ENV)}
    run = subprocess.run(  # without the cache: nothing of kb build's pages or index is reused
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(alone)],
        cwd=project,
        capture_output=True,
        text=True,
        env={**env, "NO_MKDOCS_2_WARNING": "1", "KB_CACHE": "off"},
    )
    assert run.returncode == 0, run.stderr
    log = (site / ".build-log").read_text("utf-8")
    m = re.search(r"kb: search index of (\d+) pages in [\d.]+ s \(\d+ KB, \d+ files\)", log)
    assert m is not None and int(m.group(1)) > 20, log

    def html(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.html")}

    ours, theirs = html(site), html(alone)
    assert ours.keys() == theirs.keys() and len(ours) > 20
    assert [name for name in ours if ours[name] != theirs[name]] == []

    def fragments(root: Path) -> list[str]:
        return sorted(p.name for p in (root / "pagefind" / "fragment").iterdir())

    assert fragments(site) == fragments(alone) and len(fragments(site)) == int(m.group(1))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stand-in reads /proc")
def test_the_index_is_made_after_the_mkdocs_process_has_ended(tmp_path):
    """Pagefind's parent is kb build's own process, and its `mkdocs build` has ended."""
    fake = tmp_path / "pagefind"
    fake.write_text(f"#!{sys.executable}\n" + FAKE_PAGEFIND, "utf-8")
    fake.chmod(0o755)
    project, site = copy_project(tmp_path / "project"), tmp_path / "site"
    run = _kb_build(project, site, env={"PAGEFIND_BINARY_PATH": str(fake)})
    assert run.returncode == 0, run.stderr
    parent, running = (site / "pagefind" / "started-by.txt").read_text("utf-8").splitlines()
    assert " -m kb build " in parent and "mkdocs" not in parent
    assert running == "0"


def test_a_failed_build_is_not_indexed_and_fails_kb_build(tmp_path):
    project, site = copy_project(tmp_path / "project"), tmp_path / "site"
    (project / "docs" / "broken.md").write_text("# Broken\n\n[nowhere](missing.md)\n", "utf-8")
    run = _kb_build(project, site)
    assert run.returncode == 1
    assert "missing.md" in run.stderr and "search index" not in run.stderr
    assert not (site / "pagefind").exists()


def test_a_mistake_in_kb_builds_options_is_one_line(tmp_path):
    run = _kb_build(tmp_path, tmp_path / "site", "--data", str(tmp_path / "nowhere"))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.strip() == f"error: --data: {tmp_path / 'nowhere'} is not a directory"


def test_what_the_build_leaves_reads_back_and_only_for_its_parent(tmp_path, monkeypatch):
    note = tmp_path / "left.json"
    monkeypatch.delenv(search_index.LATER_ENV, raising=False)
    assert not search_index.leave("/site", 7)  # mkdocs build alone: it indexes now
    monkeypatch.setenv(search_index.LATER_ENV, f"{os.getpid()}:{note}")  # another process's
    assert not search_index.leave("/site", 7)  # (mkdocs serve in a shell it was exported to): it indexes now
    assert search_index.left(note) is None
    monkeypatch.setenv(search_index.LATER_ENV, f"{os.getppid()}:{note}")  # the parent's
    assert search_index.leave("/site", 7)
    assert search_index.left(note) == (Path("/site"), 7)


def test_the_index_step_loads_without_the_data_layer():
    """What `kb build` loads to index the site once MkDocs has ended (kb.site.search.index):
    the index code, the marks' names from the message catalogue, no data models or MkDocs."""
    probe = (
        "import sys\nimport kb.site.search.index\n"
        "print(sorted(set(sys.modules) & {'pydantic', 'kb.data.models', 'kb.knowledge.index', 'mkdocs'}))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "[]", run.stdout + run.stderr


def test_kb_build_starts_without_the_data_layer():
    """Only the command's own module is imported: `kb build` starts without the models the other
    commands load (its process waits beside MkDocs' holding none of them); `kb --help` still lists
    every command."""
    probe = (
        "import contextlib, sys\nfrom kb.cli import main\n"
        "with contextlib.suppress(SystemExit): main(['build', '--help'])\n"
        "print(sorted(set(sys.modules) & {'pydantic', 'kb.data.loader', 'mkdocs'}))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.splitlines()[-1] == "[]", run.stdout + run.stderr
    listing = subprocess.run([sys.executable, "-m", "kb", "--help"], capture_output=True, text=True).stdout
    assert all(
        f"    {name}" in listing for name in ("validate", "status", "paper", "bib", "new", "schema", "preview", "build")
    )


# kb build as a script, subprocess.Popen watched: what is loaded when the build's process starts.
WATCHED = """\
import subprocess, sys
real = subprocess.Popen
class Watched(real):
    def __init__(self, cmd, *args, **kwargs):
        heavy = sorted(set(sys.modules) & {{"pydantic", "kb.data.loader"}})
        print("starting", cmd[:3], heavy, file=sys.stderr)
        super().__init__(cmd, *args, **kwargs)
subprocess.Popen = Watched
from kb.cli import main
sys.exit(main(["build", "--strict", "-q", "-d", {site!r}]))
"""


def test_while_mkdocs_builds_kb_build_holds_no_data_layer(tmp_path):
    project, site = copy_project(tmp_path / "project"), tmp_path / "site"
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS")}
    run = subprocess.run(
        [sys.executable, "-c", WATCHED.format(site=str(site))],
        cwd=project,
        capture_output=True,
        text=True,
        env={**env, "NO_MKDOCS_2_WARNING": "1", "KB_CACHE": "off"},
    )
    assert run.returncode == 0, run.stderr
    first = next(line for line in run.stderr.splitlines() if line.startswith("starting"))
    assert "'-m', 'mkdocs'" in first and first.endswith("[]"), first
    assert (site / "pagefind" / "pagefind-entry.json").is_file()


STOPPED = """\
import os, signal, subprocess, sys, threading
from kb.cli import build
real = subprocess.Popen
class Watched(real):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        print(self.pid, flush=True)
subprocess.Popen = Watched
threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGTERM)).start()
sys.exit(build._mkdocs([sys.executable, "-c", "import time; time.sleep(60)"], dict(os.environ)))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="signals as on Linux")
def test_kb_build_stopped_stops_the_build_and_a_killed_build_says_so(tmp_path):
    run = subprocess.run([sys.executable, "-c", STOPPED], capture_output=True, text=True, timeout=30)
    assert run.returncode == 143, run.stderr  # 128 + SIGTERM, as a shell reports it
    child = int(run.stdout.split()[0])
    assert not Path(f"/proc/{child}").exists() or "zombie" in Path(f"/proc/{child}/status").read_text()

    killed = [sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"]
    assert build._mkdocs(killed, dict(os.environ)) == -9


@pytest.mark.parametrize(("given", "passed"), [(None, "1"), ("", ""), ("1", "1")])
def test_the_themes_end_of_life_notice_is_off_unless_asked_for(monkeypatch, given, passed):
    """Material prints it on every build unless NO_MKDOCS_2_WARNING is set: kb build sets it, and
    leaves a value that is there (an empty one shows the notice)."""
    seen: dict[str, str] = {}

    def mkdocs(cmd: list[str], env: dict[str, str], said: object = None) -> int:
        seen.update(env)
        return 1  # failed: nothing to index

    monkeypatch.setattr(build, "_mkdocs", mkdocs)
    if given is None:
        monkeypatch.delenv("NO_MKDOCS_2_WARNING", raising=False)
    else:
        monkeypatch.setenv("NO_MKDOCS_2_WARNING", given)
    parser = argparse.ArgumentParser()
    build.register(parser.add_subparsers())
    assert build.run(parser.parse_args(["build", "-q"])) == 1
    assert seen["NO_MKDOCS_2_WARNING"] == passed
