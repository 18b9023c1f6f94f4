"""Claims to verify and their lifecycle.

A brief raises a claim with a stable id; a later brief of the same topic
resolves, updates or drops it by that id (``claim_updates:``).  A claim is open
until it is resolved or dropped; its priority is the latest one given.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kb.data.models import Brief, Claim, ClaimAction, ClaimUpdate


@dataclass(frozen=True)
class ClaimEvent:
    brief: str
    date: dt.date
    update: ClaimUpdate


@dataclass
class ClaimState:
    topic: str
    claim: Claim
    brief: str  # the brief that raised it
    index: int  # 1-based position among that brief's claims
    date: dt.date
    events: list[ClaimEvent] = field(default_factory=list)
    linked_priority: str | None = None  # of an adjacent item about this claim (e.g. `P0 待核实`)

    @property
    def open(self) -> bool:
        return not any(e.update.action in (ClaimAction.resolved, ClaimAction.dropped) for e in self.events)

    @property
    def priority(self) -> str | None:
        for e in reversed(self.events):
            if e.update.priority:
                return e.update.priority
        return self.claim.priority or self.linked_priority

    def as_of(self, keep: Callable[[str], bool]) -> ClaimState:
        """The claim as it stood in the briefs ``keep`` accepts (a brief page shows it as of its own
        date: later updates, closings and priorities are notes beside it, never a rewrite)."""
        return replace(self, events=[e for e in self.events if keep(e.brief)])

    @property
    def priority_rank(self) -> int:
        return int(self.priority[1]) if self.priority else 9

    @property
    def closed_by(self) -> ClaimEvent | None:
        return next((e for e in self.events if e.update.action in (ClaimAction.resolved, ClaimAction.dropped)), None)


@dataclass(frozen=True)
class ClaimProblem:
    """A claim id used wrongly (reported by the rules with its location)."""

    brief: str
    keypath: tuple[str | int, ...]
    kind: str  # "duplicate" | "unknown" | "closed" | "same-brief"
    claim: str
    other: str | None = None  # the brief of the first claim / of the closing update


@dataclass
class Claims:
    by_id: dict[tuple[str, str], ClaimState] = field(default_factory=dict)  # (topic, id) -> state
    by_brief: dict[str, list[ClaimState]] = field(default_factory=dict)  # raising brief -> its claims, in order
    problems: list[ClaimProblem] = field(default_factory=list)

    def get(self, topic: str, claim_id: str) -> ClaimState | None:
        return self.by_id.get((topic, claim_id))

    def ids(self, topic: str) -> list[str]:
        return [cid for (t, cid) in self.by_id if t == topic]

    def open_claims(self) -> list[ClaimState]:
        out = [s for s in self.by_id.values() if s.open]
        out.sort(key=lambda s: (s.priority_rank, s.date, s.index))
        return out

    def of_brief(self, key: str) -> list[ClaimState]:
        return self.by_brief.get(key, [])


def build_claims(briefs: dict[str, Brief], by_topic: dict[str, list[str]]) -> Claims:
    out = Claims()
    for topic, keys in by_topic.items():
        for key in keys:
            brief = briefs[key]
            for i, claim in enumerate(brief.claims):
                known = out.by_id.get((topic, claim.id))
                if known is not None:
                    out.problems.append(ClaimProblem(key, ("claims", i, "id"), "duplicate", claim.id, known.brief))
                    continue
                raised = out.by_id[(topic, claim.id)] = ClaimState(topic, claim, key, i + 1, brief.date)
                out.by_brief.setdefault(key, []).append(raised)
            for i, upd in enumerate(brief.claim_updates):
                state = out.by_id.get((topic, upd.claim))
                where = ("claim_updates", i, "claim")
                if state is None:
                    out.problems.append(ClaimProblem(key, where, "unknown", upd.claim))
                elif state.brief == key:
                    out.problems.append(ClaimProblem(key, where, "same-brief", upd.claim))
                elif (closed := state.closed_by) is not None:
                    out.problems.append(ClaimProblem(key, where, "closed", upd.claim, closed.brief))
                else:
                    state.events.append(ClaimEvent(key, brief.date, upd))
            for adj in brief.adjacent:
                state = out.by_id.get((topic, adj.claim)) if adj.claim else None
                if state is not None and adj.priority and state.linked_priority is None:
                    state.linked_priority = adj.priority
    return out
