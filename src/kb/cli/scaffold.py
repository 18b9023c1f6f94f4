"""Starting points for new data files: a day's brief and a paper file.

Pure text generation (nothing is written here; ``kb new`` writes).  The brief
comes from the template ``templates/brief.yaml``: values from existing data are
YAML-quoted (:mod:`kb.data.yamlwrite`) and the result is read back through
:mod:`kb.data.yamlstrict` and validated before it is returned, so a scaffold
always loads.

* :func:`brief_text` — only what the author must decide: window (previous day,
  same time of day as the previous brief's window end, in its timezone),
  ``generated_at``, instance and the scheduled job's id (``cron``) of the round,
  empty parts with commented examples, and, as comments, the items still pending
  anchoring and the open claims the author may act on.  Nothing it writes changes
  a computed figure.
* :func:`paper_text` — ``id``, ``arxiv``, ``short`` and every hand-written key
  as a comment.  No network: ``kb paper add`` fills ``arxiv_meta`` later.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from importlib import resources
from string import Template
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kb.data import arxiv_id, models, yamlstrict
from kb.data.hints import did_you_mean
from kb.data.loader import M, validate
from kb.data.models import SLUG, Brief, Paper
from kb.data.typedesc import Describer
from kb.data.yamlwrite import scalar as _q
from kb.knowledge.backlog import pending_items
from kb.knowledge.index import KnowledgeBase

DEFAULT_TIMEZONE = "UTC"  # for the first brief of a topic (no previous brief to copy from)
ROUND = re.compile(models.ROUND)


class ScaffoldError(ValueError):
    """The scaffold cannot be made (unknown topic, bad id, ...); the message says why."""


def _stamp(value: dt.datetime) -> str:
    return value.isoformat(timespec="seconds")


def _comment(text: str) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in text.rstrip("\n").splitlines())


def _check(text: str, model: type[M], shown: str) -> M:
    located, diags = yamlstrict.load_text(text, shown)
    if located is None:  # pragma: no cover - the dumper quotes every value
        raise ScaffoldError("the scaffold would not read back: " + diags[0].text())
    record, diags = validate(model, located)
    if record is None:
        raise ScaffoldError("the scaffold would not validate: " + "; ".join(d.text() for d in diags[:3]))
    return record


# --------------------------------------------------------------------------- brief


@dataclass(frozen=True)
class BriefPlan:
    """What a new brief is made of, before it becomes text."""

    topic: str
    date: dt.date
    round: str
    instance: str
    timezone: str
    window_start: dt.datetime
    window_end: dt.datetime
    previous: str | None  # key of the brief copied from
    later: tuple[str, ...]  # briefs of the topic dated after this one (backfilling)

    @property
    def path(self) -> str:
        return f"briefs/{self.topic}/{self.date.isoformat()}-{self.round.lower()}.yaml"

    @property
    def key(self) -> str:
        return f"{self.topic}/{self.date.isoformat()}-{self.round.lower()}"


def _zone(name: str, fallback: dt.tzinfo | None) -> dt.tzinfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        if fallback is None:
            raise ScaffoldError(f"unknown timezone {name!r}: expected an IANA name such as Asia/Shanghai") from None
        return fallback  # no tz database here: keep the previous brief's UTC offset


def plan_brief(
    kb: KnowledgeBase, topic: str, date: dt.date, round_: str = "E1", instance: str | None = None
) -> BriefPlan:
    if topic not in kb.topics:
        raise ScaffoldError(
            f"unknown topic {topic!r}{did_you_mean(topic, kb.topics)}; "
            f"expected one of: {', '.join(kb.topics) or 'none'}"
        )
    round_ = round_.upper()  # e1, as the file name writes it, is the round E1
    if not ROUND.match(round_):
        raise ScaffoldError(f"bad round {round_!r}: expected {Describer(spell_out=True).type(models.Round)}")
    keys = kb.by_topic.get(topic, [])
    earlier = [k for k in keys if (kb.briefs[k].date, kb.briefs[k].round) < (date, round_)]
    later = tuple(k for k in keys if kb.briefs[k].date > date)
    prev = kb.briefs[earlier[-1]] if earlier else None
    who = instance or (prev.instance if prev else None)
    # the window's time of day: of the latest earlier brief that records a window
    timed = next((kb.briefs[k] for k in reversed(earlier) if kb.briefs[k].window is not None), None)
    if not who:
        raise ScaffoldError(f"topic {topic!r} has no earlier brief to take the instance from: give --instance NAME")
    if timed is not None and timed.window is not None:
        tz_name = timed.timezone
        tz = _zone(tz_name, timed.window.end.tzinfo)
        at = timed.window.end.astimezone(tz).timetz().replace(tzinfo=None)
    else:
        tz_name, tz, at = DEFAULT_TIMEZONE, dt.UTC, dt.time(0, 0)
    end = dt.datetime.combine(date, at, tzinfo=tz)
    start = dt.datetime.combine(date - dt.timedelta(days=1), at, tzinfo=tz)  # previous day, same wall time
    return BriefPlan(topic, date, round_, who, tz_name, start, end, earlier[-1] if earlier else None, later)


def _abbr(plan: BriefPlan, prev: Brief | None) -> str | None:
    name = plan.window_end.tzname()
    if name and name.isalpha():
        return name
    return prev.timezone_abbr if prev else None


def _section_example(kb: KnowledgeBase, topic: str) -> str:
    numbered = [i.id for i in kb.sections.get(topic, {}).values() if i.section.number and i.depth > 0]
    return numbered[0] if numbered else next(iter(kb.sections.get(topic, {})), "<section-id>")


def _pending_comment(kb: KnowledgeBase, plan: BriefPlan) -> str:
    """The items still waiting to be anchored, as comments the author may act on."""
    items = [it for it in pending_items(kb, plan.topic) if it.first_seen <= plan.date]
    if not items:
        return ""
    lines = [
        "Still pending anchoring (the backlog before this brief).  Raise one again as an increment",
        "or a candidate, or record that the living document anchors it: one entry with",
        "`status: anchored` and `anchored_in: [<section id>, ...]` (every section; dated by this",
        "brief).  The carried-over list (carried:) holds the main increments and candidates among",
        "them, not what only an adjacent item named.",
    ]
    width = max(len(it.paper) for it in items)
    for it in items:
        paper = kb.papers[it.paper]
        ident = f" arXiv:{paper.arxiv_base}" if paper.arxiv_base else ""
        lines.append(
            f"  {it.paper.ljust(width)}  {paper.short}{ident} · first seen {it.first_seen.isoformat()} "
            f"({it.first_kind})"
        )
    return "\n" + _comment("\n".join(lines))


def _claims_comment(kb: KnowledgeBase, plan: BriefPlan) -> str:
    """The topic's open claims, as comments: resolve or update them under claim_updates:."""
    states = [s for s in kb.claims.open_claims() if s.topic == plan.topic and s.date <= plan.date]
    if not states:
        return ""
    width = max(len(s.claim.id) for s in states)
    lines = [
        "Open claims of this topic, by priority (resolve, update or drop them under claim_updates:;",
        "`kb status <claim id>` shows one in full):",
    ]
    for s in states:
        lines.append(f"  {s.claim.id.ljust(width)}  {s.priority or '--'}  {s.claim.title}")
        history = [f"raised {s.date.isoformat()}"] + [
            f"{e.update.action.value} {e.date.isoformat()}" + (f" ({e.update.priority})" if e.update.priority else "")
            for e in s.events
            if e.date <= plan.date
        ]
        lines.append(" " * (width + 4) + "    " + " · ".join(history))
    return "\n" + _comment("\n".join(lines))


