"""``kb paper add ID…`` and ``kb paper refresh [ID…|--all]``: arXiv metadata into paper files.

THE RULE: these commands own ONLY the top-level ``arxiv_meta:`` block of a
paper file (model ``kb.data.models.ArxivMeta``).  They never touch any other key:
everything else is hand-written.  An update replaces (or appends) the
``arxiv_meta:`` block by text surgery and leaves every other byte of the file -
comments, key order, quoting - unchanged (see :mod:`kb.paperfile`).

``add`` creates a file (``id``, ``arxiv``, ``short``, ``arxiv_meta``) for an id
with no paper file yet and refreshes the file of an id that has one (any
version).  ``refresh`` only updates existing files.  Metadata comes from the
cache when fresh enough, else from the arXiv API in batches (:mod:`kb.arxiv`).
Contributor tooling only: the site build never runs it and never goes online.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from kb.arxiv.config import DEFAULT_API_URL, ENV, FetchConfig
from kb.cli.project import add_data_option, data_dir
from kb.data import arxiv_id
from kb.data.diagnostics import UserError

if TYPE_CHECKING:
    from kb.arxiv.fetch import Stats
    from kb.data.models import ArxivMeta
    from kb.data.paperfile import PaperIndex

# The HTTP stack, the cache and the file writer are imported when a command runs,
# so that every other ``kb`` command starts without them.

RULE = (
    "RULE: these commands own ONLY the top-level `arxiv_meta:` block of a paper file "
    "(model ArxivMeta); they never touch any other (hand-written) key. An update "
    "replaces or appends the `arxiv_meta:` block by text surgery and leaves every other byte "
    "of the file (comments, key order, quoting) unchanged. Every file written is checked to "
    "validate first and is replaced atomically."
)


def _describe(what: str) -> str:
    return textwrap.fill(what, 78) + "\n\n" + textwrap.fill(RULE, 78)


ENV_HELP = f"""\
environment:
  {ENV["api_url"]:<22} API endpoint (default {DEFAULT_API_URL})
  {ENV["delay"]:<22} seconds between requests (default 3)
  {ENV["timeout"]:<22} seconds per request (default 30)
  {ENV["retries"]:<22} retries per request (default 4)
  {ENV["backoff"]:<22} first retry wait in seconds, doubled per retry, with jitter (default 3)
  {ENV["max_time"]:<22} time budget of a whole run in seconds (default 900)
  {ENV["batch_size"]:<22} ids per request, at most 100 (default 100)
  {ENV["max_bytes"]:<22} largest answer accepted, in bytes (default 8 MiB)
  KB_CACHE_DIR           cache root; arXiv answers go to <root>/arxiv/<id>.json (default .cache)
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "paper",
        help="fetch arXiv metadata into paper files (add, refresh)",
        description=_describe(
            "Fetch title, authors, abstract, dates, categories, DOI, journal reference, "
            "comment and version from arXiv into paper files."
        ),
        epilog=ENV_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = p.add_subparsers(dest="paper_command", metavar="ACTION", required=True)

    add = actions.add_parser(
        "add",
        help="create paper files for arXiv ids (an id that has a file is refreshed)",
        description=_describe(
            "Create data/papers/<id>.yaml (id, arxiv, short, arxiv_meta) for each arXiv id; "
            "an id whose paper file exists (any version) is refreshed instead."
        ),
        epilog=ENV_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add.add_argument("ids", nargs="+", metavar="ID", help="arXiv ids: 2505.02922, arXiv:2505.02922v2, hep-th/9901001")
    _options(add)
    add.set_defaults(func=run_add)

    refresh = actions.add_parser(
        "refresh",
        help="update the arxiv_meta block of existing paper files",
        description=_describe(
            "Update the arxiv_meta block of the paper files with these arXiv ids, or of "
            "every paper file with an arxiv key (--all)."
        ),
        epilog=ENV_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    refresh.add_argument("ids", nargs="*", metavar="ID", help="arXiv ids of existing paper files")
    refresh.add_argument("--all", action="store_true", help="every paper file with an arxiv key")
    _options(refresh)
    refresh.set_defaults(func=run_refresh)


def _options(p: argparse.ArgumentParser) -> None:
    add_data_option(p)
    p.add_argument("--cache-dir", default=None, help="cache root (default: $KB_CACHE_DIR or .cache)")
    p.add_argument(
        "--api-url", default=None, help=f"arXiv API endpoint (default: ${ENV['api_url']} or {DEFAULT_API_URL})"
    )
    p.add_argument("--delay", type=float, default=None, help="seconds between requests (default 3)")
    p.add_argument("--timeout", type=float, default=None, help="seconds per request (default 30)")
    p.add_argument("--retries", type=int, default=None, help="retries per request (default 4)")
    p.add_argument("--max-time", type=float, default=None, help="time budget of the run in seconds (default 900)")
    p.add_argument("--batch-size", type=int, default=None, help="ids per request, 1-100 (default 100)")
    p.add_argument(
        "--max-age",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="use cached answers younger than this, 0-36500 (default 30 days)",
    )
    p.add_argument("--refetch", action="store_true", help="ignore the cache (answers are still cached)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no per-file lines")


# --------------------------------------------------------------------------- running


@dataclass
class Target:
    id: arxiv_id.ArxivId  # as asked for (a version is kept in a new file's arxiv key)
    path: Path | None  # existing paper file, if any


@dataclass
class Report:
    fetched: int = 0
    cached: int = 0
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    unanswered: list[tuple[str, bool]] = field(default_factory=list)  # ids arXiv did not answer for, has a file
    not_found: list[str] = field(default_factory=list)  # ids arXiv answered it has not


MAX_AGE_DAYS = 36500  # a hundred years: "use the cache whatever its age"


def _config(args: argparse.Namespace) -> FetchConfig:
    if not 0 <= args.max_age <= MAX_AGE_DAYS:
        raise UserError(f"--max-age must be between 0 and {MAX_AGE_DAYS} days, got {args.max_age:g}")
    try:
        return FetchConfig.from_env(
            api_url=args.api_url,
            delay=args.delay,
            timeout=args.timeout,
            retries=args.retries,
            max_time=args.max_time,
            batch_size=args.batch_size,
        )
    except ValueError as exc:
        raise UserError(str(exc)) from None


def _parse_ids(raw: list[str]) -> list[arxiv_id.ArxivId]:
    bad = [r for r in raw if arxiv_id.parse(r) is None]
    if bad:
        whys = [f"{r} ({why})" if (why := arxiv_id.why_not(r)) else r for r in bad]
        raise UserError(
            f"not an arXiv id: {', '.join(whys)} (expected e.g. 2505.02922, arXiv:2505.02922v2 or hep-th/9901001)"
        )
    out: dict[str, arxiv_id.ArxivId] = {}
    for r in raw:
        parsed = arxiv_id.parse(r)
        assert parsed is not None  # checked above
        out.setdefault(parsed.base, parsed)
    return list(out.values())


def _known_id(base: str) -> arxiv_id.ArxivId:
    """The id of a paper file's ``arxiv:`` (the index holds only valid ones)."""
    parsed = arxiv_id.parse(base)
    assert parsed is not None
    return parsed


def run_add(args: argparse.Namespace) -> int:
    from kb.data.paperfile import scan

    index = scan(data_dir(args.data))
    targets = [Target(i, index.path_for(i.base)) for i in _parse_ids(args.ids)]
    return _run(args, "add", index, targets, [])


def run_refresh(args: argparse.Namespace) -> int:
    if args.all and args.ids:
        raise UserError("give arXiv ids or --all, not both")
    if not args.all and not args.ids:
        raise UserError("give the arXiv ids to refresh, or --all")
    from kb.data.paperfile import scan

    index = scan(data_dir(args.data))
    if args.all:
        targets = [Target(_known_id(b), p) for b, p in sorted(index.by_base.items(), key=lambda kv: str(kv[1]))]
        return _run(args, "refresh", index, targets, [])
    targets, failed = [], []
    for i in _parse_ids(args.ids):
        path = index.path_for(i.base)
        if path is None:
            failed.append((str(i), "no paper file has this arXiv id (use kb paper add)"))
        else:
            targets.append(Target(i, path))
    return _run(args, "refresh", index, targets, failed)


def _write(index: PaperIndex, target: Target, meta: ArxivMeta, report: Report, say: Callable[[str], None]) -> None:
    """Create or update the paper file of one fetched id; a failure is reported, not raised."""
    from kb.data.loader import display_path as display
    from kb.data.paperfile import PaperFileError, create_file, derive_short, update_file

    try:
        if target.path is None:
            path = create_file(index, str(target.id), derive_short(meta.title), meta)
            report.created += 1
            say(f"created {display(path)} ({target.id})")
        elif update_file(target.path, meta) == "updated":
            report.updated += 1
            say(f"updated {display(target.path)} ({target.id})")
        else:
            report.unchanged += 1
    except (PaperFileError, OSError) as exc:
        report.failed.append((str(target.id), str(exc)))


def _run(
    args: argparse.Namespace, action: str, index: PaperIndex, targets: list[Target], failed: list[tuple[str, str]]
) -> int:
    from tqdm import tqdm

    from kb.arxiv.cache import Cache
    from kb.arxiv.client import ArxivClient
    from kb.arxiv.fetch import NOT_FOUND, Stats, fetch

    config = _config(args)
    cache = Cache(args.cache_dir)
    report = Report(failed=list(failed))
    stats = Stats()
    by_base = {t.id.base: t for t in targets}
    quiet = args.quiet
    bar = tqdm(
        total=len(targets),
        file=sys.stderr,
        unit="id",
        desc=f"kb paper {action}",
        disable=quiet or not sys.stderr.isatty(),
        leave=False,
    )

    def say(line: str) -> None:
        if not quiet:
            bar.write(line, file=sys.stdout)

    def progress(line: str) -> None:  # each request and each wait before a retry (kb.arxiv.client)
        if not quiet:
            bar.write(line, file=sys.stderr)

    try:
        for got in fetch(
            list(by_base),
            config,
            cache,
            max_age=dt.timedelta(days=args.max_age),
            refetch=args.refetch,
            stats=stats,
            client_factory=partial(ArxivClient, progress=progress),
        ):
            bar.update(1)
            target = by_base[got.id]
            if got.meta is None:
                report.failed.append((str(target.id), got.error or "unknown error"))
                if got.error == NOT_FOUND:
                    report.not_found.append(str(target.id))
                else:
                    report.unanswered.append((str(target.id), target.path is not None))
                continue
            if got.source == "api":
                report.fetched += 1
            else:
                report.cached += 1
            _write(index, target, got.meta, report, say)
    except KeyboardInterrupt:
        bar.close()
        _summary(
            action + " (interrupted; every file written so far is complete)", len(targets) + len(failed), stats, report
        )
        raise
    finally:
        bar.close()
    _summary(action, len(targets) + len(failed), stats, report)
    for problem in stats.cache_errors or []:
        print(f"warning: cache not written: {problem}", file=sys.stderr)
    return 1 if report.failed else 0


def _summary(action: str, total: int, stats: Stats, r: Report) -> None:
    print(
        f"kb paper {action}: {total} id(s), {stats.requests} request(s): {r.fetched} fetched, "
        f"{r.cached} from cache; {r.created} created, {r.updated} updated, {r.unchanged} unchanged, "
        f"{len(r.failed)} failed"
    )
    for ident, reason in r.failed:
        print(f"error: {ident}: {reason}", file=sys.stderr)
    for hint in _hints(action.split()[0], r):
        print(f"hint: {hint}", file=sys.stderr)


def _hints(action: str, r: Report) -> list[str]:
    """What to do about the ids arXiv gave nothing for: check the ids it says it has not; for the
    ones it did not answer (offline, refused), write a file by hand or run the command again."""
    out = []
    if r.not_found:
        out.append(f"arXiv has no {' '.join(r.not_found)}: check the id (a typo, or a paper not announced yet)")
    new = [ident for ident, has_file in r.unanswered if not has_file]
    kept = [ident for ident, has_file in r.unanswered if has_file]
    if new:
        out.append(
            f"no file was made for {' '.join(new)}; without arXiv, `kb new paper ID` writes one to fill in by "
            "hand (title, short, category), and `kb paper refresh ID` adds its arXiv metadata once arXiv answers"
        )
    if kept:
        again = "--all" if action == "refresh" and len(kept) > 3 else " ".join(kept)
        out.append(
            f"the files of {' '.join(kept[:3])}{' …' if len(kept) > 3 else ''} are unchanged (and still valid); "
            f"run `kb paper {action} {again}` again once arXiv answers"
        )
    return out
