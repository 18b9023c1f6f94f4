"""The finding record, shared by the checks of :mod:`kb.knowledge.findings`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kb.data.diagnostics import KeyPath
from kb.data.models import Paper


@dataclass(frozen=True)
class Finding:
    owner: str  # "brief" | "paper" | "topic"
    key: str  # brief key, paper id or topic id
    code: str  # stable within the file, e.g. "stated/net_new", "origin/tokenflow"
    kind: str  # the message's kind, e.g. "stated", "origin" (the catalogue's key)
    keypath: KeyPath
    message: str  # for contributors (English)
    params: dict[str, str] = field(default_factory=dict)  # for the site's message


def brief_finding(key: str, code: str, kind: str, keypath: KeyPath, message: str, **params: object) -> Finding:
    return Finding("brief", key, code, kind, keypath, message, {k: str(v) for k, v in params.items()})


def short_name(papers: Mapping[str, Paper], pid: str) -> str:
    """The paper's display name, or its id when no paper file has it."""
    paper = papers.get(pid)
    return paper.short if paper else pid
