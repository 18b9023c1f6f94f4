"""The pinned, hashed requirement files the workflows install from are in step
with pyproject.toml: every declared dependency (and, in requirements/test.txt,
every test extra) is pinned with ``==`` to a version its declaration allows,
every pin carries sha256 hashes, nothing is locked as a direct dependency that
pyproject.toml no longer declares, and both files pin the same versions.
Regenerate them with ``bash scripts/lock-requirements``."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from workflow_steps import ROOT

REQUIREMENTS = ROOT / "requirements"
PROJECT = "llm-inference-kb (pyproject.toml)"
HASH = re.compile(r"^--hash=sha256:[0-9a-f]{64}$")


@dataclass
class Pin:
    name: str
    version: str
    hashes: list[str]
    via: list[str] = field(default_factory=list)


def parse_lock(path: Path) -> dict[str, Pin]:
    """``name==version \\ --hash=… …`` entries with their ``# via`` annotations."""
    pins: dict[str, Pin] = {}
    current: Pin | None = None
    logical = re.sub(r"\\\n\s*", " ", path.read_text("utf-8"))
    for line in logical.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            note = stripped.lstrip("#").strip()
            if current is not None and note and note != "via":
                current.via.append(note.removeprefix("via ").strip())
            continue
        spec, *options = stripped.split()
        assert not spec.startswith("-"), f"{path.name}: option line {stripped!r} (no index or find-links lines)"
        m = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", spec)
        assert m, f"{path.name}: {spec!r} is not pinned with =="
        assert options and all(HASH.match(o) for o in options), (
            f"{path.name}: {spec} has no (or a malformed) sha256 hash"
        )
        current = Pin(canonicalize_name(m.group(1)), m.group(2), options)
        assert current.name not in pins, f"{path.name}: {current.name} pinned twice"
        pins[current.name] = current
    return pins


def declared() -> tuple[list[Requirement], list[Requirement]]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    return (
        [Requirement(r) for r in project["dependencies"]],
        [Requirement(r) for r in project["optional-dependencies"]["test"]],
    )


LOCKS = {"site.txt": lambda deps, test: deps, "test.txt": lambda deps, test: deps + test}


@pytest.mark.parametrize("name", sorted(LOCKS))
def test_lock_pins_every_declared_dependency_with_hashes(name):
    pins = parse_lock(REQUIREMENTS / name)
    wanted = LOCKS[name](*declared())
    for req in wanted:
        pin = pins.get(canonicalize_name(req.name))
        assert pin is not None, (
            f"requirements/{name}: {req.name} is declared in pyproject.toml but not locked "
            "(run bash scripts/lock-requirements)"
        )
        assert req.specifier.contains(pin.version, prereleases=True), (
            f"requirements/{name}: {req.name}=={pin.version} does not satisfy {req} "
            "(run bash scripts/lock-requirements)"
        )
        assert PROJECT in pin.via, f"requirements/{name}: {req.name} is not marked as wanted by the project"
    direct = {n for n, p in pins.items() if PROJECT in p.via}
    stale = direct - {canonicalize_name(r.name) for r in wanted}
    assert not stale, f"requirements/{name}: locked for the project but no longer declared: {sorted(stale)}"


def test_both_locks_pin_the_same_versions():
    site, test = parse_lock(REQUIREMENTS / "site.txt"), parse_lock(REQUIREMENTS / "test.txt")
    assert set(site) <= set(test), sorted(set(site) - set(test))
    assert {n: p.version for n, p in site.items()} == {n: test[n].version for n in site}


def test_locks_name_no_machine_and_no_extra_index():
    for path in REQUIREMENTS.glob("*.txt"):
        text = path.read_text("utf-8")
        assert "--index-url" not in text and "--extra-index-url" not in text and "--find-links" not in text
        assert not re.search(r"(^|[\s(])/(tmp|home|root|opt|work|usr)/", text), f"{path.name} names a machine path"
        assert "bash scripts/lock-requirements" in text.splitlines()[1], "made by scripts/lock-requirements"


def test_the_parser_refuses_unpinned_and_unhashed_lines(tmp_path):
    """Control: the checks above really read the files."""
    good = "a==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n    # via llm-inference-kb (pyproject.toml)\n"
    assert parse_lock(_write(tmp_path, good))["a"].via == [PROJECT]
    for bad in (
        "a>=1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n",
        "a==1.0\n",
        "a==1.0 --hash=md5:00\n",
        "--extra-index-url https://example.invalid/simple\n",
    ):
        with pytest.raises(AssertionError):
            parse_lock(_write(tmp_path, bad))


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "lock.txt"
    path.write_text(text, "utf-8")
    return path


def test_workflows_install_only_from_the_locks():
    """Both workflows: hashed requirements first, then the project without its dependencies."""
    for wf_name, lock in (("pr.yml", "requirements/test.txt"), ("publish.yml", "requirements/site.txt")):
        text = (ROOT / ".github" / "workflows" / wf_name).read_text("utf-8")
        installs = re.findall(r"pip install[^\n]*", text)
        assert installs, wf_name
        assert f"pip install --require-hashes -r {lock}" in installs, (wf_name, installs)
        for line in installs:
            assert "--require-hashes -r requirements/" in line or "--no-deps -e ." in line, (wf_name, line)
