"""The repository's own files GitHub and editors read: issue forms, Dependabot, the citation file
match their published schemas; the citation's version is the package's."""

from __future__ import annotations

import subprocess
import tomllib

import pytest
import yaml
from test_ci_workflows import tool
from workflow_steps import ROOT

SCHEMA_OF = {
    ".github/dependabot.yml": "vendor.dependabot",
    ".github/ISSUE_TEMPLATE/config.yml": "vendor.github-issue-config",
    ".github/ISSUE_TEMPLATE/track-paper.yml": "vendor.github-issue-forms",
    ".github/ISSUE_TEMPLATE/data-error.yml": "vendor.github-issue-forms",
    "CITATION.cff": "vendor.citation-file-format",
}


@pytest.mark.parametrize(("path", "schema"), SCHEMA_OF.items())
def test_file_matches_its_schema(path, schema):
    run = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", schema, str(ROOT / path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_citation_version_is_the_package_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text("utf-8"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert str(cff["version"]) == project["version"]


def test_every_issue_form_in_the_folder_is_checked():
    forms = {p.relative_to(ROOT).as_posix() for p in (ROOT / ".github" / "ISSUE_TEMPLATE").glob("*.yml")}
    assert forms <= set(SCHEMA_OF)
