"""The contributor command line: ``kb``.

Each subcommand lives in its own module of this package and registers itself
with ``register(subparsers)``.  A data mistake ends with located messages and
exit status 1, never a traceback (``--debug`` shows one).  Command modules
import their heavy dependencies (HTTP, BibTeX) when they run, so start-up
stays light.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from importlib.metadata import version

from kb.data.diagnostics import DataError, UserError

COMMANDS = (
    "validate",
    "status",
    "paper",
    "bib",
    "new",
    "schema",
    "preview",
    "build",
    "import",
    "export",
    "completion",
    "init",
)
MODULES = {"import": "brieftext", "export": "brieftext"}  # commands whose module has another name

__all__ = ["UserError", "build_parser", "main"]

DAY = """\
a day's brief (CONTRIBUTING.md, "Adding a day's brief"):
  kb import brief FILE.txt      the brief as the team writes it (--check: what it reads, writing nothing)
  kb new brief --topic T --date D
                                or an empty brief to fill in YAML
  kb new paper ARXIV_ID         a paper the brief names that has no file yet (kb paper add ARXIV_ID:
                                with its arXiv metadata, online)
  kb validate --strict          every error at once, located; what CI checks
  kb preview                    the site, rebuilt as you save
then open a pull request: CI validates and builds it.  kb COMMAND -h: a command's options."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``kb``: of every command, or of ``command`` alone (only its module is imported:
    ``kb build`` starts without the data layer the other commands load)."""
    parser = argparse.ArgumentParser(
        prog="kb",
        description="LLM-inference knowledge base tools.",
        epilog=DAY,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version('llm-inference-kb')}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    names = (command,) if command in COMMANDS else COMMANDS
    for module in dict.fromkeys(MODULES.get(name, name) for name in names):
        importlib.import_module(f"kb.cli.{module}").register(sub)
    return parser


def _command(given: list[str]) -> str | None:
    """The command ``given`` names: its first word that is not an option (``kb``'s own options take
    no value); None where help for ``kb`` itself comes first (it lists every command)."""
    for arg in given:
        if arg in ("-h", "--help"):
            return None
        if not arg.startswith("-"):
            return arg
    return None


def main(argv: list[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else argv
    parser = build_parser(_command(given))
    args = parser.parse_args(given)
    try:
        status = int(args.func(args) or 0)
        sys.stdout.flush()  # here, where a reader that stopped reading (| head) is caught below
        return status
    except BrokenPipeError:  # the reader of the output went away (| head): stop quietly, as cat does
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the interpreter's last flush has nowhere to fail
        return 128 + 13  # killed by SIGPIPE, as a shell reports it
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