def _optional(key: str, value: str | None) -> str:
    return f"{key}: {_q(value)}" if value else f"# {key}: <as in the previous brief>"


def brief_text(kb: KnowledgeBase, plan: BriefPlan, generated: dt.datetime | None = None) -> str:
    """The YAML of a new brief (validated).  ``generated`` defaults to the window's end."""
    prev = kb.briefs[plan.previous] if plan.previous else None
    same_round = prev is not None and prev.round == plan.round
    pending = pending_items(kb, plan.topic)
    template = Template(resources.files("kb.cli").joinpath("templates/brief.yaml").read_text("utf-8"))
    text = template.substitute(
        topic=plan.topic,
        date=plan.date.isoformat(),
        round=plan.round,
        instance=_q(plan.instance),
        round_name=_optional("round_name", prev.round_name if same_round and prev else None),
        cron=_optional("cron", prev.cron if same_round and prev else None),
        generated_at=_stamp(generated or plan.window_end),
        timezone=_q(plan.timezone),
        timezone_abbr=_optional("timezone_abbr", _abbr(plan, prev)),
        window_start=_stamp(plan.window_start),
        window_end=_stamp(plan.window_end),
        window_note=_q(prev.window.note if prev and prev.window and prev.window.note else "约 24h"),
        section=_section_example(kb, plan.topic),
        paper=pending[0].paper if pending else next(iter(kb.papers), "<paper-id>"),
        pending=_pending_comment(kb, plan),
        claims=_claims_comment(kb, plan),
    )
    _check(text, Brief, plan.path)
    return text


