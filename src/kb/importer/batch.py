"""Importing text briefs into a data directory: in date order, each seeing the ones before it
(papers created, claims to keep ids for); ``kb import brief`` then checks the written files as
hand-written records are checked (:mod:`kb.cli.brieftext`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.data import yamlwrite
from kb.data.atomic import write_atomic
from kb.data.diagnostics import UserError
from kb.data.loader import load
from kb.data.models import Brief, Paper
from kb.data.schemaheader import with_header
from kb.importer import head, report
from kb.importer.context import Context
from kb.importer.lines import read
from kb.importer.parts import split
from kb.importer.record import Imported, NotARecord, import_text

NOTE = "# Imported from {name} by `kb import brief`: the author's text, field by field.\n"


@dataclass
class Result:
    path: Path
    imported: Imported
    facts: dict[str, Any]
    report_text: str
    written: Path | None = None
    papers: list[Path] = field(default_factory=list)


def _header(path: Path, text: str) -> dict[str, Any]:
    parts = split(read(text))
    try:
        return head.header(parts.title, parts.header)
    except (head.HeaderError, ValueError) as exc:
        raise UserError(f"{path}: {exc}") from None


def import_files(data: Path, files: list[Path], write: bool, force: bool = False) -> list[Result]:
    loaded = load(data)
    papers = {k: v[0] for k, v in loaded.papers.items()}
    briefs: list[Brief] = [b for b, _ in loaded.briefs.values()]
    texts = [(p, p.read_text("utf-8")) for p in files]
    dated = sorted(((_header(p, t), p, t) for p, t in texts), key=lambda x: (x[0]["date"], x[0]["round"]))
    out = []
    for hdr, path, text in dated:
        if hdr["topic"] not in loaded.topics:
            raise UserError(f"{path}: no topic {hdr['topic']!r} under {data}/topics")
        earlier = [
            b for b in briefs if b.date.isoformat() <= hdr["date"]
        ]  # same day: a record re-imported keeps its claim ids
        ctx = Context.of(loaded.topics[hdr["topic"]][0], papers, earlier)
        try:
            imp = import_text(ctx, text)
        except NotARecord as exc:
            located = "\n".join(f"{path}:{n}: {why}" for n, why in exc.problems)
            raise UserError(f"{path}: not a valid brief record, nothing written:\n{located}") from None
        arxiv = {k: p.arxiv_base for k, p in papers.items()} | {k: n.arxiv for k, n in ctx.new.items()}
        facts = report.facts(imp, arxiv)
        res = Result(path, imp, facts, report.text(facts))
        if write:
            res.written, res.papers = _write(data, path, imp, ctx, force)
        for n in ctx.new.values():
            papers[n.id] = Paper.model_validate(_paper(n))
        briefs.append(imp.brief)
        out.append(res)
    return out


def _paper(n: Any) -> dict[str, Any]:
    return {k: v for k, v in {"id": n.id, "arxiv": n.arxiv, "short": n.short, "title": n.title}.items() if v}


def _write(data: Path, src: Path, imp: Imported, ctx: Context, force: bool) -> tuple[Path, list[Path]]:
    b = imp.brief
    target = data / "briefs" / b.topic / f"{b.date}-{b.round.lower()}.yaml"
    if target.exists() and not force:
        raise UserError(f"{target} already exists (use --force to overwrite it)")
    write_atomic(target, with_header(NOTE.format(name=src.name) + yamlwrite.dump(imp.data, flow_lists=True), "briefs"))
    written = []
    for n in ctx.new.values():
        paper = data / "papers" / f"{n.id}.yaml"
        if not paper.exists():
            write_atomic(paper, with_header(yamlwrite.dump(_paper(n)), "papers"))
            written.append(paper)
    return target, written
