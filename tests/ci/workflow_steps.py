"""Helpers for the CI tests: read the workflows, make throw-away git repositories
holding a copy of the site sources, and run a workflow's ``run:`` steps the way
a GitHub runner does (``bash --noprofile --norc -eo pipefail``, the workflow's,
job's and step's ``env:``, ``${{ … }}`` expressions filled from a context)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
VENV_BIN = Path(sys.executable).parent
SITE_SOURCES = ("mkdocs.yml", "docs", "hooks", "data", ".github/CODEOWNERS")
GIT_ID = {
    "GIT_AUTHOR_NAME": "KB Test",
    "GIT_AUTHOR_EMAIL": "kb-test@example.invalid",
    "GIT_COMMITTER_NAME": "KB Test",
    "GIT_COMMITTER_EMAIL": "kb-test@example.invalid",
}
# Variables of the environment the tests run in that a GitHub runner would not have.
NOT_ON_RUNNER = ("KB_DATA", "KB_DEMOS", "VIRTUAL_ENV", "PYTHONPATH")
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def load_workflow(name: str) -> dict:
    wf = yaml.safe_load((WORKFLOWS / name).read_text("utf-8"))
    if True in wf:  # YAML 1.1 reads the key `on` as a boolean
        wf["on"] = wf.pop(True)
    return wf


def base_env(**extra: str) -> dict[str, str]:
    """The test's environment made hermetic for git, with the venv's tools first on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_ON_RUNNER and not k.startswith("GITHUB_")}
    env.update(GIT_ID)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, NO_MKDOCS_2_WARNING="1")
    env["PATH"] = os.pathsep.join([str(VENV_BIN), env.get("PATH", "")])
    env.update(extra)
    return env


def git(repo: Path, *args: str, env: dict | None = None) -> str:
    run = subprocess.run(["git", *args], cwd=repo, env=env or base_env(), capture_output=True, text=True)
    assert run.returncode == 0, f"git {' '.join(args)}: {run.stderr}"
    return run.stdout


def site_repo(dest: Path, branch: str = "main") -> Path:
    """A new git repository at dest holding a committed copy of the site sources."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SITE_SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    (dest / ".gitignore").write_text("/site/\n__pycache__/\n", "utf-8")
    git(dest, "init", "-q", "-b", branch)
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "site sources")
    return dest


def fill(text: str, context: dict) -> str:
    """Replace ``${{ a.b }}`` with its value from context; an expression it cannot read is an error."""

    def value(m: re.Match) -> str:
        node: object = context
        for part in m.group(1).split("."):
            if not isinstance(node, dict) or part not in node:
                raise KeyError(f"expression not known to the test: ${{{{ {m.group(1)} }}}}")
            node = node[part]
        return str(node)

    return EXPR.sub(value, text)


@dataclass
class StepResult:
    name: str
    returncode: int
    stdout: str
    stderr: str


@dataclass
class Runner:
    """Runs ``run:`` steps of one job in a work tree with the env a runner gives them."""

    workflow: dict
    job: str
    workspace: Path
    context: dict
    runner_env: dict[str, str]
    temp: Path
    results: list[StepResult] = field(default_factory=list)

    def steps(self) -> list[dict]:
        return self.workflow["jobs"][self.job]["steps"]

    def env_for(self, step: dict) -> dict[str, str]:
        env = dict(self.runner_env)
        for layer in (self.workflow.get("env"), self.workflow["jobs"][self.job].get("env"), step.get("env")):
            for k, v in (layer or {}).items():
                env[k] = fill(str(v), self.context)
        return env

    def shell(self, step: dict) -> list[str]:
        shell = (
            step.get("shell")
            or (self.workflow["jobs"][self.job].get("defaults") or {}).get("run", {}).get("shell")
            or (self.workflow.get("defaults") or {}).get("run", {}).get("shell")
            or "bash"
        )
        assert shell == "bash", f"the test only runs bash steps, not {shell!r}"
        return ["bash", "--noprofile", "--norc", "-eo", "pipefail"]

    def run(self, step: dict, timeout: float = 300) -> StepResult:
        script = step["run"]
        assert "${{" not in script, f"step {step.get('name')!r}: expression inline in a run script"
        n = len(self.results)
        path = self.temp / f"step-{n}.sh"
        path.write_text(script, "utf-8")
        proc = subprocess.run(
            [*self.shell(step), str(path)],
            cwd=self.workspace,
            env=self.env_for(step),
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        result = StepResult(step.get("name", script.splitlines()[0]), proc.returncode, proc.stdout, proc.stderr)
        self.results.append(result)
        return result


def pr_context(base_ref: str = "main", head_ref: str = "feature") -> dict:
    return {
        "github": {
            "base_ref": base_ref,
            "head_ref": head_ref,
            "event_name": "pull_request",
            "event": {"pull_request": {"number": 1}},
        }
    }


def pr_runner_env(workspace: Path, temp: Path, base_ref: str = "main", head_ref: str = "feature") -> dict[str, str]:
    """What a GitHub runner puts in every step's environment on a pull_request (the part the steps can see)."""
    temp.mkdir(parents=True, exist_ok=True)
    files = {}
    for name in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"):
        files[name] = str(temp / name.lower())
        Path(files[name]).touch()
    return base_env(
        CI="true",
        GITHUB_ACTIONS="true",
        GITHUB_EVENT_NAME="pull_request",
        GITHUB_BASE_REF=base_ref,
        GITHUB_HEAD_REF=head_ref,
        GITHUB_REF="refs/pull/1/merge",
        GITHUB_WORKSPACE=str(workspace),
        RUNNER_TEMP=str(temp),
        RUNNER_OS="Linux",
        **files,
    )
