"""The contributor command line: ``kb``.

Each subcommand lives in its own module of this package and registers itself
with ``register(subparsers)``.  A data mistake ends with located messages and
exit status 1, never a traceback (``--debug`` shows one).  Command modules
import their heavy dependencies (HTTP, BibTeX) when they run, so start-up
stays light.
"""

from __future__ import annotations

import argparse
import sys

from kb.cli import bib, build, new, paper, preview, schema, status, validate
from kb.data.diagnostics import DataError, UserError

COMMANDS = (validate, status, paper, bib, new, schema, preview, build)

__all__ = ["UserError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kb", description="LLM-inference knowledge base tools.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS:
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
