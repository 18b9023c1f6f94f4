"""The publishing workflow's deploy job, run here: its ``run:`` steps in order, in a
checkout shaped like the one the job makes (a sparse clone holding only the
edition tool, all branches fetched), with the built site where the download step
puts it and the environment a runner gives.  ``origin`` is a bare repository in
the test's temporary directory, so the job's push lands there and nowhere else.
Two months are published, then the older one is fixed."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from workflow_steps import ROOT, Runner, base_env, git, load_workflow

pytestmark = pytest.mark.slow
TOKEN = "ghs_not-a-real-token"


def sparse_paths() -> list[str]:
    """What the deploy job checks out (its checkout step's sparse list)."""
    deploy = load_workflow("publish.yml")["jobs"]["deploy"]
    checkout = next(s for s in deploy["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    return checkout["with"]["sparse-checkout"].split()


SPARSE = sparse_paths()


def origin_repo(tmp: Path) -> Path:
    """A bare repository whose main holds the whole package and, beside it, sources the job must not
    check out."""
    work = tmp / "upstream"
    (work / "scripts").mkdir(parents=True)
    shutil.copy2(ROOT / "scripts" / "publish_edition.py", work / "scripts")
    shutil.copytree(ROOT / "src" / "kb", work / "src" / "kb", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("docs", "data", "hooks"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    git(work.parent, "init", "-q", "-b", "main", str(work))
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "sources")
    bare = tmp / "origin.git"
    git(tmp, "clone", "-q", "--bare", str(work), str(bare))
    return bare


def checkout(origin: Path, dest: Path) -> Path:
    """What actions/checkout does with fetch-depth 0 and a non-cone sparse checkout."""
    git(dest.parent, "clone", "-q", "--no-checkout", str(origin), str(dest))
    git(dest, "sparse-checkout", "set", "--no-cone", *SPARSE)
    git(dest, "checkout", "-q", "main")
    return dest


def deploy_job(origin: Path, site: Path, tmp: Path, edition: str) -> tuple[Runner, list]:
    ws = checkout(origin, tmp / f"ws-{edition}-{len(list(tmp.iterdir()))}")
    temp = tmp / f"runner-temp-{ws.name}"
    temp.mkdir()
    shutil.copytree(site, temp / "site")
    files = {
        name: str(temp / name.lower()) for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")
    }
    for f in files.values():
        Path(f).touch()
    sha = git(ws, "rev-parse", "HEAD").strip()
    # The runner's python has no kb installed: this one loads no site-packages (-S), so the tool runs
    # on what the sparse checkout holds and a missing import fails here as it would there.
    shim = temp / "bin"
    shim.mkdir()
    (shim / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n', "utf-8")
    (shim / "python").chmod(0o755)
    env = base_env(
        CI="true",
        GITHUB_ACTIONS="true",
        GITHUB_EVENT_NAME="push",
        GITHUB_REF="refs/heads/main",
        GITHUB_SHA=sha,
        GITHUB_WORKSPACE=str(ws),
        GITHUB_SERVER_URL="https://github.example",
        RUNNER_TEMP=str(temp),
        RUNNER_OS="Linux",
        **files,
    )
    env["PATH"] = os.pathsep.join([str(shim), env["PATH"]])
    context = {"needs": {"build": {"outputs": {"edition": edition}}}, "github": {"token": TOKEN}}
    runner = Runner(load_workflow("publish.yml"), "deploy", ws, context, env, temp)
    results = []
    for step in runner.steps():
        if "uses" in step:
            continue
        result = runner.run(step)
        assert result.returncode == 0, f"step {result.name!r} failed:\n{result.stdout}\n{result.stderr}"
        results.append(result)
    return runner, results


def pages(origin: Path, path: str) -> str:
    return git(origin, "show", f"gh-pages:{path}")


def test_deploy_job_publishes_and_fixes_editions_through_its_own_steps(site, tmp_path):
    origin = origin_repo(tmp_path)
    runner, results = deploy_job(origin, site, tmp_path, "2026-09")
    ws = runner.workspace
    assert sorted(p.name for p in ws.iterdir() if p.name != ".git") == ["scripts", "src"]  # nothing else on disk
    assert TOKEN not in (ws / ".git" / "config").read_text("utf-8")
    assert any("::add-mask::" in r.stdout for r in results)
    assert "edition 2026-09" in results[-2].stdout and "latest replaced" in results[-2].stdout
    top = set(git(origin, "ls-tree", "--name-only", "gh-pages").split())
    assert top == {".nojekyll", "404.html", "index.html", "versions.json", "latest", "2026-09"}
    sha = git(origin, "rev-parse", "main").strip()
    assert (
        git(origin, "log", "-1", "--format=%s", "gh-pages").strip() == f"Publish latest and edition 2026-09 from {sha}"
    )

    deploy_job(origin, site, tmp_path, "2026-10")
    latest_tree = git(origin, "rev-parse", "gh-pages:latest").strip()
    (site_fix := tmp_path / "site-fix").mkdir()
    shutil.copytree(site, site_fix, dirs_exist_ok=True)
    guide = site_fix / "guide" / "index.html"
    guide.write_text(guide.read_text("utf-8").replace("</article>", "<p>勘误：九月版已改正。</p></article>"), "utf-8")
    _, fix = deploy_job(origin, site_fix, tmp_path, "2026-09")
    assert "latest left as it was" in fix[-2].stdout
    assert git(origin, "rev-parse", "gh-pages:latest").strip() == latest_tree
    assert "勘误：九月版已改正" in pages(origin, "2026-09/guide/index.html")
    assert "勘误" not in pages(origin, "2026-10/guide/index.html")
    assert [v["version"] for v in json.loads(pages(origin, "versions.json"))] == ["latest", "2026-10", "2026-09"]
    assert len(git(origin, "log", "--format=%H", "gh-pages").split()) == 3
