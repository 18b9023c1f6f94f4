"""Cache files a pull request carries never run: a pickle payload (it writes a marker file when
unpickled) placed wherever the build cache once lived in the checkout (``.cache/kb/``: the fixed
``mentions.pickle`` and ``bibtex.pickle``, every entry of ``records/`` and ``finished/`` under the
name a build gives it, the compiled templates of ``templates/``) is never loaded by ``kb validate``
or ``kb build`` with the default cache, which lives outside the checkout (kb.site.cache); a cache
directory named inside the checkout is refused; and in a fresh clone of a repository that
commits such files (``git add -f``), ``kb validate --strict`` fails with a located error naming
each tracked file (kb.site.tracked) while ``kb build --strict`` builds without running them."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic

from sitebuild import build, copy_project

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "KB Test",
    "GIT_AUTHOR_EMAIL": "kb-test@example.invalid",
    "GIT_COMMITTER_NAME": "KB Test",
    "GIT_COMMITTER_EMAIL": "kb-test@example.invalid",
}


def payload(marker: Path) -> bytes:
    """A pickle that writes ``marker`` when it is loaded."""

    class Run:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return exec, (f"open({str(marker)!r}, 'w').write('the payload ran')",)

    return pickle.dumps(Run())


def plant(directory: Path, names: list[str], marker: Path) -> None:
    """The payload under each name in ``directory``; a compiled template's after Jinja's header
    (where Jinja unpickles the template's checksum)."""
    for name in names:
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((bc_magic if name.startswith("templates/") else b"") + payload(marker))


FIXED = ["mentions.pickle", "bibtex.pickle", "mentions.json", "bibtex.json"]


def kb(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KB_CACHE", "KB_DATA")} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "kb", *args],
        cwd=cwd,
        env=env | {"NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
    )


@pytest.fixture
def no_cache_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default cache (no KB_CACHE), as a contributor builds."""
    monkeypatch.delenv("KB_CACHE", raising=False)


def test_payloads_where_the_cache_was_never_run(tmp_path: Path, no_cache_setting: None) -> None:
    project = copy_project(tmp_path / "project")
    marker = tmp_path / "marker"
    # every file a build keeps, under the names a build gives them (made by a build whose cache
    # is elsewhere), then each one a payload in the checkout's .cache/kb/
    elsewhere = tmp_path / "a-cache-elsewhere"
    first = build(tmp_path / "site-first", env_extra={"KB_CACHE": str(elsewhere)}, project=project)
    assert first.returncode == 0, first.stderr
    kept = [p.relative_to(elsewhere).as_posix() for p in elsewhere.rglob("*") if p.is_file()]
    kept += [name.removesuffix(".json") + ".pickle" for name in kept if name.endswith(".json")]  # older names
    assert any(k.startswith("records/") for k in kept) and any(k.startswith("finished/") for k in kept)
    shutil.rmtree(elsewhere)
    planted = project / ".cache" / "kb"
    plant(planted, sorted({*kept, *FIXED}), marker)

    validated = kb("validate", "--strict", cwd=project)
    built = build(tmp_path / "site", project=project)
    assert not marker.exists(), "a cache file of the checkout was unpickled"
    assert built.returncode == 0, built.stderr
    assert validated.returncode == 1
    assert ".cache/kb/mentions.pickle:1:1:" in validated.stderr  # no git here: the files found are errors

    inside = build(tmp_path / "site-inside", env_extra={"KB_CACHE": ".cache/kb"}, project=project)
    assert inside.returncode != 0 and "inside the project" in inside.stderr + inside.stdout
    assert not marker.exists()


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_fresh_clone_carrying_cache_files_fails_validation_and_never_runs_them(
    tmp_path: Path, no_cache_setting: None
) -> None:
    origin = copy_project(tmp_path / "origin")
    (origin / ".gitignore").write_text("/.cache/\n/site/\n", "utf-8")  # as the project's
    marker = tmp_path / "marker"
    plant(origin / ".cache" / "kb", FIXED, marker)
    git(origin, "init", "-q", "-b", "main")
    git(origin, "add", "-A")
    git(origin, "add", "-f", ".cache")
    git(origin, "commit", "-q", "-m", "a pull request carrying cache files")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    assert (clone / ".cache" / "kb" / "mentions.pickle").is_file()

    validated = kb("validate", "--strict", cwd=clone)
    built = build(tmp_path / "site", project=clone)
    assert not marker.exists(), "a cache file the clone carries was unpickled"
    assert built.returncode == 0, built.stderr
    assert validated.returncode == 1
    for name in FIXED:
        line = next(x for x in validated.stderr.splitlines() if x.startswith(f".cache/kb/{name}:1:1:"))
        assert "git tracks this file" in line and f"git rm --cached -- '.cache/kb/{name}'" in line
    assert git(clone, "status", "--porcelain") == ""  # the build wrote nothing into the checkout
