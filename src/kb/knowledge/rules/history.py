"""History rules: one status per paper per brief, anchoring recorded consistently,
no status going back once a paper is anchored, claims updated by a known id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.data.diagnostics import Diagnostic, format_keypath
from kb.data.hints import did_you_mean
from kb.data.models import Candidate, CarriedEntry, Increment, Status
from kb.knowledge.history import StatusEntry, status_entries
from kb.knowledge.rules.locate import diag, path_of

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def check(kb: KnowledgeBase) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for key, brief in kb.briefs.items():
        entries = [e for e in status_entries(key, brief) if e.paper in kb.papers]
        out.extend(_anchoring_fields(kb, key))
        out.extend(_one_status(kb, key, entries))
        out.extend(_anchoring_dates(kb, key, entries))
        out.extend(_backwards(kb, key, brief.topic, entries))
    out.extend(_claims(kb))
    return out


def _anchoring_fields(kb: KnowledgeBase, key: str) -> list[Diagnostic]:
    brief = kb.briefs[key]
    out = []
    entries: list[tuple[str, int, Increment | Candidate | CarriedEntry]]
    entries = [("increments", i, e) for i, e in enumerate(brief.increments)]
    entries += [("candidates", i, e) for i, e in enumerate(brief.candidates)]
    entries += [("carried", i, e) for i, e in enumerate(brief.carried)]
    for name, i, e in entries:
        for field in ("anchored_in", "anchored_since"):
            if getattr(e, field) is not None and e.status is not Status.anchored:
                out.append(
                    diag(
                        kb,
                        "brief",
                        key,
                        (name, i, field),
                        f"{field} records an anchoring: it goes with "
                        f"`status: anchored` (this entry says {e.status.value if e.status else 'no status'})",
                        "anchoring",
                    )
                )
        if e.anchored_since is not None and e.anchored_since > brief.date:
            out.append(
                diag(
                    kb,
                    "brief",
                    key,
                    (name, i, "anchored_since"),
                    f"anchored_since {e.anchored_since.isoformat()} is after the brief's date {brief.date.isoformat()}",
                    "anchoring",
                )
            )
    return out


def _anchoring_dates(kb: KnowledgeBase, key: str, entries: list[StatusEntry]) -> list[Diagnostic]:
    """Entries of one brief anchoring the same paper make one anchoring (their sections merged):
    they may not state different dates for it."""
    out = []
    first: dict[str, StatusEntry] = {}
    for e in entries:
        if e.status is not Status.anchored or e.anchored_since is None:
            continue
        seen = first.setdefault(e.paper, e)
        if seen is e or seen.anchored_since == e.anchored_since:
            continue
        assert seen.anchored_since is not None
        out.append(
            diag(
                kb,
                "brief",
                key,
                (*e.keypath[:2], "anchored_since"),
                f"{kb.papers[e.paper].short} is anchored since {seen.anchored_since.isoformat()} at "
                f"{format_keypath(seen.keypath[:2])} and since {e.anchored_since.isoformat()} here: one paper "
                "has one anchoring date (list every section in one `anchored_in: [...]`, or give both entries "
                "the same date)",
                "anchoring",
            )
        )
    return out


def _one_status(kb: KnowledgeBase, key: str, entries: list[StatusEntry]) -> list[Diagnostic]:
    out = []
    first: dict[str, StatusEntry] = {}
    for e in entries:
        seen = first.setdefault(e.paper, e)
        if seen is e or seen.status is e.status:
            continue
        short = kb.papers[e.paper].short
        anchoring = Status.anchored in (seen.status, e.status)
        fix = (
            "anchoring contradiction: make every entry `anchored`, or drop the other entry"
            if anchoring
            else "one brief gives one status per paper"
        )
        out.append(
            diag(
                kb,
                "brief",
                key,
                e.keypath,
                f"{short} is {seen.status.value} at {format_keypath(seen.keypath)} and {e.status.value} here: {fix}",
                "status-conflict",
            )
        )
    return out


def _backwards(kb: KnowledgeBase, key: str, topic: str, entries: list[StatusEntry]) -> list[Diagnostic]:
    out = []
    for e in entries:
        if e.status is Status.anchored:
            continue
        rec = kb.history.anchored_before(e.paper, topic, key)
        if rec is not None:
            out.append(
                diag(
                    kb,
                    "brief",
                    key,
                    e.keypath,
                    f"status going backwards: {kb.papers[e.paper].short} is anchored "
                    f"in {topic} since {rec.recorded_on.isoformat()} ({path_of(kb, 'brief', rec.brief)}), but this "
                    f"brief marks it {e.status.value}; write `status: anchored`",
                    "status-backwards",
                )
            )
    return out


_CLAIM_MESSAGES = {
    "duplicate": "claim id '{claim}' was already raised in {other}: ids are unique within a topic; "
    "to say more about that claim, use `claim_updates:` with `claim: {claim}`",
    "unknown": "unknown claim '{claim}'{hint}: `claim_updates:` names a claim raised by an earlier brief of the topic",
    "same-brief": "claim '{claim}' is raised in this brief: a claim is updated by a later brief",
    "closed": "claim '{claim}' was already closed in {other}: raise a new claim instead",
}


_SHOWN_OPEN = 8  # open claims named when an unknown one is near none


def _claim_hint(kb: KnowledgeBase, topic: str, claim: str) -> str:
    """The ids ``claim`` is close to, else the topic's open claims (the ones an update may name)."""
    if close := did_you_mean(claim, kb.claims.ids(topic)):
        return close
    ids = [s.claim.id for s in kb.claims.open_claims() if s.topic == topic]
    if not ids:
        return f" (no claim of {topic} is open)"
    more = f" and {len(ids) - _SHOWN_OPEN} more" if len(ids) > _SHOWN_OPEN else ""
    return f" (open claims of {topic}: {', '.join(ids[:_SHOWN_OPEN])}{more}; `kb status <id>` shows one)"


def _claims(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    for p in kb.claims.problems:
        if p.kind == "unknown" and kb.claims_held:
            continue
        topic = kb.briefs[p.brief].topic
        hint = _claim_hint(kb, topic, p.claim) if p.kind == "unknown" else ""
        other = path_of(kb, "brief", p.other) if p.other else ""
        out.append(
            diag(
                kb,
                "brief",
                p.brief,
                p.keypath,
                _CLAIM_MESSAGES[p.kind].format(claim=p.claim, other=other, hint=hint),
                f"claim-{p.kind}",
            )
        )
    return out
