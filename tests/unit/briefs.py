"""Small briefs built in Python for unit tests of the knowledge layer (no files, no site)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kb.data.models import Brief

TZ = dt.timezone(dt.timedelta(hours=8))


def brief(day: str, topic: str = "inference", round_: str = "E1", **fields: Any) -> Brief:
    """A valid brief of ``day`` (YYYY-MM-DD) with ``fields`` (model field values, as YAML would give them)."""
    date = dt.date.fromisoformat(day)
    end = dt.datetime.combine(date, dt.time(22, 20), TZ)
    data: dict[str, Any] = {
        "topic": topic,
        "date": day,
        "round": round_,
        "instance": "Tom",
        "generated_at": end.isoformat(),
        "timezone": "Asia/Shanghai",
        "window": {"start": (end - dt.timedelta(days=1)).isoformat(), "end": end.isoformat()},
    }
    data.update(fields)
    return Brief.model_validate(data)


def key(b: Brief) -> str:
    return f"{b.topic}/{b.date.isoformat()}-{b.round.lower()}"


def keyed(*briefs: Brief) -> tuple[dict[str, Brief], dict[str, list[str]]]:
    """(briefs by key, keys by topic in date order) as the index keeps them."""
    by_key = {key(b): b for b in sorted(briefs, key=lambda b: (b.topic, b.date, b.round))}
    by_topic: dict[str, list[str]] = {}
    for k, b in by_key.items():
        by_topic.setdefault(b.topic, []).append(k)
    return by_key, by_topic


def increment(papers: list[str], status: str = "net-new", **fields: Any) -> dict[str, Any]:
    return {"sections": ["s1"], "title": "t", "label": "l", "papers": papers, "status": status, **fields}
