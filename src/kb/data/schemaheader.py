"""The first line of every data file: ``# yaml-language-server: $schema=<its JSON Schema>``.

Editors that read it (VS Code with the YAML extension, Neovim or Helix with yaml-language-server,
JetBrains IDEs) complete and check keys as one types.  Every command that writes a data file
writes it (:func:`with_header`); :func:`backfill` adds it to files written before.
"""

from __future__ import annotations

from pathlib import Path

from kb.data.atomic import write_atomic

PREFIX = "# yaml-language-server: $schema="
# data/<folder>/… -> (kind, the schema's path relative to a file of that folder)
FOLDERS = {
    "topics": ("topic", "../schema/topic.schema.json"),
    "papers": ("paper", "../schema/paper.schema.json"),
    "demos": ("demo", "../schema/demo.schema.json"),
    "briefs": ("brief", "../../schema/brief.schema.json"),
}


def header(folder: str) -> str:
    """The header line of a file under ``data/<folder>/``."""
    return f"{PREFIX}{FOLDERS[folder][1]}\n"


def with_header(text: str, folder: str) -> str:
    """``text`` with the header of its folder as its first line (unchanged if it has one)."""
    return text if text.startswith(PREFIX) else header(folder) + text


def folder_of(data_dir: Path, path: Path) -> str | None:
    """The data folder (``papers``, ``briefs`` …) a YAML file belongs to, or None."""
    try:
        parts = path.relative_to(data_dir).parts
    except ValueError:
        return None
    return parts[0] if len(parts) >= 2 and parts[0] in FOLDERS else None


def backfill(data_dir: Path) -> list[Path]:
    """Give every data file under ``data_dir`` its header; the files changed."""
    changed = []
    for path in sorted(data_dir.rglob("*.yaml")):
        folder = folder_of(data_dir, path)
        if folder is None:
            continue
        text = path.read_text("utf-8")
        new = with_header(text, folder)
        if new != text:
            write_atomic(path, new)
            changed.append(path)
    return changed
