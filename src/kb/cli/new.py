"""``kb new brief`` and ``kb new paper``: scaffold a data file that already validates.

``kb new brief --topic inference --date 2026-09-04 [--round E1] [--instance NAME] [--force]``
writes ``data/briefs/<topic>/<date>-<round>.yaml``; ``kb new paper ID [--id SLUG]
[--short NAME] [--force]`` writes ``data/papers/<slug>.yaml``.  Neither goes
online; an existing file is never overwritten without ``--force``.  The text
comes from :mod:`kb.cli.scaffold`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from kb.cli.project import add_data_option, data_dir
from kb.cli.scaffold import ScaffoldError, brief_text, paper_text, plan_brief, plan_paper
from kb.data.atomic import write_atomic
from kb.data.diagnostics import DataError, UserError
from kb.data.loader import WHERE


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "new",
        help="scaffold a new brief or paper file",
        description="Write a new data file with the known parts filled in and the rest as "
        "commented examples.  The file validates as written.",
    )
    kinds = p.add_subparsers(dest="new_command", metavar="KIND", required=True)

    b = kinds.add_parser(
        "brief",
        help="a day's brief: data/briefs/<topic>/<date>-<round>.yaml",
        description="Scaffold a day's brief with only what its author decides: window (previous "
        "day, same time -> DATE, in the previous brief's timezone), generated_at, instance, the "
        "scheduled job's id (cron) of the previous brief of the round, empty parts with commented "
        "examples, and, as comments, the items still pending anchoring and the open claims.  "
        "Nothing computed is written.",
    )
    b.add_argument("--topic", required=True, help="topic id, e.g. inference")
    b.add_argument("--date", required=True, type=_date, help="the brief's date, YYYY-MM-DD")
    b.add_argument("--round", default="E1", help="round, e.g. E1 or e1 (default E1)")
    b.add_argument("--instance", default=None, help="author / instance (default: the previous brief's)")
    _common(b)
    b.set_defaults(func=run_brief)

    pp = kinds.add_parser(
        "paper",
        help="a paper file: data/papers/<slug>.yaml",
        description="Scaffold a paper file for an arXiv id or a slug, with the hand-written keys "
        "as comments.  Nothing is fetched: run `kb paper add ID` afterwards to add "
        "the arXiv metadata block.",
    )
    pp.add_argument("ident", metavar="ID", help="arXiv id (2505.02922, arXiv:2505.02922v2, hep-th/9901001) or a slug")
    pp.add_argument("--id", dest="slug", default=None, help="file id / slug (default: the slug, or arxiv-<id>)")
    pp.add_argument("--short", default=None, help="short display name, e.g. RetroInfer")
    _common(pp)
    pp.set_defaults(func=run_paper)


def _common(p: argparse.ArgumentParser) -> None:
    add_data_option(p)
    p.add_argument("--force", action="store_true", help="overwrite an existing file")


def _date(value: str) -> dt.date:
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        import argparse

        from kb.data.models.types import no_such_day

        raise argparse.ArgumentTypeError(no_such_day(value) or f"expected a date YYYY-MM-DD, got {value!r}") from None


def _write(path: Path, text: str, force: bool) -> None:
    if path.exists() and not force:
        raise UserError(f"{path} already exists (use --force to overwrite it)")
    write_atomic(path, text)


def run_brief(args: argparse.Namespace) -> int:
    from kb.knowledge.load import load_kb

    data = data_dir(args.data)
    if not data.is_dir():
        raise UserError(f"no data directory at {data}: {WHERE}")
    try:
        kb = load_kb(data)
    except DataError as exc:
        raise UserError(
            "the data has errors; fix them first (run `kb validate`):\n"
            + "\n".join(d.text() for d in exc.diagnostics if d.is_error)
        ) from None
    try:
        plan = plan_brief(kb, args.topic, args.date, args.round, args.instance)
        text = brief_text(kb, plan)
    except ScaffoldError as exc:
        raise UserError(str(exc)) from None
    path = data / plan.path
    existing = kb.briefs.get(plan.key)
    if existing is not None and not args.force:
        raise UserError(f"{path} already exists (use --force to overwrite it)")
    _write(path, text, args.force)
    print(f"wrote {path}" + (f" (window and instance from {plan.previous})" if plan.previous else ""))
    if plan.later:
        print(
            f"note: later briefs exist ({', '.join(plan.later)}): the candidates are the backlog as of the latest one",
            file=sys.stderr,
        )
    print("next: fill it in, then run `kb validate`")
    return 0


def run_paper(args: argparse.Namespace) -> int:
    from kb.data.paperfile import scan

    data = data_dir(args.data)
    if not data.is_dir():
        raise UserError(f"no data directory at {data}: {WHERE}")
    try:
        plan = plan_paper(args.ident, args.slug)
        text = paper_text(plan, args.short)
    except ScaffoldError as exc:
        raise UserError(str(exc)) from None
    path = data / plan.path
    if plan.arxiv:
        index = scan(data)
        other = index.path_for(plan.arxiv)
        if other is not None and other.resolve() != path.resolve():
            raise UserError(f"arXiv {plan.arxiv} already has the paper file {other}")
        # the id of another paper (one with another arXiv id): "--force" would replace that paper's file
        held = next((base for base, p in index.by_base.items() if p.resolve() == path.resolve()), None)
        if held is not None and other is None:
            raise UserError(
                f"the id '{path.stem}' is taken: {path} is the paper file of arXiv {held}; choose another --id"
            )
    _write(path, text, args.force)
    print(f"wrote {path}")
    if plan.arxiv:
        print(
            f"next: `kb paper add {plan.arxiv}` adds the arXiv metadata; "
            "fill in the hand-written keys, then `kb validate`"
        )
    else:
        print("next: fill in the hand-written keys (add `arxiv:` if it has an id), then `kb validate`")
    return 0
