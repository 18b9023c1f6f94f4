"""``kb schema [--format markdown|json] [--write PATH | --check PATH]``: the data schema.

Generated from the pydantic models.  Markdown (:mod:`kb.cli.schema_doc`) is the
reference in CONTRIBUTING.md: ``--write`` replaces the text between
``<!-- schema:start -->`` and ``<!-- schema:end -->`` in FILE; ``--check`` exits 1
when that text is not the fresh output.  JSON is one JSON Schema per kind of data
file (:mod:`kb.data.jsonschema`), written to a directory (``data/schema``) that
scaffolded files point editors at with ``# yaml-language-server: $schema=…``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from kb.cli.schema_doc import END, START, insert, markdown, section
from kb.data.atomic import write_atomic
from kb.data.diagnostics import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "schema",
        help="print the data schema reference (from the models)",
        description="Print the schema reference of the data files, generated from the models: "
        "every record's keys with type, allowed values, patterns, required/optional, "
        f"default and description.  --write FILE replaces the text between {START} "
        f"and {END} in FILE.",
    )
    p.add_argument(
        "--format",
        choices=("markdown", "json"),
        default="markdown",
        help="markdown: the reference for CONTRIBUTING.md; json: JSON Schemas for editors (default: markdown)",
    )
    target = p.add_mutually_exclusive_group()
    target.add_argument(
        "--write",
        metavar="PATH",
        default=None,
        help="markdown: insert the reference between the markers in FILE; json: write DIR/<kind>.schema.json",
    )
    target.add_argument("--check", metavar="PATH", default=None, help="exit 1 if PATH is not up to date")
    target.add_argument(
        "--headers",
        metavar="DATA",
        default=None,
        help="give every data file under DATA (e.g. data) its `# yaml-language-server: $schema=…` first line",
    )
    p.set_defaults(func=run)


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None


def run(args: argparse.Namespace) -> int:
    if args.headers is not None:
        from kb.data.schemaheader import backfill

        changed = backfill(Path(args.headers))
        for path in changed:
            print(f"added the schema line to {path}")
        print(f"kb schema --headers: {len(changed)} file(s) changed")
        return 0
    if args.format == "json":
        return run_json(args)
    reference = markdown()
    if args.write is None and args.check is None:
        sys.stdout.write(reference)
        return 0
    path = Path(args.write or args.check)
    text = _read(path)
    try:
        current = section(text)
        updated = insert(text, reference)
    except ValueError as exc:
        raise UserError(f"{path}: {exc}") from None
    if args.check is not None:
        if current != reference.strip("\n"):
            print(f"{path}: the schema reference is out of date: run `kb schema --write {path}`", file=sys.stderr)
            return 1
        print(f"{path}: the schema reference is up to date")
        return 0
    if updated != text:
        write_atomic(path, updated)
        print(f"updated the schema reference in {path}")
    else:
        print(f"{path}: the schema reference is already up to date")
    return 0


def run_json(args: argparse.Namespace) -> int:
    from kb.data.jsonschema import schemas

    files = schemas()
    if args.write is None and args.check is None:
        json.dump({name: schema for name, schema in files.items()}, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    folder = Path(args.write or args.check)
    stale = [name for name, schema in files.items() if _json_text(schema) != _read_or_empty(folder / name)]
    if args.check is not None:
        if stale:
            print(
                f"{folder}: out of date: {', '.join(stale)}: run `kb schema --format json --write {folder}`",
                file=sys.stderr,
            )
            return 1
        print(f"{folder}: the JSON Schemas are up to date")
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    for name in stale:
        write_atomic(folder / name, _json_text(files[name]))
    print(
        f"wrote {len(stale)} JSON Schema(s) to {folder}"
        if stale
        else f"{folder}: the JSON Schemas are already up to date"
    )
    return 0


def _json_text(schema: dict[str, Any]) -> str:
    from kb.data.jsonschema import text

    return text(schema)


def _read_or_empty(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""
