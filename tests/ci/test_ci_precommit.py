"""The pre-commit hooks: their commands run directly (as pre-commit would, with the
matching file names appended), and through pre-commit itself when it is installed.
Everything runs in a throw-away git repository; nothing is fetched."""

from __future__ import annotations

import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from workflow_steps import ROOT, VENV_BIN, base_env, git, site_repo

CONFIG = ROOT / ".pre-commit-config.yaml"


def hooks() -> dict[str, dict]:
    cfg = yaml.safe_load(CONFIG.read_text("utf-8"))
    (local,) = [r for r in cfg["repos"] if r["repo"] == "local"]
    return {h["id"]: h for h in local["hooks"]}


def run_hook(hook_id: str, repo: Path, files: list[str], env: dict | None = None) -> subprocess.CompletedProcess:
    hook = hooks()[hook_id]
    chosen = [f for f in files if re.search(hook["files"], f)]
    cmd = shlex.split(hook["entry"]) + (chosen if hook.get("pass_filenames", True) else [])
    return subprocess.run(cmd, cwd=repo, env=env or base_env(), capture_output=True, text=True, timeout=120)


@pytest.fixture()
def repo(tmp_path) -> Path:
    r = site_repo(tmp_path / "work")
    (r / ".pre-commit-config.yaml").write_text(CONFIG.read_text("utf-8"), "utf-8")
    git(r, "add", ".pre-commit-config.yaml")
    git(r, "commit", "-q", "-m", "pre-commit config")
    return r


def kb_hooks() -> dict[str, dict]:
    return {k: h for k, h in hooks().items() if k.startswith("kb-")}


def test_hooks_are_local_system_hooks_on_the_right_files():
    assert set(hooks()) == {"kb-validate-data", "kb-validate-pages", "ruff-check", "ruff-format", "mypy"}
    h = kb_hooks()
    for hook in hooks().values():
        assert hook["language"] == "system"
    for hook in h.values():
        assert hook["language"] == "system" and hook["pass_filenames"] is True
    data, pages = h["kb-validate-data"]["files"], h["kb-validate-pages"]["files"]
    assert data == r"^data/.*\.yaml$"
    for path, d, p in [
        ("data/papers/albireo.yaml", True, False),
        ("data/briefs/inference/2026-09-01-e1.yaml", True, False),
        ("docs/guide.md", False, True),
        ("docs/papers/x.md", False, True),
        ("mkdocs.yml", False, False),
        ("tests/fixtures/broken/tag/papers/a.yaml", False, False),
    ]:
        assert bool(re.search(data, path)) is d, path
        assert bool(re.search(pages, path)) is p, path


def test_clean_files_pass(repo):
    files = ["data/papers/albireo.yaml", "data/topics/inference.yaml", "docs/guide.md", "docs/index.md"]
    for hook_id in kb_hooks():
        run = run_hook(hook_id, repo, files)
        assert run.returncode == 0, run.stdout + run.stderr
        assert "kb validate: ok" in run.stdout


def test_python_hooks_run_ruff_and_mypy_on_this_checkout():
    h = hooks()
    for hook_id in ("ruff-check", "ruff-format"):
        assert re.search(h[hook_id]["files"], "src/kb/cli/__init__.py")
        assert not re.search(h[hook_id]["files"], "docs/guide.md")
        run = run_hook(hook_id, ROOT, ["src/kb/cli/__init__.py", "tests/ci/test_ci_precommit.py"])
        assert run.returncode == 0, run.stdout + run.stderr
    assert h["mypy"]["pass_filenames"] is False and "--strict -p kb" in h["mypy"]["entry"]
    assert re.search(h["mypy"]["files"], "src/kb/data/loader.py")


def test_data_hook_reports_the_error_in_a_changed_file(repo):
    paper = repo / "data" / "papers" / "albireo.yaml"
    n = len(paper.read_text("utf-8").splitlines()) + 1
    paper.write_text(paper.read_text("utf-8") + "id: albireo-again\n", "utf-8")
    run = run_hook("kb-validate-data", repo, ["data/papers/albireo.yaml"])
    assert run.returncode == 1
    assert f"data/papers/albireo.yaml:{n}:1: duplicate key 'id'" in run.stderr
    # a data file that is fine is not blamed for the other one's error
    assert run_hook("kb-validate-data", repo, ["data/papers/cascade.yaml"]).returncode == 0


def test_pages_hook_reports_template_code_in_a_page(repo):
    (repo / "docs" / "guide.md").write_text("# 指南\n\n文字 {% include 'x' %}\n", "utf-8")
    run = run_hook("kb-validate-pages", repo, ["docs/guide.md"])
    assert run.returncode == 1
    assert "docs/guide.md:3:4: template syntax '{%'" in run.stderr
    # index.md is on the reviewed list of template pages: calls of the registered macros are allowed
    # there, and nothing else of template syntax
    (repo / "docs" / "index.md").write_text('{{ citation_count("inference") }}\n', "utf-8")
    assert run_hook("kb-validate-pages", repo, ["docs/index.md"]).returncode == 0
    (repo / "docs" / "index.md").write_text("{{ 1 }}\n", "utf-8")
    run = run_hook("kb-validate-pages", repo, ["docs/index.md"])
    assert run.returncode == 1 and "docs/index.md:1:1:" in run.stderr


def test_hook_uses_the_projects_venv_when_kb_is_not_on_path(repo):
    (repo / ".venv" / "bin").mkdir(parents=True)
    (repo / ".venv" / "bin" / "kb").symlink_to(VENV_BIN / "kb")
    env = base_env(PATH="/usr/bin:/bin")
    run = run_hook("kb-validate-data", repo, ["data/papers/albireo.yaml"], env=env)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("pre_commit") is None,
    reason="pre-commit is not installed (it is in the test extras: pip install -e '.[test]')",
)
def test_through_pre_commit(repo, tmp_path):
    env = base_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"))
    cmd = [sys.executable, "-m", "pre_commit", "run", "--files", "data/papers/albireo.yaml", "docs/guide.md"]
    ok = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("Passed") == 2, ok.stdout
    (repo / "docs" / "guide.md").write_text("{{ x }}\n", "utf-8")
    bad = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1
    assert "kb-validate-pages" in bad.stdout and "docs/guide.md:1:1: template syntax" in bad.stdout
