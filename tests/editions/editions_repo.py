"""Helpers for the edition tests: sites built from changed copies of the sources,
a throw-away git repository to publish into with ``scripts/publish_edition.py``
(nothing is pushed), and a reader of its gh-pages tree."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from bs4 import BeautifulSoup

from sitebuild import ROOT, copy_project

TOOL = ROOT / "scripts" / "publish_edition.py"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "KB Test",
    "GIT_AUTHOR_EMAIL": "kb-test@example.invalid",
    "GIT_COMMITTER_NAME": "KB Test",
    "GIT_COMMITTER_EMAIL": "kb-test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}
NEW_PAPER = """id: editions-demo
kind: system
short: EditionsDemo
title: EditionsDemo：十月新到的系统
category:
  primary: inference
"""
OCTOBER = "十月的新段落：活文档在十月多了这一段。"
ERRATUM = "勘误：九月版的这一段已经改正。"


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS") and not k.startswith("GITHUB_")}
    return {**e, **GIT_ENV, "NO_MKDOCS_2_WARNING": "1"}


def build_site(sources: Path, dest: Path) -> Path:
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)],
        cwd=sources,
        env=env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return dest


def sources(dest: Path, october: bool = False, erratum: bool = False) -> Path:
    """A copy of the project's sources: as they are (September), with a new paper and a new paragraph in
    the living document (October), or September's with an erratum (the fix)."""
    dest.mkdir(parents=True)
    copy_project(dest)
    doc = dest / "docs" / "inference.md"
    if october:
        (dest / "data" / "papers" / "editions-demo.yaml").write_text(NEW_PAPER, "utf-8")
        doc.write_text(doc.read_text("utf-8") + f"\n\n{OCTOBER}\n", "utf-8")
    if erratum:
        doc.write_text(doc.read_text("utf-8") + f"\n\n{ERRATUM}\n", "utf-8")
    return dest


def git(repo: Path, *args: str) -> str:
    run = subprocess.run(["git", *args], cwd=repo, env=env(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, f"git {' '.join(args)}: {run.stderr}"
    return run.stdout


def new_repo(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    (path / "README").write_text("sources\n", "utf-8")
    git(path, "add", "README")
    git(path, "commit", "-q", "-m", "sources")
    return path


def tool(repo: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(TOOL), *args], cwd=repo, env=env(), capture_output=True, text=True, timeout=600
    )


def deploy(repo: Path, site: Path, edition: str) -> str:
    run = tool(repo, "deploy", "--site", str(site), "--edition", edition, "--source", "test")
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


class Tree:
    """The gh-pages branch of a repository, read with git (nothing is checked out)."""

    def __init__(self, repo: Path, ref: str = "gh-pages"):
        self.repo, self.ref = repo, ref
        self.modes: dict[str, str] = {}
        for line in git(repo, "ls-tree", "-r", "-z", ref).split("\0"):
            if line:
                meta, path = line.split("\t", 1)
                self.modes[path] = meta.split()[0]

    def files(self, under: str = "") -> list[str]:
        return sorted(p for p in self.modes if p.startswith(under))

    def text(self, path: str) -> str:
        return git(self.repo, "show", f"{self.ref}:{path}")

    def json(self, path: str):
        return json.loads(self.text(path))

    def top(self) -> set[str]:
        return {p.split("/", 1)[0] for p in self.modes}

    def resolve(self, page: str, url: str) -> str | None:
        """The file a relative URL in ``page`` names in the tree, or None when it names nothing."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:
            return ""  # not a file of the tree: left alone
        target = urlsplit(urljoin("https://pages.example/site/" + page, unquote(parts.path))).path
        if not target.startswith("/site/"):
            return None
        path = target[len("/site/") :]
        if path in self.modes:
            return path
        index = (path.rstrip("/") + "/index.html") if path else "index.html"
        return index if index in self.modes else None

    def broken_links(self, page: str) -> list[str]:
        soup = BeautifulSoup(self.text(page), "lxml")
        bad = []
        for tag in soup.find_all(["a", "link", "script", "img", "source"]):
            for attr in ("href", "src"):
                url = tag.get(attr)
                if url and not url.startswith("#") and self.resolve(page, url) is None:
                    bad.append(url)
        return bad


def version_config(html: str) -> dict:
    m = re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.DOTALL)
    assert m, "no __config script"
    return json.loads(m.group(1))
