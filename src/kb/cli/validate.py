"""``kb validate [--strict] [paths…]``: check data (and pages) and print every problem at once."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from kb.cli.project import FOUND, data_dir
from kb.cli.summary import emit, summary
from kb.data.diagnostics import Diagnostic, Severity, UserError, sort_diagnostics
from kb.data.loader import display_path, load
from kb.data.recordstore import RecordStore
from kb.gcpause import gc_paused
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import build
from kb.site import cache, tracked


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "validate",
        help="validate the data files; exit 1 on any error",
        description="Validate every record under the data directory and the cross-record rules. "
        "With paths, report only problems in those files (the whole data set is still checked).",
    )
    p.add_argument("paths", nargs="*", help="data directory, or files inside it (default: data)")
    p.add_argument(
        "--strict",
        action="store_true",
        help="treat warnings (findings not acknowledged, e.g. stated-vs-computed "
        "disagreements) as errors; acknowledged findings never fail",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="also print the acknowledged findings (notes)")
    p.add_argument(
        "--data",
        default=None,
        help=f"data directory (default: the one holding the paths, else {FOUND})",
    )
    p.add_argument(
        "--docs",
        default=None,
        help="docs directory whose pages are checked (template syntax, front matter, "
        "macro references); default: the docs/ beside the data directory, if any",
    )
    shape = p.add_mutually_exclusive_group()
    shape.add_argument(
        "--format",
        choices=("text", "github", "json"),
        default=None,
        help="output format (default: text, plus GitHub annotations under GitHub Actions; json: the "
        "list of diagnostics)",
    )
    shape.add_argument(
        "--json",
        action="store_true",
        help="instead of --format: print one JSON summary on stdout: ok, counts (errors, warnings, "
        "acknowledged, briefs, papers, topics, files not counted) and every diagnostic located, with its hint",
    )
    p.set_defaults(func=run)


def _data_dir(args: argparse.Namespace) -> tuple[Path, list[Path]]:
    if args.data:
        return Path(args.data), [Path(p) for p in args.paths]
    files = []
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir() and path.name == "data" or (path.is_dir() and (path / "papers").is_dir()):
            return path, []
        files.append(path)
    for f in files:
        for parent in f.resolve().parents:
            if parent.name == "data":
                return Path(os.path.relpath(parent)), files
    return data_dir(None), files


def _checked(path: Path, data_dir: Path, docs: Path | None) -> bool:
    """Whether ``path`` is a file some check of ``kb validate`` reads: a YAML file under the data
    directory, or any file under the docs directory being checked."""
    where = path.resolve()
    if where.suffix in (".yaml", ".yml") and where.is_relative_to(data_dir.resolve()):
        return True
    return docs is not None and where.is_relative_to(docs.resolve())


def collect(data_dir: Path, docs_dir: Path | None) -> tuple[list[Diagnostic], KnowledgeBase]:
    with gc_paused(freeze=True):  # a one-shot command: nothing of it is garbage before the end
        kb = build(load(data_dir, memo=_records(data_dir)), mentions=False)
    diags = list(kb.diagnostics)
    if docs_dir is not None and docs_dir.is_dir():
        from kb.render.pagecheck import check_macro_refs, check_pages  # Markdown: only for pages

        diags.extend(check_pages(docs_dir))
        if not kb.errors:
            diags.extend(check_macro_refs(docs_dir, kb))
    return sort_diagnostics(diags), kb


def _records(data_dir: Path) -> RecordStore | None:
    """The parsed data files the site's build keeps (:mod:`kb.data.recordstore`), when ``data_dir`` is
    a project's data (beside its mkdocs.yml): validating, then building, parses each file once."""
    root = data_dir.resolve().parent
    return cache.records(root) if (root / "mkdocs.yml").is_file() else None


def fmt_of(args: argparse.Namespace) -> str:
    return "summary" if getattr(args, "json", False) else args.format or "text"


def run(args: argparse.Namespace) -> int:
    data_dir, files = _data_dir(args)
    missing = [str(f) for f in files if not f.exists()]
    if missing:  # a mistyped path would otherwise pass: nothing is reported for a file that is not there
        raise UserError(f"no such file: {', '.join(missing)}")
    # pages belong with their data: by default the docs/ beside the data directory
    sibling = data_dir.parent / "docs"
    named_pages = any(f.resolve().is_relative_to(sibling.resolve()) for f in files)
    docs = Path(args.docs) if args.docs else (sibling if sibling.is_dir() and (named_pages or not files) else None)
    unchecked = [str(f) for f in files if not _checked(f, data_dir, docs)]
    if unchecked:  # "ok" for a file no check reads would be a false all-clear
        raise UserError(
            f"not checked by kb validate: {', '.join(unchecked)} (it checks data files, "
            f"{data_dir}/**/*.yaml, and the files under the docs directory, {docs or sibling})"
        )
    diags, kb = collect(data_dir, docs)
    root = data_dir.resolve().parent
    if (root / "mkdocs.yml").is_file():  # a project's checkout: no cache files in it (kb.site.tracked)
        diags = sort_diagnostics(tracked.check(root) + diags)
    if files:
        wanted = {display_path(f.resolve()) for f in files} | {os.path.normpath(str(f)) for f in files}
        diags = [d for d in diags if os.path.normpath(d.path) in wanted]
    errors = [d for d in diags if d.is_error]
    warnings = [d for d in diags if d.severity is Severity.WARNING]
    notes = [d for d in diags if d.severity is Severity.NOTE]
    failing = errors + (warnings if args.strict else [])
    if not args.verbose and fmt_of(args) not in ("json", "summary"):  # for tools: every diagnostic
        diags = [d for d in diags if d.severity is not Severity.NOTE]
    fmt = fmt_of(args)
    n_briefs, n_papers = len(kb.briefs), len(kb.papers)
    unread = sum(len(stems) for stems in kb.failed.values())  # files with an error that makes them no record
    if fmt == "summary":
        counts = {"errors": len(errors), "warnings": len(warnings), "acknowledged": len(notes)}
        counts |= {"briefs": n_briefs, "papers": n_papers, "topics": len(kb.topics), "not_counted": unread}
        emit(summary("validate", not failing, counts, diags, strict=args.strict, files=[str(f) for f in files]))
        return 1 if failing else 0
    if fmt == "json":
        emit([d.as_dict() for d in diags])
    else:
        for d in diags:
            print(d.text(), file=sys.stderr if d in failing else sys.stdout)
        if fmt == "github" or (args.format is None and os.environ.get("GITHUB_ACTIONS") == "true"):
            for d in diags:
                print(d.github())
    verdict = "failed" if failing else ("ok for the file(s) named" if files else "ok")
    held = "the checks of stated figures against computed ones" + (
        ", and of the claim ids briefs name," if kb.claims_held else ""
    )
    print(
        f"kb validate: {verdict}: {len(errors)} error(s), {len(warnings)} warning(s), {len(notes)} acknowledged "
        f"in {n_briefs} brief(s), {n_papers} paper(s), {len(kb.topics)} topic(s)"
        + (
            f", and {unread} file(s) not counted until their errors are fixed ({held} wait until then too"
            + ("; `kb validate` without file names lists those errors)" if files else ")")
            if unread
            else ""
        )
        + (" [strict]" if args.strict else ""),
        file=sys.stderr if failing or fmt == "json" else sys.stdout,
    )
    return 1 if failing else 0
