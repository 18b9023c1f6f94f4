"""``kb status ID… [--json]``: what the knowledge base knows of papers, by paper id or arXiv id,
and of claims to verify, by claim id (priority, open or closed, every update).

For automated brief writers (and people): whether an id is known, when and where
it was first seen, its status, where it is anchored and its open claims.  The
JSON is the same record as the build's ``api/papers.json`` entries.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from kb.cli.project import add_data_option, data_dir
from kb.cli.summary import emit, summary
from kb.data import arxiv_id
from kb.data.hints import did_you_mean
from kb.knowledge.views import PaperView, paper_view

if TYPE_CHECKING:
    from kb.knowledge.claims import ClaimState
    from kb.knowledge.index import KnowledgeBase

LABELS = {
    "net-new": "NET-new",
    "pending": "pending anchoring",
    "anchored": "anchored",
    "unseen": "no brief names it",
    "mentioned": "mentioned in text, no paper file",
    "unknown": "not in the knowledge base",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "status",
        help="what the knowledge base knows of paper ids or arXiv ids",
        description="For each paper id or arXiv id (any version, with or without `arXiv:`): whether "
        "the knowledge base knows it, first seen when and where, its status, anchors and "
        "open claims.  Exit status, as grep's: 0 when every id has a paper file, 1 when one has none "
        "(not in the knowledge base, or only mentioned in text): `kb status ID || kb paper add ID`; "
        "2 when the data does not load (its errors are printed).  --json too.",
    )
    p.add_argument(
        "ids",
        nargs="+",
        metavar="ID",
        help="paper id (retroinfer), arXiv id (2505.02922, arXiv:2505.02922v2) or claim id (rtp-llm-open-source)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON: the api/papers.json record of each; when the data does not load, the summary "
        "of kb validate --json (ok false, counts, the errors located)",
    )
    add_data_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kb.data.diagnostics import DataError
    from kb.knowledge.load import load_kb

    try:
        kb = load_kb(data_dir(args.data))
    except DataError as exc:  # 2, as grep's error: `kb status ID || kb paper add ID` must not add then
        for d in exc.diagnostics:
            print(d.text(), file=sys.stderr)
        if args.json:  # what a tool reads instead of the records: the data's errors, located
            errors = [d for d in exc.diagnostics if d.is_error]
            emit(summary("status", False, {"ids": len(args.ids), "errors": len(errors)}, exc.diagnostics))
        return 2
    views = [paper_view(kb, arxiv_id.without_prefix(ident)) for ident in args.ids]
    # an id that is no paper may be a claim's: its state and history (kb status rtp-llm-open-source)
    claims = {ident: _claims(kb, ident) for ident, v in zip(args.ids, views, strict=True) if not v.known}
    if args.json:
        records = [
            ([_claim_json(s) for s in claims[ident]] if claims.get(ident) else [v.model_dump(mode="json")])
            for ident, v in zip(args.ids, views, strict=True)
        ]
        emit([r for rs in records for r in rs])
    else:
        texts = [
            "\n\n".join(_claim_text(s) for s in claims[ident])
            if claims.get(ident)
            else _text(ident, v) + (_hint(ident, kb) if not v.known else "")
            for ident, v in zip(args.ids, views, strict=True)
        ]
        print("\n\n".join(texts))
    return 1 if any(not v.known and not claims.get(ident) for ident, v in zip(args.ids, views, strict=True)) else 0


def _claims(kb: KnowledgeBase, ident: str) -> list[ClaimState]:
    return [s for (_, cid), s in kb.claims.by_id.items() if cid == ident]


def _claim_text(s: ClaimState) -> str:
    closed = s.closed_by
    state = f"closed: {closed.update.action.value} {closed.date.isoformat()}" if closed else "open"
    lines = [
        f"{s.claim.id}: claim of {s.topic} — {s.claim.title}",
        f"  priority: {s.priority or '—'} · {state}",
        f"  raised:  {s.date.isoformat()} in {s.brief}" + (f" ({s.claim.priority})" if s.claim.priority else ""),
    ]
    lines += [f"  point:   {x}" for x in s.claim.points]
    if s.claim.papers:
        lines.append(f"  papers:  {', '.join(s.claim.papers)}")
    for e in s.events:
        prio = f" ({e.update.priority})" if e.update.priority else ""
        lines.append(f"  {e.update.action.value}: {e.date.isoformat()} in {e.brief}{prio}: {e.update.note}")
    return "\n".join(lines)


def _claim_json(s: ClaimState) -> dict[str, object]:
    return {
        "claim": s.claim.id,
        "topic": s.topic,
        "title": s.claim.title,
        "priority": s.priority,
        "open": s.open,
        "raised_by": s.brief,
        "raised_on": s.date.isoformat(),
        "papers": list(s.claim.papers),
        "events": [
            {
                "brief": e.brief,
                "date": e.date.isoformat(),
                "action": e.update.action.value,
                "priority": e.update.priority,
                "note": e.update.note,
            }
            for e in s.events
        ],
    }


def _hint(ident: str, kb: KnowledgeBase) -> str:
    """What to do about an id that has no paper file: what is wrong with it as an arXiv id, the paper
    ids it is close to (a paper's name stands for its id), or the command that makes its file."""
    bare = arxiv_id.without_prefix(ident)
    why = arxiv_id.why_not(bare)
    if why:
        return f"; as an arXiv id: {why}"
    named = sorted(pid for pid, paper in kb.papers.items() if paper.short.casefold() == bare.casefold())
    if named:
        return " (did you mean " + " or ".join(f"'{pid}'" for pid in named) + "?)"
    close = did_you_mean(bare.lower(), kb.papers)
    if close or arxiv_id.parse(bare) is None:
        return close
    return f"; `kb paper add {bare}` makes its file (or `kb new paper {bare}` without arXiv)"


def _text(ident: str, v: PaperView) -> str:
    if not v.known:
        return f"{ident}: {LABELS[v.status]}" + (f" ({v.mentions} mention(s))" if v.mentions else "")
    lines = [f"{v.id}: {v.short} — {v.title}", f"  arXiv:   {v.arxiv or '—'}", f"  status:  {LABELS[v.status]}"]
    if v.first_seen:
        lines.append(f"  first seen: {v.first_seen.date.isoformat()} in {v.first_seen.brief} ({v.first_seen.kind})")
    for a in v.anchors:
        since = a.since.isoformat() if a.since else f"at the latest {a.recorded_on.isoformat()}"  # one line a section
        lines.append(
            f"  anchored: {a.topic} § {a.section or '(no section)'} since {since}, recorded by {a.recorded_by}"
        )
    for c in v.open_claims:
        lines.append(f"  open claim: {c.id} ({c.priority or 'no priority'}): {c.title}")
    lines.append(f"  page:    {v.page} · {v.mentions} mention(s)")
    return "\n".join(lines)