# --------------------------------------------------------------------------- paper


@dataclass(frozen=True)
class PaperPlan:
    id: str
    arxiv: str | None  # normalised id as written (version kept), or None

    @property
    def path(self) -> str:
        return f"papers/{self.id}.yaml"


def plan_paper(ident: str, slug: str | None = None) -> PaperPlan:
    """``ident`` is an arXiv id (``2505.02922``, ``arXiv:2505.02922v2``, ``hep-th/9901001``) or a slug."""
    parsed = arxiv_id.parse(ident)
    if slug is not None and not re.match(SLUG, slug):
        raise ScaffoldError(f"bad --id {slug!r}: expected {Describer(spell_out=True).type(models.Slug)}")
    if parsed is not None:
        default = "arxiv-" + re.sub(r"[^a-z0-9]+", "-", parsed.base.lower()).strip("-")
        return PaperPlan(slug or default, str(parsed))
    if re.match(SLUG, ident):
        if slug is not None and slug != ident:
            raise ScaffoldError(f"give the slug once: {ident!r} or --id {slug!r}")
        return PaperPlan(ident, None)
    why = arxiv_id.why_not(ident)
    if why:
        raise ScaffoldError(f"{ident!r} is no arXiv id: {why}")
    raise ScaffoldError(
        f"expected an arXiv id (2505.02922, arXiv:2505.02922v2, hep-th/9901001) or a slug (retroinfer), got {ident!r}"
    )


PAPER_FIELDS = """\
kind: paper                  # paper, system, benchmark or report
title: "<full title>"        # may be left out once arxiv_meta has it
authors: [<name>, <name>]
affiliations: [<institution>]
authors_note: <e.g. 单作，无机构标注>
venue:
  name: <e.g. VLDB 2026>
  detail: <e.g. PVLDB Vol.19 Issue 5, Pages 1016-1031>
  note: <e.g. Best Honorable Mention>
published: YYYY-MM           # YYYY, YYYY-MM or YYYY-MM-DD
submitted: YYYY-MM-DD        # arXiv v1 date as stated by a source
subjects: [cs.CL]
links:
  code: https://github.com/<owner>/<repo>
  html: https://arxiv.org/html/<id>
  proceedings: https://<url>
credibility:
  level: high                # very-high, high, medium, medium-low or low
  reason: <why>
cards: [1197]                # paper_card number(s)
category:
  primary: {topic}           # primary category / topic axis
  adjacent: [llm-infra]
key_numbers:
  - value: "-24.1%"
    what: <what it measures>
notes:
  - <one paragraph per note>
"""


def paper_text(
    plan: PaperPlan, short: str | None = None, topic: str = "inference", section: str = "<section-id>"
) -> str:
    """The YAML of a new paper file (validated)."""
    shown = short or (arxiv_id.normalize(plan.arxiv) if plan.arxiv else None) or plan.id
    fetch = f"`kb paper add {plan.arxiv}`" if plan.arxiv else "`kb paper add <arXiv id>` (after adding `arxiv:`)"
    head = "# yaml-language-server: $schema=../schema/paper.schema.json\n" + _comment(
        "Paper file scaffolded by `kb new paper`.  Uncomment and fill in the hand-written keys you know.\n"
        f"Title, authors, abstract, dates and categories come from arXiv: run {fetch}\n"
        "to add them as the `arxiv_meta:` block (needs the network; never edit that block by hand).\n"
        "Keys are described in CONTRIBUTING.md (schema reference).  Where the living document\n"
        "anchors it is recorded by the briefs (`status: anchored`, `anchored_in:`), not here."
    )
    # an arXiv id is written plain, as in the hand-written files (the strict reader keeps it text)
    body = f"id: {plan.id}\n" + (f"arxiv: {plan.arxiv}\n" if plan.arxiv else "# arxiv: 2505.02922\n")
    body += f"short: {_q(shown)}" + "  # display name, e.g. RetroInfer\n"
    text = head + body + _comment(PAPER_FIELDS.format(topic=topic, section=section))
    paper = _check(text, Paper, plan.path)
    if paper.id != plan.id:  # pragma: no cover
        raise ScaffoldError("internal error: id did not round-trip")
    return text
