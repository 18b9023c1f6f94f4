"""Build the real site with MkDocs (strict), as CI and readers do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def build(dest: Path, env_extra: dict | None = None, data: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env_extra or {})}
    if data is not None:
        env["KB_DATA"] = str(data)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(dest)],
                          cwd=ROOT, capture_output=True, text=True, env=env)


def copy_project(dest: Path) -> Path:
    """A throw-away copy of everything a build reads, to change a page or the data in."""
    import shutil

    for name in ("mkdocs.yml", "docs", "hooks", "overrides", "data"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, dest / name)
    return dest


CHROMIUM = Path("/usr/bin/chromium")  # Debian's chromium; tests never download a browser
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run"]


class serve_directory:
    """Serve ``directory`` on 127.0.0.1 (a free port) for the duration of a ``with`` block."""

    def __init__(self, directory: Path):
        import functools
        import http.server

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))

    def __enter__(self) -> str:
        import threading

        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
