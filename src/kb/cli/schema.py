"""``kb schema [--format markdown] [--write FILE | --check FILE]``: the data schema reference.

Generated from the pydantic models (:mod:`kb.schema_doc`).  ``--write`` replaces
the text between ``<!-- schema:start -->`` and ``<!-- schema:end -->`` in FILE
(CONTRIBUTING.md); ``--check`` exits 1 when that text is not the fresh output.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kb.data.atomic import write_atomic
from kb.data.diagnostics import UserError
from kb.cli.schema_doc import END, START, insert, markdown, section


def register(sub) -> None:
    p = sub.add_parser("schema", help="print the data schema reference (from the models)",
                       description="Print the schema reference of the data files, generated from the models: "
                                   "every record's keys with type, allowed values, patterns, required/optional, "
                                   f"default and description.  --write FILE replaces the text between {START} "
                                   f"and {END} in FILE.")
    p.add_argument("--format", choices=("markdown",), default="markdown", help="output format (default: markdown)")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--write", metavar="FILE", default=None, help="insert the reference between the markers in FILE")
    target.add_argument("--check", metavar="FILE", default=None, help="exit 1 if FILE's reference is not up to date")
    p.set_defaults(func=run)


def _read(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        raise UserError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: cannot read: {exc}") from None


def run(args) -> int:
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
