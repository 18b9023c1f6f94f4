"""Build the real site (strict), as CI does, from a project copy.

Tests build the frozen knowledge base in ``tests/fixtures/kb`` (its data and its
template pages over the live ``docs/``), never the live ``data/``: adding
tomorrow's brief must not change what they assert.  Only ``tests/live`` builds
the live project.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "kb"
FIXTURE_DATA = FIXTURE / "data"
TEAM = ROOT / "tests" / "fixtures" / "team"  # three topics, papers across them (its README.md)
CODE = ("mkdocs.yml", "docs", "hooks")  # what a build reads besides data/ (and the kb package)


def build(
    dest: Path, env_extra: dict | None = None, data: Path | None = None, project: Path | None = None
) -> subprocess.CompletedProcess:
    """``kb build --strict`` of ``project`` (default: a fresh copy of the frozen one beside
    ``dest``) into ``dest``, as CI builds the site (``mkdocs build`` in a process of its own, the
    search index after it: kb.cli.build); ``data`` replaces its data directory (``KB_DATA``)."""
    if project is None:
        project = copy_project(dest.parent / f"{dest.name}-project")
    env = {k: v for k, v in os.environ.items() if k not in ("KB_DATA", "KB_DEMOS")}
    env.update({"NO_MKDOCS_2_WARNING": "1", **(env_extra or {})})
    if data is not None:
        env["KB_DATA"] = str(data)
    return subprocess.run(
        [sys.executable, "-m", "kb", "build", "--strict", "-d", str(dest)],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
    )


def copy_project(dest: Path, live: bool = False, fixture: Path = FIXTURE) -> Path:
    """A throw-away project at ``dest`` to build or change: the project's configuration, code and
    pages with a frozen knowledge base's data and template pages (``fixture``: ``tests/fixtures/kb``,
    or :data:`TEAM`, whose ``hooks/`` lists its template pages; ``live``: the live data/)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in CODE:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, dest / name)
    if live:
        shutil.copytree(ROOT / "data", dest / "data")
        return dest
    shutil.copytree(fixture / "data", dest / "data")
    for part in ("docs", "hooks") if fixture != FIXTURE else ("docs",):
        for page in (fixture / part).rglob("*"):
            if page.is_file():
                target = dest / part / page.relative_to(fixture / part)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(page, target)
    return dest


def override(project: Path, name: str, text: str) -> Path:
    """A template of the project's own (``overrides/NAME``, the theme's ``custom_dir``), which the
    build finds before the kb package's and Material's; the file."""
    config = project / "mkdocs.yml"
    yml = config.read_text("utf-8")
    if "\n  custom_dir: overrides\n" not in yml:
        assert "\ntheme:\n  name: material\n" in yml
        config.write_text(
            yml.replace("\ntheme:\n  name: material\n", "\ntheme:\n  name: material\n  custom_dir: overrides\n"),
            "utf-8",
        )
    path = project / "overrides" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def built_files(site: Path) -> dict[str, bytes]:
    """Every file of a built site but Pagefind's bundle (its file names are not reproducible)."""
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in site.rglob("*")
        if p.is_file() and p.relative_to(site).parts[0] != "pagefind"
    }


CHROMIUM = Path("/usr/bin/chromium")  # Debian's chromium; tests never download a browser
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class serve_directory:
    """Serve ``directory`` on 127.0.0.1 (a free port) for the duration of a ``with`` block."""

    def __init__(self, directory: Path):
        import functools
        import http.server

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory))
        )

    def __enter__(self) -> str:
        import threading

        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
