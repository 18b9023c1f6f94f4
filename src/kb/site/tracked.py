"""Files a checkout carries under ``.cache/``, where the build cache once lived: a ``kb validate`` error.

The build cache is kept outside the checkout (:mod:`kb.site.cache`) and nothing reads ``.cache/``
of a checkout any more, but a pull request that carries files there (``git add -f``) is either a
mistake or an attempt to plant cache entries for a builder with older code: :func:`check` makes
each such file a located error, so CI fails on it.  The files are those git tracks under
``.cache/`` (``git ls-files``); where git is missing or the project is not in a repository, every
file under ``.cache/kb/`` but ``kb preview``'s site (``.cache/kb/preview/``, its own output).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kb.data.diagnostics import Diagnostic
from kb.data.loader import display_path
from kb.site.cache import IN_CHECKOUT

__all__ = ["check", "files"]

_PREVIEW = Path(IN_CHECKOUT) / "kb" / "preview"  # kb.site.preview.serve.PREVIEW_DIR: kb preview's built site


def files(root: Path) -> tuple[list[str], bool]:
    """The files under ``root/.cache`` (relative to ``root``, POSIX), and whether git listed them
    (false: found on disk, no git repository to ask)."""
    try:
        done = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "ls-files", "-z", "--", IN_CHECKOUT],
            cwd=root,
            capture_output=True,
            timeout=120,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):  # no git
        done = None
    if done is not None and done.returncode == 0:
        return sorted(name for name in os.fsdecode(done.stdout).split("\0") if name), True
    base = root / IN_CHECKOUT / "kb"
    found = [p.relative_to(root) for p in base.rglob("*") if p.is_file() or p.is_symlink()] if base.is_dir() else []
    return sorted(p.as_posix() for p in found if not p.is_relative_to(_PREVIEW)), False


def check(root: Path) -> list[Diagnostic]:
    """An error for each file under ``root/.cache`` that the checkout carries (:func:`files`)."""
    names, tracked = files(root)
    out = []
    for name in names:
        if tracked:
            why = (
                "git tracks this file under .cache/, where build caches were once kept: a pull request must "
                "not carry cache files (the build keeps its cache outside the checkout and never reads them); "
                f"remove it from the repository with `git rm --cached -- '{name}'` and commit"
            )
        else:
            why = (
                "a file under .cache/kb/, where build caches were once kept (the build keeps its cache outside "
                f"the checkout and never reads it); delete it: `rm -- '{name}'`"
            )
        out.append(Diagnostic(display_path(root / name), 1, 1, why, code="tracked-cache"))
    return out
