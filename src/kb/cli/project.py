"""The data directory a command works on, found as git finds its repository: ``--data`` when
given, else the ``data/`` of the project ``kb`` runs in, from the working directory up."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

FOUND = "./data, else the data/ beside the nearest mkdocs.yml above"  # where data_dir looks
HELP = f"data directory (default: {FOUND})"


def add_data_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", default=None, help=HELP)


def data_dir(given: str | None) -> Path:
    """``given``; else ``./data`` when there is one, else the ``data/`` beside the nearest
    ``mkdocs.yml`` above (relative to here, as messages show paths); else ``data``, which the
    command says is missing."""
    if given:
        return Path(given)
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / "data").is_dir() and (folder == here or (folder / "mkdocs.yml").is_file()):
            return Path(os.path.relpath(folder / "data"))
    return Path("data")
