"""``kb preview [--dev-addr 127.0.0.1:8000] [--data DIR] [--config-file mkdocs.yml]``: the site,
built once and served with live reload; after each change only the pages it affects are
built again, in the same process (:mod:`kb.site.preview.serve`; what a change affects:
:mod:`kb.site.preview`).  For contributors: ``mkdocs serve`` rebuilds every page on each save.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from kb.data.diagnostics import UserError

DEFAULT_ADDR = "127.0.0.1:8000"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "preview",
        help="build the site once and serve it; rebuild only what each change affects",
        description="Build the site as `mkdocs build` does (theme, navigation, the kb plugin's pages) "
        "into .cache/kb/preview/ beside mkdocs.yml and serve it with live reload.  After a change "
        "under data/, docs/, overrides/ or hooks/, or of mkdocs.yml, build again in the same "
        "process only the pages it affects: the changed records' pages and those whose computed "
        "figures, backlinks or status change, the home page, the living documents, the indexes, "
        "the backlog and the statistics; the search index follows the changed pages once nothing "
        "has changed for 1.5 s, by a Pagefind run over the whole site (a change meanwhile stops it; "
        "the next run takes both).  Errors show in "
        "the terminal and on every served page; the last good build stays served (pages a failed "
        "build wrote are written again by the next).",
    )
    p.add_argument(
        "-a",
        "--dev-addr",
        default=DEFAULT_ADDR,
        metavar="IP:PORT",
        help=f"address to serve on (default: {DEFAULT_ADDR}; port 0: any free port)",
    )
    p.add_argument(
        "--data",
        default=None,
        help="data directory (default: $KB_DATA, else the kb plugin's data_dir in mkdocs.yml)",
    )
    p.add_argument("-f", "--config-file", default="mkdocs.yml", help="the project's mkdocs.yml (default: mkdocs.yml)")
    p.set_defaults(func=run)


def address(text: str) -> tuple[str, int]:
    """``IP:PORT`` (``[::1]:8000`` for IPv6) -> host and port."""
    host, sep, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise UserError(f"--dev-addr: expected IP:PORT, e.g. {DEFAULT_ADDR}, got {text!r}")
    return host, int(port)


def run(args: argparse.Namespace) -> int:
    host, port = address(args.dev_addr)
    config_file = Path(args.config_file)
    if not config_file.is_file():
        raise UserError(f"{config_file}: no such file (run kb preview beside mkdocs.yml, or pass --config-file)")
    data = Path(args.data) if args.data else None
    if data is not None and not data.is_dir():
        raise UserError(f"--data: {data} is not a directory")
    from kb.site.preview import serve  # MkDocs and the theme load only for this command

    return serve.serve(serve.project(config_file, data), host, port, say=_say, warn=_warn)


def _say(line: str) -> None:
    print(line, flush=True)


def _warn(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
