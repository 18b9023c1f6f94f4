"""``kb import brief FILE|DIR…`` and ``kb export brief KEY --text``: briefs in the team's text format.

Import writes ``data/briefs/<topic>/<date>-<round>.yaml`` (with the schema header the other
data files carry) and a paper file for every paper the knowledge base does not know yet
(offline: ``kb paper refresh`` fills the metadata later).  Every line of the text ends up in a
field or, verbatim, under ``unmapped``; each unmapped line is reported (file:line and why) and
``--strict`` fails on any.  ``--check`` prints what was extracted instead of writing.
A directory is imported in date order, each brief seeing the ones before it (claims keep
their ids across days), then checked as hand-written records are.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kb.cli.project import add_data_option, data_dir
from kb.cli.summary import emit
from kb.data.diagnostics import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    said = "import briefs written in the team's text format"
    p = sub.add_parser("import", help=said, description=said + ": kb import brief FILE ...")
    kinds = p.add_subparsers(dest="import_command", metavar="KIND", required=True)
    said = "text brief(s) -> data/briefs/<topic>/<date>-<round>.yaml"
    b = kinds.add_parser(
        "brief",
        help=said,
        description=f"{said}: each fact the text states, where the schema puts it; what no rule reads is "
        "said as unmapped (--check shows what was read, writing nothing)",
    )
    b.add_argument("files", nargs="+", metavar="FILE", help="text brief(s), or a directory of them")
    add_data_option(b)
    b.add_argument("--check", action="store_true", help="print what was extracted; write nothing")
    b.add_argument("--json", action="store_true", help="with --check: the facts as JSON")
    b.add_argument("--strict", action="store_true", help="fail on any unmapped line")
    b.add_argument("--force", action="store_true", help="overwrite an existing brief file")
    b.set_defaults(func=run_import)
    said = "write a brief in the team's text format"
    e = sub.add_parser("export", help=said, description=said + ": kb export brief KEY")
    ek = e.add_subparsers(dest="export_command", metavar="KIND", required=True)
    said = "a brief record as the team's text, on standard output"
    eb = ek.add_parser("brief", help=said, description=said + " (what kb import brief reads back)")
    eb.add_argument("key", metavar="KEY", help="brief key, e.g. inference/2026-09-03-e1")
    eb.add_argument("--text", action="store_true", help="the team's text format (the only one: the default)")
    add_data_option(eb)
    eb.set_defaults(func=run_export)


def _texts(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix in (".txt", ".md") and p.is_file())
        elif path.is_file():
            files.append(path)
        else:
            raise UserError(f"no such file: {raw}")
    return files


def run_import(args: argparse.Namespace) -> int:
    from kb.importer.batch import import_files

    data = data_dir(args.data)
    results = import_files(data, _texts(args.files), write=not args.check, force=args.force)
    misses = 0
    for r in results:
        for m in r.imported.misses:
            misses += 1
            print(f"{r.path}:{m.line.first}: unmapped: {m.why}: {m.line.text[:80]}", file=sys.stderr)
        if args.check and not args.json:
            print(r.report_text, end="")
        elif not args.check:
            print(f"wrote {r.written}" + "".join(f"\nwrote {p}" for p in r.papers))
    if args.check and args.json:
        emit([r.facts for r in results])
    if not args.check:
        for line in _findings(data, [r.written for r in results if r.written]):
            print(line)
    return 1 if args.strict and misses else 0


def _findings(data: Path, written: list[Path]) -> list[str]:
    """What ``kb validate`` reports about the written files, one line each."""
    from kb.cli.validate import collect
    from kb.data.loader import display_path

    diags, _ = collect(data, None)
    wanted = {display_path(p.resolve()) for p in written} | {str(p) for p in written}
    return [d.text() for d in diags if d.path in wanted]


def run_export(args: argparse.Namespace) -> int:
    from kb.data.loader import load
    from kb.importer.export import export_text
    from kb.importer.sections import labels

    data = data_dir(args.data)
    loaded = load(data)
    if args.key not in loaded.briefs:
        raise UserError(f"no brief {args.key} under {data} (keys look like inference/2026-09-03-e1)")
    papers = {k: v[0] for k, v in loaded.papers.items()}

    def lookup(pid: str) -> tuple[str, str | None, str | None]:
        p = papers.get(pid)
        return (p.short, p.arxiv_base, p.title) if p else (pid, None, None)

    brief = loaded.briefs[args.key][0]
    topic = loaded.topics.get(brief.topic)
    titles = {c.id: c.title for b, _ in loaded.briefs.values() for c in b.claims}
    sys.stdout.write(export_text(brief, lookup, labels(topic[0]) if topic else None, titles))
    return 0


__all__: list[Any] = ["register"]
