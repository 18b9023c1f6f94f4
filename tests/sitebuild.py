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
