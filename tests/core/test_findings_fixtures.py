"""One data set per kind of finding (stated-vs-computed or an inconsistency), each a
warning that fails only ``kb validate --strict``, located where ``case.yaml`` says
(derived by hand) and pinned whole in ``expected.json``.  Regenerate after a
deliberate change with ``KB_UPDATE_GOLDEN=1 pytest tests/core/test_findings_fixtures.py``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from overlay import FIXTURES, cases, materialize

GROUP = "findings"
FIELDS = ("path", "line", "col", "key", "severity", "code", "message")


def validate(cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kb", "validate", *extra],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "GITHUB_ACTIONS": "false"},
    )


@pytest.mark.parametrize("case", cases(GROUP))
def test_finding_is_a_warning_located_as_derived(case, tmp_path):
    project = materialize(GROUP, case, tmp_path)
    run = validate(project, "--format", "json")
    assert run.returncode == 0, run.stdout + run.stderr  # a finding never fails without --strict
    got = [{k: d[k] for k in FIELDS} for d in json.loads(run.stdout) if d["severity"] == "warning"]
    golden = FIXTURES / GROUP / case / "expected.json"
    if os.environ.get("KB_UPDATE_GOLDEN") == "1":
        golden.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", "utf-8")
    assert got == json.loads(golden.read_text("utf-8"))
    spec = yaml.safe_load((FIXTURES / GROUP / case / "case.yaml").read_text("utf-8"))
    for want in spec["expect"]:
        assert [
            d for d in got if d["path"] == want["path"] and d["code"] == want["code"] and want["has"] in d["message"]
        ], f"{case}: nothing matches {want}:\n" + "\n".join(f"{d['code']}: {d['message']}" for d in got)
    strict = validate(project, "--strict")
    assert strict.returncode == 1 and "Traceback" not in strict.stderr


@pytest.mark.parametrize("case", [c for c in cases(GROUP) if c != "stale-acknowledgement"])
def test_acknowledging_the_finding_passes_strict(case, tmp_path):
    """Acknowledged by its code (with a reason), the finding is a note: --strict passes."""
    project = materialize(GROUP, case, tmp_path)
    found = [d for d in json.loads(validate(project, "--format", "json").stdout) if d["severity"] == "warning"]
    by_file: dict[str, list[str]] = {}
    for d in found:
        by_file.setdefault(d["path"], []).append(d["code"])
    for path, codes in by_file.items():
        file = project / path
        acks = "".join(f"  - {{finding: {code}, reason: 原文如此}}\n" for code in codes)
        file.write_text(file.read_text("utf-8") + "acknowledged:\n" + acks, "utf-8")
    run = validate(project, "--strict", "--verbose")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("note:") == len(found)
