"""The GitHub workflows: zizmor (offline) and the GitHub workflow schema pass, the
security-relevant settings are what the project relies on, and the publishing
workflow's edition check accepts months and refuses anything else."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from workflow_steps import VENV_BIN, WORKFLOWS, load_workflow

WORKFLOW_FILES = sorted(WORKFLOWS.glob("*.yml"))
# kb validate / kb build as a command: at a line's start or after ; & | ( - not words in an echo
KB_COMMAND = re.compile(r"(^\s*|[;&|(]\s*)kb (validate|build)\b", re.MULTILINE)
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")


def tool(name: str) -> str:
    exe = VENV_BIN / name
    if not exe.exists():
        pytest.skip(f"{name} is not installed in this environment (pip install -e '.[test]')")
    return str(exe)


def test_both_workflows_exist():
    assert {p.name for p in WORKFLOW_FILES} >= {"pr.yml", "publish.yml"}


def test_zizmor_offline_has_no_findings():
    run = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", str(WORKFLOWS)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "No findings" in run.stdout, run.stdout


def test_zizmor_would_catch_an_injected_expression(tmp_path):
    """Control: the audit is really run (a run script with an inline expression is flagged)."""
    bad = tmp_path / ".github" / "workflows"
    bad.mkdir(parents=True)
    text = (WORKFLOWS / "pr.yml").read_text("utf-8")
    assert '"origin/${BASE_REF}...HEAD"' in text
    (bad / "pr.yml").write_text(text.replace('"origin/${BASE_REF}...HEAD"', '"origin/${{ github.head_ref }}...HEAD"'))
    run = subprocess.run(
        [tool("zizmor"), "--offline", "--no-progress", str(bad)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode != 0
    assert "template-injection" in run.stdout


def test_workflows_match_the_github_workflow_schema():
    run = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOW_FILES)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_actions_are_pinned_to_commits_with_a_version_comment(path: Path):
    uses = re.findall(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$", path.read_text("utf-8"), re.MULTILINE)
    assert uses
    for ref, rest in uses:
        assert PINNED.match(ref), f"{path.name}: {ref} is not pinned to a full commit SHA"
        assert re.match(r"\s*#\s*v\d+(\.\d+)*\s*$", rest), f"{path.name}: {ref} has no version comment"


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_no_expression_inside_run_scripts_and_no_stored_credentials(path: Path):
    wf = load_workflow(path.name)
    for job in wf["jobs"].values():
        for step in job["steps"]:
            assert "${{" not in step.get("run", ""), f"{path.name}: {step.get('name')}"
            if step.get("uses", "").startswith("actions/checkout@"):
                assert step["with"]["persist-credentials"] is False


def test_pr_workflow_is_read_only():
    wf = load_workflow("pr.yml")
    assert list(wf["on"]) == ["pull_request"]
    assert wf["permissions"] == {"contents": "read"}
    text = (WORKFLOWS / "pr.yml").read_text("utf-8")
    assert "secrets." not in text and "write" not in str([j.get("permissions") for j in wf["jobs"].values()])
    (job,) = wf["jobs"].values()
    runs = [s.get("run", "") for s in job["steps"]]
    assert any("kb validate --format github" in r for r in runs)
    assert any("python -m pytest -q" in r for r in runs)
    assert any("kb build --strict -d site" in r for r in runs)
    setup = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@"))
    assert setup["with"]["python-version"] == "3.11" and setup["with"]["cache"] == "pip"
    upload = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "site"


def test_publish_workflow_writes_only_from_its_deploy_job():
    wf = load_workflow("publish.yml")
    assert set(wf["on"]) == {"push", "workflow_dispatch"}
    assert wf["on"]["push"]["branches"] == ["main"]
    assert wf["permissions"] == {}
    assert wf["concurrency"]["group"] and wf["concurrency"]["cancel-in-progress"] is False
    assert set(wf["jobs"]) == {"build", "deploy"}
    writers = {name for name, job in wf["jobs"].items() if "write" in str(job.get("permissions", {}))}
    assert writers == {"deploy"}
    assert wf["jobs"]["build"]["permissions"] == {"contents": "read"}
    assert wf["jobs"]["deploy"]["permissions"] == {"contents": "write"}
    assert wf["jobs"]["deploy"]["needs"] == "build"
    for job in wf["jobs"].values():
        setup = next(s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@"))
        assert "cache" not in setup["with"], "no dependency cache in the publishing workflow (cache poisoning)"


def test_publish_build_job_builds_without_the_token():
    build = load_workflow("publish.yml")["jobs"]["build"]
    text = str(build)
    assert "github.token" not in text and "secrets." not in text
    runs = [s.get("run", "") for s in build["steps"]]
    assert any("kb validate" in r for r in runs)
    assert runs.index(next(r for r in runs if "kb build --strict -d site" in r)) > runs.index(
        next(r for r in runs if "--require-hashes -r requirements/site.txt" in r)
    )
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["name"] == "site" and upload["with"]["path"] == "site"
    assert build["outputs"]["edition"] == "${{ steps.edition.outputs.edition }}"


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda p: p.name)
def test_every_kb_step_runs_with_the_build_cache_off(path: Path):
    """No step that runs kb (validate, build) reads or keeps a build cache: KB_CACHE is "off" in
    its environment (workflow, job or step), so nothing a pull request or an earlier run left
    anywhere is read back (kb.site.cache)."""
    wf = load_workflow(path.name)
    checked = 0
    for name, job in wf["jobs"].items():
        for step in job.get("steps", []):
            if KB_COMMAND.search(step.get("run", "")):
                env = {**wf.get("env", {}), **job.get("env", {}), **step.get("env", {})}
                assert env.get("KB_CACHE") == "off", f"{path.name}: {name}: {step.get('name')}: KB_CACHE is not off"
                checked += 1
    if path.name in ("pr.yml", "publish.yml"):  # the workflows that build the site
        builds = [s for job in wf["jobs"].values() for s in job.get("steps", []) if "kb build" in s.get("run", "")]
        assert builds and checked > len(builds), f"{path.name}: expected kb validate and kb build steps"


def test_publish_deploy_job_runs_no_contributor_code():
    """The job holding the write token installs nothing and runs no MkDocs and no kb: it checks
    out only the edition tool, takes the built site from the build job and commits it."""
    deploy = load_workflow("publish.yml")["jobs"]["deploy"]
    runs = "\n".join(s.get("run", "") for s in deploy["steps"])
    for word in ("pip", "mkdocs", "kb ", "kb\n", "pytest", "make", "npm", "bash scripts/", "setup-env"):
        assert word not in runs, f"the deploy job runs {word!r}"
    checkout = next(s for s in deploy["steps"] if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["sparse-checkout-cone-mode"] is False
    assert checkout["with"]["sparse-checkout"].split() == [
        "scripts/publish_edition.py",
        "src/kb/editions",
        "src/kb/render/__init__.py",  # the tool's imports, standard library only: the catalogue
        "src/kb/messages/",
        "src/kb/render/html.py",  # the catalogue's escaping
        "src/kb/render/htmltext.py",  # the HTML text walker that reads the built pages
        "src/kb/data/__init__.py",  # and the atomic-directory helper
        "src/kb/data/atomic.py",
    ]
    assert checkout["with"]["fetch-depth"] == 0  # origin/gh-pages is the tree to build on
    download = next(s for s in deploy["steps"] if s.get("uses", "").startswith("actions/download-artifact@"))
    assert download["with"]["name"] == "site"
    python_runs = [line.strip() for line in runs.splitlines() if line.strip().startswith("python")]
    assert python_runs == [
        'python scripts/publish_edition.py deploy --site "$RUNNER_TEMP/site" --edition "$EDITION" \\'
    ]
    assert '--branch gh-pages --source "$GITHUB_SHA"' in runs
    token_steps = [s for s in deploy["steps"] if "github.token" in str(s.get("env", {}))]
    assert len(token_steps) == 1 and token_steps[0]["run"].rstrip().endswith(
        "git push origin refs/heads/gh-pages:refs/heads/gh-pages"
    )
    assert 'git config user.name "github-actions[bot]"' in runs


def edition_step() -> dict:
    wf = load_workflow("publish.yml")
    return next(s for s in wf["jobs"]["build"]["steps"] if s.get("id") == "edition")


@pytest.mark.parametrize(
    "given, expected",
    [
        ("2026-09", "2026-09"),
        ("1999-12", "1999-12"),
        ("", None),  # empty: the current month
        ("2026-9", False),
        ("2026-13", False),
        ("2026-00", False),
        ("26-09", False),
        ("2026-09\nlatest", False),
        ("2026-09 latest", False),
        ("$(touch pwned)", False),
        ("latest", False),
    ],
)
def test_publish_edition_input_is_checked(tmp_path, given, expected):
    if not shutil.which("bash"):
        pytest.skip("bash is not installed")
    step = edition_step()
    assert step["env"] == {"INPUT_EDITION": "${{ inputs.edition }}"}
    out = tmp_path / "github_output"
    out.touch()
    run = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "INPUT_EDITION": given, "GITHUB_OUTPUT": str(out)},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert not (tmp_path / "pwned").exists()
    if expected is False:
        assert run.returncode == 1, run.stdout
        assert "::error::" in run.stdout and out.read_text() == ""
        return
    assert run.returncode == 0, run.stdout + run.stderr
    (line,) = out.read_text().splitlines()
    name, value = line.split("=", 1)
    assert name == "edition"
    if expected is None:
        date = subprocess.run(["date", "-u", "+%Y-%m"], capture_output=True, text=True).stdout.strip()
        assert value == date
    else:
        assert value == expected
