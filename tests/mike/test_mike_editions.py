"""Editions with mike, for real: a throw-away git repository holding a copy of the
site sources gets two monthly editions on its gh-pages branch, ``latest`` on the
newer and set as the default; then an edition is fixed by deploying it again from
a newer commit, one is deleted, and ``mike serve`` serves the branch on
127.0.0.1.  Nothing is pushed (no --push) and nothing leaves the machine.

mike 2.2 has no ``__main__`` module (``python -m mike`` fails), so it is run as
``python -c 'from mike.driver import main; …'`` with this interpreter; it builds
each edition by calling ``mkdocs`` from PATH, so the interpreter's bin directory
goes first on PATH."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("mkdocs.yml", "docs", "hooks", "overrides", "data")
MIKE = [sys.executable, "-c", "import sys; from mike.driver import main; sys.exit(main())"]
SELECTOR = {"provider": "mike", "default": "latest", "alias": True}

pytestmark = pytest.mark.slow


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS") and not k.startswith("GITHUB_")}
    e.update(GIT_AUTHOR_NAME="KB Test", GIT_AUTHOR_EMAIL="kb-test@example.invalid",
             GIT_COMMITTER_NAME="KB Test", GIT_COMMITTER_EMAIL="kb-test@example.invalid",
             GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, NO_MKDOCS_2_WARNING="1")
    e["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), e.get("PATH", "")])
    return e


def sh(repo: Path, *cmd: str, timeout: float = 300) -> str:
    run = subprocess.run(cmd, cwd=repo, env=env(), capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, f"{' '.join(cmd[3:] if cmd[:3] == tuple(MIKE) else cmd)}:\n{run.stdout}\n{run.stderr}"
    return run.stdout


def mike(repo: Path, *args: str) -> str:
    return sh(repo, *MIKE, *args)


def git(repo: Path, *args: str) -> str:
    return sh(repo, "git", *args)


def show(repo: Path, path: str) -> str:
    return git(repo, "show", f"gh-pages:{path}")


def versions(repo: Path) -> dict[str, list[str]]:
    return {v["version"]: v["aliases"] for v in json.loads(show(repo, "versions.json"))}


def version_config(html: str) -> dict | None:
    m = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert m, "no __config script in the page"
    return json.loads(m.group(1))["version"]


def alias_target(repo: Path, alias: str) -> str:
    """The edition an alias points at: a symlink (mike's default alias type) or a redirect page."""
    entry = git(repo, "ls-tree", "gh-pages", alias).split()
    assert entry, f"no {alias} on gh-pages"
    if entry[0] == "120000":
        return git(repo, "cat-file", "-p", entry[2]).strip().rstrip("/")
    m = re.search(r'url=\.\./([^/"]+)/', show(repo, f"{alias}/index.html"))
    assert m, f"{alias}/index.html is neither a symlink nor a redirect"
    return m.group(1)


@pytest.fixture(scope="module")
def repo(tmp_path_factory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    r = tmp_path_factory.mktemp("mike") / "kb"
    r.mkdir()
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, r / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, r / name)
    (r / ".gitignore").write_text("/site/\n__pycache__/\n", "utf-8")
    git(r, "init", "-q", "-b", "main")
    git(r, "add", "-A")
    git(r, "commit", "-q", "-m", "site sources")
    mike(r, "deploy", "2026-09", "latest", "--update-aliases")
    mike(r, "deploy", "2026-10", "latest", "--update-aliases")
    mike(r, "set-default", "latest")
    return r


def test_versions_json_lists_both_editions_with_latest_on_the_newer(repo):
    data = json.loads(show(repo, "versions.json"))
    assert [v["version"] for v in data] == ["2026-10", "2026-09"]  # newest first: the selector's order
    assert versions(repo) == {"2026-10": ["latest"], "2026-09": []}
    assert {v["title"] for v in data} == {"2026-10", "2026-09"}


def test_each_edition_is_a_whole_site_and_latest_points_at_the_newer(repo):
    tree = set(git(repo, "ls-tree", "--name-only", "gh-pages").split())
    assert {"2026-09", "2026-10", "latest", "index.html", "versions.json"} <= tree
    for edition in ("2026-09", "2026-10"):
        for page in ("index.html", "guide/index.html", "papers/index.html", "papers/albireo/index.html",
                     "search/search_index.json", "assets/kb.css"):
            assert show(repo, f"{edition}/{page}"), f"{edition}/{page}"
    assert alias_target(repo, "latest") == "2026-10"
    # mike builds on main's sources and leaves main as it was
    assert git(repo, "log", "--format=%s", "main").split("\n")[0] == "site sources"
    assert git(repo, "status", "--porcelain") == ""


def test_version_selector_config_is_in_every_page(repo):
    for edition in ("2026-09", "2026-10"):
        for page in ("index.html", "guide/index.html", "papers/albireo/index.html"):
            html = show(repo, f"{edition}/{page}")
            assert version_config(html) == SELECTOR, f"{edition}/{page}"
            # Material's bundle fetches versions.json from the directory above the edition
            assert 'src="' in html and "bundle." in html


def test_site_root_redirects_to_latest(repo):
    index = show(repo, "index.html")
    assert re.search(r'<meta http-equiv="refresh" content="\d+; url=latest/"', index), index
    assert 'window.location.replace(\n      "latest/"' in index or '"latest/" + window.location' in index, index


def clone(repo: Path, dest: Path) -> Path:
    """A clone to change (the module's repository stays as the other tests expect it): its
    gh-pages is origin/gh-pages, which mike takes up as the local branch, as in CI."""
    sh(dest.parent, "git", "clone", "-q", str(repo), str(dest))
    return dest


def test_fixing_an_edition_redeploys_it_from_a_newer_commit(repo, tmp_path):
    work = clone(repo, tmp_path / "clone")
    guide = work / "docs" / "guide.md"
    guide.write_text(guide.read_text("utf-8") + "\n勘误：九月版已修正。\n", "utf-8")
    git(work, "commit", "-q", "-am", "fix the September edition")
    mike(work, "deploy", "2026-09")
    assert "勘误：九月版已修正" in show(work, "2026-09/guide/index.html")
    assert "勘误" not in show(work, "2026-10/guide/index.html")
    assert versions(work) == {"2026-10": ["latest"], "2026-09": []}  # the aliases are untouched
    assert alias_target(work, "latest") == "2026-10"
    assert "勘误" not in show(repo, "2026-09/guide/index.html")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, ""


def test_mike_serve_serves_the_editions_locally(repo):
    port = free_port()
    server = subprocess.Popen([*MIKE, "serve", "--dev-addr", f"127.0.0.1:{port}"], cwd=repo, env=env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                status, root = get(base + "/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, server.stdout.read()
                assert time.monotonic() < deadline, "mike serve did not answer within 20 s"
                time.sleep(0.2)
        assert status == 200 and "url=latest/" in root
        status, latest = get(base + "/latest/")
        assert status == 200 and version_config(latest) == SELECTOR
        status, sept = get(base + "/2026-09/guide/")
        assert status == 200 and "<article" in sept
        status, listing = get(base + "/versions.json")
        assert status == 200 and [v["version"] for v in json.loads(listing)] == ["2026-10", "2026-09"]
        assert get(base + "/2026-08/")[0] == 404
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_deleting_an_edition(repo, tmp_path):
    work = clone(repo, tmp_path / "clone")
    mike(work, "delete", "2026-09")
    assert versions(work) == {"2026-10": ["latest"]}
    assert "2026-09" not in git(work, "ls-tree", "--name-only", "gh-pages").split()
    assert alias_target(work, "latest") == "2026-10"
    assert versions(repo) == {"2026-10": ["latest"], "2026-09": []}


def test_moving_an_alias_without_rebuilding(repo, tmp_path):
    work = clone(repo, tmp_path / "clone")
    mike(work, "alias", "--update-aliases", "2026-09", "latest")
    assert versions(work) == {"2026-10": [], "2026-09": ["latest"]}
    assert alias_target(work, "latest") == "2026-09"
