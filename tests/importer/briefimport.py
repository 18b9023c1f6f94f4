"""Helpers of the import tests: a context over the frozen knowledge base, and a brief's facts
(what its page must show) in a form two imports, or an import and a hand record, compare in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.data.loader import load
from kb.data.models import Brief
from kb.importer.context import Context
from kb.importer.export import export_text
from kb.importer.lines import key
from kb.importer.record import Imported, _lookup, import_text
from kb.importer.sections import labels
from sitebuild import FIXTURE_DATA


def context(before: str, data: Path = FIXTURE_DATA) -> Context:
    loaded = load(data)
    papers = {k: v[0] for k, v in loaded.papers.items()}
    briefs = [b for b, _ in loaded.briefs.values() if b.date.isoformat() < before]
    return Context.of(loaded.topics["inference"][0], papers, briefs)


def imported(text: str, before: str = "2026-09-03") -> tuple[Imported, Context]:
    ctx = context(before)
    return import_text(ctx, text), ctx


def export(imp: Imported, ctx: Context) -> str:
    return export_text(imp.brief, _lookup(ctx), labels(ctx.topic), ctx.claims)


def facts(b: Brief, claim_ids: bool = False) -> dict[str, Any]:
    return {
        "increments": [
            (i.label, i.sections, i.status.value, i.value, i.papers, i.light, [s.section for s in i.suggested])
            for i in b.increments
        ],
        "relations": [[(r.section, r.papers, r.origin) for r in i.relations] for i in b.increments],
        "adjacent": [
            (a.sections, a.value, a.status.value, a.priority, a.papers, a.warning, a.origin) for a in b.adjacent
        ],
        "claims": [(c.id if claim_ids else None, c.priority, c.papers, len(c.points)) for c in b.claims],
        "claim_updates": [(u.claim, u.action.value, u.priority) for u in b.claim_updates],
        "citable": [c.paper for c in b.citable],
        "carried": [(c.paper, c.status, c.anchored_in, c.origin) for c in b.carried],
        # a candidate the brief anchors is anchored on the brief's date unless it states another
        "candidates": [(c.paper, c.status, c.anchored_in, c.anchored_since or b.date) for c in b.candidates],
        "stated": b.stated,
        "when": (b.generated_at, b.window, b.round, b.instance, b.cron),
        "cards": [(key(s.title), len(s.cards), s.stated, s.cards_window) for s in b.sources],
        "checked": (len(b.checked.included), len(b.checked.excluded)) if b.checked else None,
        "comparison": (b.comparison.previous_label, len(b.comparison.features)) if b.comparison else None,
    }
