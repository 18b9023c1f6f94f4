"""The pull-request workflow, run here: its ``run:`` steps in order, in a
throw-away git repository shaped like a pull-request checkout (a base branch
``origin/main`` and a head with changed data and pages), with the environment
GitHub gives them.  Installing (apt, pip) is skipped (this environment is the
installed one), and so are the pytest step (it would run this test again) and the
``uses:`` steps (checkout is the repository made here; the site upload is
checked by looking for what it would upload)."""

from __future__ import annotations

from pathlib import Path

import pytest
from workflow_steps import Runner, git, load_workflow, pr_context, pr_runner_env, site_repo

SKIPPED = {"install": ("apt-get", "pip install"), "recursion": ("pytest",)}


def skip_reason(step: dict) -> str | None:
    if "uses" in step:
        return "uses"
    for reason, words in SKIPPED.items():
        if any(w in step["run"] for w in words):
            return reason
    return None


def pull_request(tmp_path: Path, change) -> Runner:
    """A repository with main as origin/main and a checked-out head branch holding change(repo)."""
    repo = site_repo(tmp_path / "work")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-q", "-b", "feature")
    change(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the pull request's change")
    wf = load_workflow("pr.yml")
    (job,) = wf["jobs"]
    return Runner(wf, job, repo, pr_context(), pr_runner_env(repo, tmp_path / "runner-temp"), tmp_path)


def edit_sources(repo: Path) -> None:
    paper = repo / "data" / "papers" / "albireo.yaml"
    paper.write_text(paper.read_text("utf-8") + "# reviewed\n", "utf-8")
    page = repo / "docs" / "guide.md"
    page.write_text(page.read_text("utf-8") + "\n（本页在拉取请求中改过。）\n", "utf-8")


@pytest.mark.slow
def test_pr_workflow_steps_pass_in_order(tmp_path):
    runner = pull_request(tmp_path, edit_sources)
    ran, skipped = [], []
    for step in runner.steps():
        reason = skip_reason(step)
        if reason:
            skipped.append((step.get("name"), reason))
            if step.get("uses", "").startswith("actions/upload-artifact@"):
                site = runner.workspace / step["with"]["path"]
                assert (site / "index.html").is_file(), "nothing to upload: the build step did not produce the site"
                assert (site / "papers" / "albireo" / "index.html").is_file()
            continue
        result = runner.run(step)
        assert result.returncode == 0, f"step {result.name!r} failed:\n{result.stdout}\n{result.stderr}"
        ran.append(result)

    names = [r.name for r in ran]
    assert len(ran) >= 3, names
    assert [reason for _, reason in skipped].count("recursion") == 2  # the data-only tests and the whole suite
    changed = next(r for r in ran if "changed files" in r.name)
    assert "changed: data/papers/albireo.yaml" in changed.stdout
    assert "changed: docs/guide.md" in changed.stdout
    assert "kb validate: ok" in changed.stdout
    # the whole knowledge base is validated strictly: a finding nobody acknowledged fails the pull request
    assert any(
        "kb validate --strict --format github" in s["run"] and "changed" not in s["run"]
        for s in steps_run(runner, names)
    )
    assert "kb build --strict -d site" in steps_run(runner, names)[-1]["run"]  # the build comes last
    assert "本页在拉取请求中改过" in (runner.workspace / "site" / "guide" / "index.html").read_text("utf-8")


def steps_run(runner: Runner, names: list[str]) -> list[dict]:
    return [s for s in runner.steps() if s.get("name") in names]


def break_a_paper(repo: Path) -> None:
    paper = repo / "data" / "papers" / "albireo.yaml"
    lines = paper.read_text("utf-8").splitlines()
    paper.write_text("\n".join(lines + ["id: albireo-again"]) + "\n", "utf-8")


def test_changed_data_file_with_an_error_gets_an_annotation_on_its_line(tmp_path):
    runner = pull_request(tmp_path, break_a_paper)
    bad_line = len((runner.workspace / "data/papers/albireo.yaml").read_text("utf-8").splitlines())
    step = next(s for s in runner.steps() if "changed files" in s.get("name", ""))
    result = runner.run(step)
    assert result.returncode == 1
    assert f"::error file=data/papers/albireo.yaml,line={bad_line},col=1," in result.stdout
    assert f"data/papers/albireo.yaml:{bad_line}:1: duplicate key 'id'" in result.stderr


def test_changed_page_with_template_code_gets_an_annotation(tmp_path):
    def add_template(repo: Path) -> None:
        (repo / "docs" / "guide.md").write_text("# 指南\n\n见 {{ config.site_name }}\n", "utf-8")

    runner = pull_request(tmp_path, add_template)
    step = next(s for s in runner.steps() if "changed files" in s.get("name", ""))
    result = runner.run(step)
    assert result.returncode == 1
    assert "::error file=docs/guide.md,line=3,col=3," in result.stdout


def test_no_changed_data_files_is_not_an_error(tmp_path):
    def touch_something_else(repo: Path) -> None:
        (repo / "mkdocs.yml").write_text((repo / "mkdocs.yml").read_text("utf-8") + "\n", "utf-8")

    runner = pull_request(tmp_path, touch_something_else)
    step = next(s for s in runner.steps() if "changed files" in s.get("name", ""))
    result = runner.run(step)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no data files or pages changed" in result.stdout


PAYLOAD = "{{ cycler.__init__.__globals__.os.popen('id').read() }}"


@pytest.mark.slow
def test_template_payload_in_a_template_page_fails_the_pull_request(tmp_path):
    """docs/index.md may run macros (it is on hooks/template_pages.txt), but not reach Python
    through Jinja's globals: some step of the pull-request workflow must fail, and the
    payload's output must never reach a built page."""

    def inject(repo: Path) -> None:
        page = repo / "docs" / "index.md"
        page.write_text(page.read_text("utf-8") + f"\n\n{PAYLOAD}\n", "utf-8")

    runner = pull_request(tmp_path, inject)
    failed = None
    for step in runner.steps():
        if skip_reason(step):
            continue
        result = runner.run(step)
        if result.returncode != 0:
            failed = result
            break
    home = runner.workspace / "site" / "index.html"
    assert not (home.is_file() and "uid=" in home.read_text("utf-8")), "the payload ran in the build"
    assert failed is not None, "every step of the pull-request workflow passed with the payload in docs/index.md"
    line = len((runner.workspace / "docs" / "index.md").read_text("utf-8").splitlines())
    assert f"docs/index.md:{line}:1: 'cycler' is not a registered macro" in failed.stderr
    assert f"::error file=docs/index.md,line={line},col=1," in failed.stdout


@pytest.mark.slow
def test_template_payload_fails_the_build_step_too(tmp_path):
    """Past kb validate, the build itself refuses the payload with the same location (no Jinja runs)."""

    def inject(repo: Path) -> None:
        page = repo / "docs" / "index.md"
        page.write_text(page.read_text("utf-8") + f"\n\n{PAYLOAD}\n", "utf-8")

    runner = pull_request(tmp_path, inject)
    build = next(s for s in runner.steps() if "kb build" in s.get("run", ""))
    result = runner.run(build)
    line = len((runner.workspace / "docs" / "index.md").read_text("utf-8").splitlines())
    assert result.returncode != 0
    assert f"docs/index.md:{line}:1: 'cycler' is not a registered macro" in result.stdout + result.stderr
    assert not (runner.workspace / "site" / "index.html").is_file()


def scope_of(tmp_path: Path, change) -> str:
    runner = pull_request(tmp_path, change)
    (step,) = [s for s in runner.steps() if s.get("id") == "scope"]
    result = runner.run(step)
    assert result.returncode == 0, result.stderr
    return Path(runner.runner_env["GITHUB_OUTPUT"]).read_text("utf-8")


def edit_code(repo: Path) -> None:
    edit_sources(repo)
    (repo / "src").mkdir(exist_ok=True)
    (repo / "src" / "x.py").write_text("X = 1\n", "utf-8")


def test_a_data_only_pull_request_takes_the_fast_path_and_code_the_whole_suite(tmp_path):
    assert "data_only=true" in scope_of(tmp_path / "data", edit_sources)
    assert "data_only=false" in scope_of(tmp_path / "code", edit_code)
    steps = {s.get("name"): s for s in load_workflow("pr.yml")["jobs"]["check"]["steps"]}
    fast = steps["Tests, data only (the live-data tests)"]
    full = steps["Tests, whole suite (parallel)"]
    assert fast["if"] == "steps.scope.outputs.data_only == 'true'" and "tests/live" in fast["run"]
    assert full["if"] == "steps.scope.outputs.data_only != 'true'"
    assert "-n auto" in full["run"] and "--durations" in full["run"]
    # the strict validation and the strict build run on both paths
    assert (
        "if" not in steps["kb validate, whole knowledge base (strict)"] and "if" not in steps["Build the site (strict)"]
    )
