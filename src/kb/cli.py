"""The contributor command line: ``kb``.

Each subcommand lives in its own module under ``kb.commands`` and registers
itself with ``register(subparsers)``.  A data mistake ends with located
messages and exit status 1, never a traceback (``--debug`` shows one).
"""

from __future__ import annotations

import argparse
import sys

from .diagnostics import DataError

COMMANDS = ("validate", "paper", "bib", "new", "schema")


class UserError(Exception):
    """A mistake the user can fix; printed as ``error: ...`` without a traceback."""


def build_parser() -> argparse.ArgumentParser:
    import importlib

    parser = argparse.ArgumentParser(prog="kb", description="LLM-inference knowledge base tools.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"kb.commands.{name}")
        except ModuleNotFoundError as exc:  # a command module not built yet
            if exc.name != f"kb.commands.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (UserError, DataError) as exc:
        if args.debug:
            raise
        if isinstance(exc, DataError):
            for d in exc.diagnostics:
                print(d.text(), file=sys.stderr)
        else:
            print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
