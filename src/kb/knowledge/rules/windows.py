"""A brief's time window: it ends after it starts, holds the brief's date, and the
brief was generated within it."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic
from kb.knowledge.rules.locate import diag

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

SLACK = dt.timedelta(hours=1)


def check(kb: KnowledgeBase) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for key, brief in kb.briefs.items():
        missing = [name for name in ("generated_at", "window") if getattr(brief, name) is None]
        if missing and brief.reconstructed is None:
            out.extend(
                diag(
                    kb,
                    "brief",
                    key,
                    (),
                    f"missing key '{name}': a brief records when it was written and its window "
                    "(only a reconstructed brief, with `reconstructed:`, may leave out what it does not record)",
                    "window",
                )
                for name in missing
            )
        w = brief.window
        if w is None:
            continue
        if w.end <= w.start:
            out.append(
                diag(
                    kb,
                    "brief",
                    key,
                    ("window", "end"),
                    f"window ends ({w.end.isoformat()}) before it starts ({w.start.isoformat()})",
                    "window",
                )
            )
            continue
        tz = w.end.tzinfo
        start_day, end_day = w.start.astimezone(tz).date(), w.end.astimezone(tz).date()
        if not (start_day <= brief.date <= end_day):
            out.append(
                diag(
                    kb,
                    "brief",
                    key,
                    ("date",),
                    f"brief date {brief.date.isoformat()} is outside its window "
                    f"{w.start.isoformat()} → {w.end.isoformat()}: fix the date or the window",
                    "window",
                )
            )
        if brief.generated_at is not None and not (w.start <= brief.generated_at <= w.end + SLACK):
            out.append(
                diag(
                    kb,
                    "brief",
                    key,
                    ("generated_at",),
                    f"generated_at {brief.generated_at.isoformat()} is "
                    f"outside the window {w.start.isoformat()} → {w.end.isoformat()}",
                    "window",
                )
            )
    return out
