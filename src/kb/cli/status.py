"""``kb status ID… [--json]``: what the knowledge base knows of papers, by paper id or arXiv id.

For automated brief writers (and people): whether an id is known, when and where
it was first seen, its status, where it is anchored and its open claims.  The
JSON is the same record as the build's ``api/papers.json`` entries.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from kb.knowledge.views import PaperView, paper_view

if TYPE_CHECKING:
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
        "open claims.  Exit status 1 when an id is not in the knowledge base at all (neither a paper "
        "file nor a mention), as grep does when nothing matches: `kb status ID || kb paper add ID`.",
    )
    p.add_argument(
        "ids", nargs="+", metavar="ID", help="paper id (retroinfer) or arXiv id (2505.02922, arXiv:2505.02922v2)"
    )
    p.add_argument("--json", action="store_true", help="print JSON (the api/papers.json record of each)")
    p.add_argument("--data", default="data", help="data directory (default: data)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kb.knowledge.index import load_kb

    kb = load_kb(Path(args.data))
    views = [paper_view(kb, ident.removeprefix("arXiv:").removeprefix("arxiv:")) for ident in args.ids]
    if args.json:
        json.dump([v.model_dump(mode="json") for v in views], sys.stdout, ensure_ascii=False, indent=1)
        print()
    else:
        listed = _on_backlog(kb)
        texts = [
            _text(ident, v, listed) + (_hint(ident, kb) if v.status == "unknown" else "")
            for ident, v in zip(args.ids, views, strict=True)
        ]
        print("\n\n".join(texts))
    return 1 if any(v.status == "unknown" for v in views) else 0


def _hint(ident: str, kb: KnowledgeBase) -> str:
    """Why an id the knowledge base does not know may be mistyped: what is wrong with it as an
    arXiv id, or the paper ids it is close to (a paper's name stands for its id)."""
    from kb.data import arxiv_id
    from kb.data.hints import did_you_mean

    bare = ident.removeprefix("arXiv:").removeprefix("arxiv:")
    why = arxiv_id.why_not(bare)
    if why:
        return f"; as an arXiv id: {why}"
    named = sorted(pid for pid, paper in kb.papers.items() if paper.short.casefold() == bare.casefold())
    if named:
        return " (did you mean " + " or ".join(f"'{pid}'" for pid in named) + "?)"
    return did_you_mean(bare.lower(), kb.papers)


def _on_backlog(kb: KnowledgeBase) -> set[str]:
    """The papers the backlog lists as waiting to be anchored (an increment or a candidate of a topic)."""
    from kb.knowledge.backlog import pending_items

    return {item.paper for topic in kb.topics for item in pending_items(kb, topic)}


def _text(ident: str, v: PaperView, listed: set[str]) -> str:
    if not v.known:
        return f"{ident}: {LABELS[v.status]}" + (f" ({v.mentions} mention(s))" if v.mentions else "")
    lines = [f"{v.id}: {v.short} — {v.title}", f"  arXiv:   {v.arxiv or '—'}", f"  status:  {LABELS[v.status]}"]
    if v.first_seen:
        lines.append(f"  first seen: {v.first_seen.date.isoformat()} in {v.first_seen.brief} ({v.first_seen.kind})")
    if v.status in ("net-new", "pending") and v.id not in listed:
        lines.append("  backlog: not listed (no brief has made it an increment or a candidate yet)")
    for a in v.anchors:
        since = a.since.isoformat() if a.since else f"at the latest {a.recorded_on.isoformat()}"
        lines.append(
            f"  anchored: {a.topic} § {a.section or '(no section)'} since {since}, recorded by {a.recorded_by}"
        )
    for c in v.open_claims:
        lines.append(f"  open claim: {c.id} ({c.priority or 'no priority'}): {c.title}")
    lines.append(f"  page:    {v.page} · {v.mentions} mention(s)")
    return "\n".join(lines)
