"""The import workflow: its jobs' permissions and what each runs, and its ``run:`` steps run here
in a throw-away repository holding the frozen knowledge base and a text brief in the inbox: the
read-only job imports and validates, the writing job commits the records on a new branch and
takes the text out of the inbox (the push and the pull request are not run)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from workflow_steps import ROOT, Runner, git, load_workflow, pr_runner_env, site_repo

SEED = ROOT.parent / "shared" / "seeds" / "2026-09-03-inference-e1-brief.txt"
FIXTURE_DATA = ROOT / "tests" / "fixtures" / "kb" / "data"


def test_the_import_job_reads_and_only_the_propose_job_writes():
    wf = load_workflow("import.yml")
    assert set(wf["on"]) == {"push", "workflow_dispatch"}
    assert wf["on"]["push"] == {"branches": ["main"], "paths": ["inbox/briefs/**.txt"]}
    assert wf["permissions"] == {}
    assert wf["jobs"]["import"]["permissions"] == {"contents": "read"}
    assert wf["jobs"]["propose"]["permissions"] == {"contents": "write", "pull-requests": "write"}
    assert wf["jobs"]["propose"]["needs"] == "import"
    runs = "\n".join(s.get("run", "") for s in wf["jobs"]["propose"]["steps"])
    for word in ("pip", "kb ", "python", "mkdocs", "bash scripts/"):
        assert word not in runs, f"the job holding the write token runs {word!r}"
    for job in wf["jobs"].values():
        setup = [s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@")]
        assert all("cache" not in s["with"] for s in setup)
    token = [s for s in wf["jobs"]["propose"]["steps"] if "github.token" in str(s.get("env", {}))]
    assert len(token) == 1 and "gh pr create" in token[0]["run"]


def _step(runner: Runner, name: str) -> dict:
    return next(s for s in runner.steps() if s.get("name", "").startswith(name))


def test_the_import_steps_import_validate_and_commit_the_records(tmp_path):
    if not SEED.is_file():
        pytest.skip("the seed brief is not beside the repository (shared/seeds/ is absent)")
    repo = site_repo(tmp_path / "work")
    shutil.rmtree(repo / "data")
    shutil.copytree(FIXTURE_DATA, repo / "data")
    for day in ("03", "04", "05"):
        (repo / "data" / "briefs" / "inference" / f"2026-09-{day}-e1.yaml").unlink()
    (repo / "inbox" / "briefs").mkdir(parents=True)
    shutil.copy(SEED, repo / "inbox" / "briefs" / "2026-09-03.txt")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "a text brief in the inbox")
    wf = load_workflow("import.yml")
    env = pr_runner_env(repo, tmp_path / "runner-temp") | {"GITHUB_RUN_ID": "7", "GITHUB_EVENT_NAME": "push"}
    env["PYTHONPATH"] = str(ROOT / "src")  # `kb` is this checkout's, whichever one the environment installed
    importer = Runner(wf, "import", repo, {}, env, tmp_path)
    done = importer.run(_step(importer, "Import the text briefs"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "imported=true" in Path(env["GITHUB_OUTPUT"]).read_text()
    out = tmp_path / "runner-temp" / "import"
    report = (out / "report.md").read_text("utf-8")
    assert "wrote data/briefs/inference/2026-09-03-e1.yaml" in report and "kb validate" in report
    assert (out / "files" / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml").is_file()
    git(repo, "checkout", "-q", "--", ".")
    git(repo, "clean", "-qfd", "--", "data")
    proposer = Runner(wf, "propose", repo, {}, env, tmp_path)
    done = proposer.run(_step(proposer, "Commit the records"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert git(repo, "branch", "--show-current").strip() == "import/briefs-7"
    changed = git(repo, "show", "--name-status", "--format=", "HEAD").split("\n")
    assert "A\tdata/briefs/inference/2026-09-03-e1.yaml" in changed
    assert "D\tinbox/briefs/2026-09-03.txt" in changed
