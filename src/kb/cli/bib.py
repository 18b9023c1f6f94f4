"""``kb bib export`` and ``kb bib import``: BibTeX out of and into the knowledge base.

``export`` writes entries for all papers, or for those of a topic, a section
or a brief (:mod:`kb.bib` builds them); a paper that cannot be cited (no year,
or neither authors nor an arXiv id) is left out and named, with what to add.  ``import`` reads a ``.bib`` file and
creates a paper file for each entry with an arXiv eprint (``--all``: for every
entry); the BibTeX data goes where ``kb paper add`` would put arXiv's (title,
authors, DOI, journal reference and primary class into ``arxiv_meta``, which a
later ``kb paper refresh`` overwrites with arXiv's own), venue and date into
``venue`` and ``published``.  Entries whose arXiv id already has a paper file
are skipped: import never changes an existing file.  A block that does not
parse, a duplicate key or a bad eprint stops the import before anything is
written, with a ``file:line:col`` message for each.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.cli.project import add_data_option, data_dir
from kb.data import arxiv_id
from kb.data.diagnostics import DataError, Diagnostic, UserError

if TYPE_CHECKING:
    from bibtexparser.library import Library

    from kb.bib.read import BibPaper
    from kb.data.models import ArxivMeta, Paper
    from kb.knowledge.index import KnowledgeBase

# bibtexparser and the writers load when a command runs, not with every ``kb``.


IMPORT_HELP = (
    "Create a paper file for each entry with an arXiv eprint (--all: for every entry). Title, "
    "authors, DOI, journal reference and primary class go into arxiv_meta (a later `kb paper "
    "refresh` replaces them with arXiv's), venue and date into venue and published. An entry whose "
    "arXiv id already has a paper file is skipped: import never changes an existing file. A block "
    "that does not parse, a duplicate key or a bad eprint stops the import before anything is "
    "written, with a file:line:col message for each."
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bib",
        help="export or import BibTeX",
        description="Export papers as BibTeX, or create paper files from a BibTeX file.",
    )
    actions = p.add_subparsers(dest="bib_command", metavar="ACTION", required=True)

    exp = actions.add_parser(
        "export",
        help="write BibTeX for papers",
        description="Write BibTeX entries (stable citation keys) for every paper, "
        "or for those of one topic, section or brief. A paper without a year, "
        "or without authors and an arXiv id, is left out and named on stderr.",
    )
    which = exp.add_mutually_exclusive_group()
    which.add_argument("--topic", help="papers anchored in, filed under or mentioned by the briefs of this topic")
    which.add_argument(
        "--section", help="papers anchored in this section (or below it) or named by brief items about it"
    )
    which.add_argument("--brief", help="papers a brief mentions: <topic>/<date>-<round>, e.g. inference/2026-09-03-e1")
    exp.add_argument("-o", "--output", help="file to write (default: standard output)")
    add_data_option(exp)
    exp.set_defaults(func=run_export)

    imp = actions.add_parser("import", help="create paper files from a .bib file", description=IMPORT_HELP)
    imp.add_argument("file", help="BibTeX file")
    imp.add_argument("--all", action="store_true", help="also create files for entries without an arXiv eprint")
    add_data_option(imp)
    imp.set_defaults(func=run_import)


# --------------------------------------------------------------------------- export


def _select(kb: KnowledgeBase, args: argparse.Namespace) -> list[Paper]:
    from kb.bib.select import papers_for_brief, papers_for_section, papers_for_topic

    if args.topic:
        if args.topic not in kb.topics:
            raise UserError(f"unknown topic '{args.topic}'; expected one of: {', '.join(kb.topics) or 'none'}")
        return papers_for_topic(kb, args.topic)
    if args.section:
        if kb.find_section(args.section) is None:
            raise UserError(f"unknown section '{args.section}'")
        return papers_for_section(kb, args.section)
    if args.brief:
        key = args.brief.removesuffix(".yaml")
        if key not in kb.briefs:
            matches = [k for k in kb.briefs if k.split("/", 1)[1] == key]
            if len(matches) != 1:
                raise UserError(
                    f"unknown brief '{args.brief}'; expected e.g. {next(iter(kb.briefs), 'inference/2026-09-03-e1')}"
                )
            key = matches[0]
        return papers_for_brief(kb, key)
    return list(kb.papers.values())


def run_export(args: argparse.Namespace) -> int:
    from kb.bib.export import export_library
    from kb.bib.fields import uncitable
    from kb.data.atomic import write_atomic
    from kb.knowledge.load import load_kb

    kb = load_kb(data_dir(args.data))
    papers = _select(kb, args)
    text = export_library(kb, papers)
    skipped = [(p.id, why) for p in papers if (why := uncitable(p))]
    if args.output:
        write_atomic(args.output, text)
        print(f"kb bib export: {len(papers) - len(skipped)} entries written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    for pid, why in skipped:
        print(f"kb bib export: {pid}: left out, it cannot be cited: {why}", file=sys.stderr)
    if not papers:
        print("kb bib export: no paper matches", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- import


def _column(lines: list[str], line: int) -> int:
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    at = text.find("@")
    return at + 1 if at >= 0 else 1


def _problems(lib: Library, text: str, shown: str) -> list[Diagnostic]:
    """A located diagnostic for every block that failed, duplicate keys included."""
    from bibtexparser.model import DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, MiddlewareErrorBlock

    from kb.bib.read import entry_arxiv, paper_fields_from_entry

    lines = text.split("\n")
    out = []
    for block in lib.failed_blocks:
        line = (block.start_line or 0) + 1
        col = _column(lines, line)
        if isinstance(block, DuplicateBlockKeyBlock):
            first = getattr(block.previous_block, "start_line", None)
            where = f" (first defined at line {first + 1})" if first is not None else ""
            message = f"duplicate citation key '{block.key}'{where}"
        elif isinstance(block, DuplicateFieldKeyBlock):
            message = f"duplicate field(s) {', '.join(sorted(block.duplicate_keys))} in one entry"
        elif isinstance(block, MiddlewareErrorBlock):
            message = f"cannot read this block: {block.error}"
        else:
            reason = getattr(block.error, "abort_reason", None) or str(block.error) or type(block.error).__name__
            message = f"cannot parse this block: {' '.join(str(reason).split())}"
        out.append(Diagnostic(shown, line, col, message, code="bibtex"))
    for entry in lib.entries:
        line = (entry.start_line or 0) + 1
        if not entry.key or any(ch.isspace() or ch in "{}(),\"#%'=" for ch in entry.key):
            out.append(
                Diagnostic(
                    shown,
                    line,
                    _column(lines, line),
                    f"malformed entry: bad citation key {entry.key!r} (a comma missing after the key?)",
                    code="bibtex",
                )
            )
            continue
        _, problem = entry_arxiv(entry)
        if problem:
            field = next((f for f in entry.fields if f.key.lower() == "eprint"), None)
            fline = (field.start_line if field and field.start_line is not None else entry.start_line or 0) + 1
            fcol = max(1, lines[fline - 1].lower().find("eprint") + 1) if fline <= len(lines) else 1
            out.append(Diagnostic(shown, fline, fcol, f"entry '{entry.key}': {problem}", code="bibtex"))
        elif not paper_fields_from_entry(entry).title:
            out.append(
                Diagnostic(shown, line, _column(lines, line), f"entry '{entry.key}' has no title", code="bibtex")
            )
    return sorted(out)


def read_bib(path: Path) -> tuple[list[BibPaper], list[Diagnostic]]:
    """(the entries as :class:`kb.bib.read.BibPaper`, located problems) of a .bib file."""
    from kb.bib.read import paper_fields_from_entry, parse
    from kb.data.loader import display_path as display
    from kb.data.yamlstrict import normalize_text

    shown = display(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise UserError(f"cannot read {shown}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UserError(f"{shown}: expected UTF-8 text (byte {exc.start})") from None
    text = normalize_text(text)
    lib = parse(text)
    problems = _problems(lib, text, shown)
    papers = [paper_fields_from_entry(e) for e in lib.entries] if not problems else []
    return papers, problems


def _published(bp: BibPaper) -> str | None:
    if not bp.year:
        return None
    return f"{bp.year}-{bp.month:02d}" if bp.month else bp.year


def paper_parts(bp: BibPaper) -> tuple[str, ArxivMeta | None, dict[str, Any]]:
    """(short, ArxivMeta or None, other keys in order) for a new paper file from a BibPaper."""
    from kb.data.models import ArxivMeta
    from kb.data.paperfile import derive_short
    from kb.data.text import LINE_MAX, clean

    bp = replace(
        bp,
        title=clean(bp.title),
        venue=clean(bp.venue),
        venue_detail=clean(bp.venue_detail),
        journal=clean(bp.journal),
        doi=clean(bp.doi),
        primary_class=clean(bp.primary_class),
        url=clean(bp.url),
        authors=tuple(a for a in (clean(a, LINE_MAX) for a in bp.authors) if a),
    )
    if not bp.title:
        raise ValueError("the entry has no title")
    extra: dict[str, Any] = {}
    venue_name = bp.venue or (bp.journal if not bp.arxiv else None)
    if bp.arxiv:
        meta = ArxivMeta(
            title=bp.title,
            authors=list(bp.authors),
            doi=bp.doi,
            journal_ref=bp.journal,
            primary_category=bp.primary_class,
            categories=[bp.primary_class] if bp.primary_class else [],
        )
    else:
        meta = None
        extra["title"] = bp.title
        if bp.authors:
            extra["authors"] = list(bp.authors)
    if venue_name:
        extra["venue"] = {"name": venue_name, **({"detail": bp.venue_detail} if bp.venue_detail else {})}
    published = _published(bp)
    if published:
        extra["published"] = published
    if bp.url and not bp.arxiv:
        extra["links"] = {"other": bp.url}
    return derive_short(bp.title), meta, extra


def run_import(args: argparse.Namespace) -> int:
    from kb.data.loader import display_path as display
    from kb.data.paperfile import PaperFileError, create_file, scan

    path = Path(args.file)
    papers, problems = read_bib(path)
    if problems:
        raise DataError(problems)
    index = scan(data_dir(args.data))
    index.dir.mkdir(parents=True, exist_ok=True)
    created, existing, skipped, failed = 0, 0, 0, []
    seen: dict[str, str] = {}
    for bp in papers:
        where = f"{display(path)}:{bp.line}: '{bp.key}'"
        if bp.arxiv:
            base = arxiv_id.normalize(bp.arxiv)
            assert base is not None  # entry_arxiv() returns parsed ids
            if base in seen:
                print(f"{where}: skipped: same arXiv id as '{seen[base]}'", file=sys.stderr)
                skipped += 1
                continue
            seen[base] = bp.key
            known = index.path_for(base)
            if known:
                print(f"{where}: arXiv {base} already has {display(known)}; left unchanged")
                existing += 1
                continue
        elif not args.all:
            print(f"{where}: skipped: no arXiv eprint (use --all to import it anyway)", file=sys.stderr)
            skipped += 1
            continue
        try:
            short, meta, extra = paper_parts(bp)
            new = create_file(index, bp.arxiv, short, meta, extra, title=bp.title)
        except (PaperFileError, ValueError, OSError) as exc:
            failed.append(f"{where}: {' '.join(str(exc).split())}")
            continue
        created += 1
        print(f"created {display(new)} from '{bp.key}'")
    print(
        f"kb bib import: {len(papers)} entries: {created} created, {existing} already had a paper file, "
        f"{skipped} skipped, {len(failed)} failed"
    )
    for line in failed:
        print(f"error: {line}", file=sys.stderr)
    return 1 if failed else 0
