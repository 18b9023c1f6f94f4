"""Starting points for new data files: a day's brief and a paper file.

Pure text generation (nothing is written here; ``kb new`` writes).  Every value
that comes from existing data is YAML-quoted by the dumper, and the result is
read back through :mod:`kb.data.yamlstrict` and validated before it is returned, so
a scaffold always loads.  Commented examples show the parts to fill in.

* :func:`brief_text` — window (previous day, same time of day as the previous
  brief's window end, in its timezone), ``generated_at``, baseline copied from
  the previous brief, empty increments / adjacent / claims, and the backlog's
  pending items (:func:`kb.backlog.pending_items`) as ``candidates:``.
* :func:`paper_text` — ``id``, ``arxiv``, ``short`` and every hand-written key
  as a comment.  No network: ``kb paper add`` fills ``arxiv_meta`` later.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from kb.data import arxiv_id, yamlstrict
from kb.knowledge.backlog import pending_items
from kb.knowledge.index import KnowledgeBase
from kb.data.loader import validate
from kb.data.models import SLUG, STATUS_LABELS, Brief, Paper, Status

DEFAULT_TIMEZONE = "UTC"  # for the first brief of a topic (no previous brief to copy from)
ROUND = re.compile(r"^[A-Z][A-Z0-9]{0,5}$")


class ScaffoldError(ValueError):
    """The scaffold cannot be made (unknown topic, bad id, ...); the message says why."""


# --------------------------------------------------------------------------- YAML helpers


class _Dumper(yaml.SafeDumper):
    """Block style with lists indented under their key, as the hand-written files are."""

    def ignore_aliases(self, data) -> bool:
        return True

    def increase_indent(self, flow: bool = False, indentless: bool = False):
        return super().increase_indent(flow, False)

    def represent_list(self, data):
        flow = all(isinstance(x, (str, int)) for x in data)  # [a, b] for lists of plain values
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_Dumper.add_representer(list, _Dumper.represent_list)


def _dump(data: dict, indent: int = 0) -> str:
    text = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False,
                     default_flow_style=False, width=1_000_000, indent=2)
    return "".join(" " * indent + line for line in text.splitlines(keepends=True))


def _q(value: str) -> str:
    """One scalar, quoted when YAML would read it as anything but this text."""
    return _dump({"v": value})[3:].rstrip("\n")


def _stamp(value: dt.datetime) -> str:
    return value.isoformat(timespec="seconds")


def _comment(text: str) -> str:
    return "".join(f"# {line}".rstrip() + "\n" for line in text.rstrip("\n").splitlines())


def _check(text: str, model, shown: str):
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


def plan_brief(kb: KnowledgeBase, topic: str, date: dt.date, round_: str = "E1", instance: str | None = None) -> BriefPlan:
    if topic not in kb.topics:
        raise ScaffoldError(f"unknown topic {topic!r}; expected one of: {', '.join(kb.topics) or 'none'}")
    if not ROUND.match(round_):
        raise ScaffoldError(f"bad round {round_!r}: expected an upper-case letter then up to 5 letters or digits, e.g. E1")
    keys = kb.by_topic.get(topic, [])
    earlier = [k for k in keys if (kb.briefs[k].date, kb.briefs[k].round) < (date, round_)]
    later = tuple(k for k in keys if kb.briefs[k].date > date)
    prev = kb.briefs[earlier[-1]] if earlier else None
    who = instance or (prev.instance if prev else None)
    if not who:
        raise ScaffoldError(f"topic {topic!r} has no earlier brief to take the instance from: give --instance NAME")
    if prev is not None:
        tz_name = prev.timezone
        tz = _zone(tz_name, prev.window.end.tzinfo)
        at = prev.window.end.astimezone(tz).timetz().replace(tzinfo=None)
    else:
        tz_name, tz, at = DEFAULT_TIMEZONE, dt.timezone.utc, dt.time(0, 0)
    end = dt.datetime.combine(date, at, tzinfo=tz)
    start = dt.datetime.combine(date - dt.timedelta(days=1), at, tzinfo=tz)  # previous day, same wall time
    return BriefPlan(topic, date, round_, who, tz_name, start, end, earlier[-1] if earlier else None, later)


def _abbr(plan: BriefPlan, prev: Brief | None) -> str | None:
    name = plan.window_end.tzname()
    if name and name.isalpha():
        return name
    return prev.timezone_abbr if prev else None


def _candidates(kb: KnowledgeBase, plan: BriefPlan) -> list[dict]:
    out = []
    for it in pending_items(kb, plan.topic):
        paper = kb.papers[it.paper]
        anchor = kb.anchor_of(paper, plan.topic, plan.date - dt.timedelta(days=1))
        status = Status.anchored if anchor else it.status
        first = kb.briefs[it.first_brief]
        note = (f"沿用自待办：{it.first_seen.isoformat()} {first.round} 简报（{it.first_brief}）首次提出为 "
                f"{STATUS_LABELS[it.status]}，经手 {len(it.briefs)} 期，至 {plan.date.isoformat()} 已 "
                f"{(plan.date - it.first_seen).days} 天")
        if anchor:
            note += f"；已于 {anchor.since.isoformat()} 锚入"
        out.append({"paper": it.paper, "status": status.value, "note": note})
    return out


def _section_example(kb: KnowledgeBase, topic: str) -> str:
    numbered = [i.id for i in kb.sections.get(topic, {}).values() if i.section.number and i.depth > 0]
    return numbered[0] if numbered else next(iter(kb.sections.get(topic, {})), "<section-id>")


def brief_text(kb: KnowledgeBase, plan: BriefPlan, generated: dt.datetime | None = None) -> str:
    """The YAML of a new brief (validated).  ``generated`` defaults to the window's end."""
    prev = kb.briefs[plan.previous] if plan.previous else None
    gen = generated or plan.window_end
    sec = _section_example(kb, plan.topic)
    cands = _candidates(kb, plan)
    example_paper = cands[0]["paper"] if cands else next(iter(kb.papers), "<paper-id>")
    out = [_comment(
        f"{plan.topic} · {plan.round} brief for {plan.date.isoformat()}, scaffolded by `kb new brief`.\n"
        "Fill in the parts below (uncomment an example and edit it), then run `kb validate`.\n"
        "Counts, net-new arXiv ids, carried-over items and the summary table are computed\n"
        "from this file and the history: do not type them.  See CONTRIBUTING.md."
    )]
    out.append(f"topic: {plan.topic}\ndate: {plan.date.isoformat()}\nround: {plan.round}\n")
    if prev is not None and prev.round == plan.round and prev.round_name:
        out.append(f"round_name: {_q(prev.round_name)}\n")
    else:
        out.append("# round_name: 日间预消化轮\n")
    out.append(f"instance: {_q(plan.instance)}\n")
    if prev is not None and prev.round == plan.round and prev.cron:
        out.append(f"cron: {_q(prev.cron)}\n")
    out.append(f"generated_at: {_stamp(gen)}\ntimezone: {_q(plan.timezone)}\n")
    abbr = _abbr(plan, prev)
    if abbr:
        out.append(f"timezone_abbr: {_q(abbr)}\n")
    out.append(_comment("The 24 hours up to the brief: the previous day at the same time -> this day."))
    out.append(f"window:\n  start: {_stamp(plan.window_start)}\n  end: {_stamp(plan.window_end)}\n")
    note = prev.window.note if prev and prev.window.note else "约 24h"
    out.append(f"  note: {_q(note)}\n")
    if prev is not None and prev.baseline is not None:
        out.append(_comment(f"Copied from the previous brief ({plan.previous}): update it if the living document changed."))
        out.append(_dump({"baseline": prev.baseline.model_dump(mode="python", exclude_defaults=True)}))
    else:
        out.append(_comment(
            "baseline:\n  document: organized/knowledge/<topic>.md\n  updated: YYYY-MM-DD\n"
            "  labels:\n    - text: <update label as written>\n  citations: 0"))
    out.append("\n" + _comment(
        "The round's character (optional):\n"
        "character:\n  title: <one line>\n  text: <one paragraph>"))
    out.append("\n" + _comment(
        "Sources checked: one group per source, each with the files read.\n"
        "sources:\n  - title: inbox/<name> 今日 radar\n    findings:\n      - <what was found>\n"
        "    files:\n      - path: inbox/<name>/<file>.md\n        included: true\n        reason: <why>"))
    out.append("sources: []\n")
    out.append("\n" + _comment(
        "Main increments: one entry per finding.\n"
        "increments:\n"
        f"  - sections: [{sec}]\n"
        "    light: green  # green, yellow or red\n"
        "    title: <one-line headline>\n"
        "    label: <short name for the summary table>\n"
        f"    papers: [{example_paper}]  # ids of data/papers/<id>.yaml\n"
        "    points:\n      - items:\n          - <key point>\n"
        f"    suggested:\n      - section: {sec}\n"
        "    status: net-new  # net-new, pending or anchored\n"
        "    value: 4  # 1-5, shown as stars"))
    out.append("increments: []\n")
    out.append("\n" + _comment(
        "Adjacent prep items (邻接预备).\n"
        "adjacent:\n  - title: <name>\n    text: <what it is>\n    origin: <which source raised it>\n"
        f"    sections: [{sec}]\n    value: 3\n    status: prep  # prep or verify"))
    out.append("adjacent: []\n")
    out.append("\n" + _comment(
        "Claims to verify (待核实).\n"
        "claims:\n  - title: <the claim>\n    priority: P1  # P0-P3\n"
        f"    papers: [{example_paper}]\n    points:\n      - <what to check>"))
    out.append("claims: []\n")
    if cands:
        out.append("\n" + _comment(
            f"Carried over from the backlog (kb.backlog.pending_items, as of the topic's latest brief):\n"
            "items still NET-new or pending anchoring, with their current status.  Update a status\n"
            "when this round anchors an item; remove an entry that is raised as an increment above."))
        out.append(_dump({"candidates": cands}))
    else:
        out.append("\n" + _comment("No items are pending in the backlog.\ncandidates:\n  - {paper: <paper-id>, status: pending, note: <why>}"))
        out.append("candidates: []\n")
    text = "".join(out)
    brief = _check(text, Brief, plan.path)
    if prev is not None and prev.baseline is not None and brief.baseline != prev.baseline:  # pragma: no cover
        raise ScaffoldError("internal error: the baseline did not copy exactly")
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
        raise ScaffoldError(f"bad --id {slug!r}: expected lower-case letters, digits and '-', starting with a letter or digit")
    if parsed is not None:
        default = "arxiv-" + re.sub(r"[^a-z0-9]+", "-", parsed.base.lower()).strip("-")
        return PaperPlan(slug or default, str(parsed))
    if re.match(SLUG, ident):
        if slug is not None and slug != ident:
            raise ScaffoldError(f"give the slug once: {ident!r} or --id {slug!r}")
        return PaperPlan(ident, None)
    raise ScaffoldError(f"expected an arXiv id (2505.02922, arXiv:2505.02922v2, hep-th/9901001) or a slug (retroinfer), got {ident!r}")


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
anchors:                     # where and since when the living document anchors it
  - topic: {topic}
    section: {section}
    since: YYYY-MM-DD
key_numbers:
  - value: "-24.1%"
    what: <what it measures>
notes:
  - <one paragraph per note>
"""


def paper_text(plan: PaperPlan, short: str | None = None, topic: str = "inference", section: str = "<section-id>") -> str:
    """The YAML of a new paper file (validated)."""
    shown = short or (arxiv_id.normalize(plan.arxiv) if plan.arxiv else plan.id)
    fetch = f"`kb paper add {plan.arxiv}`" if plan.arxiv else "`kb paper add <arXiv id>` (after adding `arxiv:`)"
    head = _comment(
        "Paper file scaffolded by `kb new paper`.  Uncomment and fill in the hand-written keys you know.\n"
        f"Title, authors, abstract, dates and categories come from arXiv: run {fetch}\n"
        "to add them as the `arxiv_meta:` block (needs the network; never edit that block by hand).\n"
        "Keys are described in CONTRIBUTING.md (schema reference).")
    # an arXiv id is written plain, as in the hand-written files (the strict reader keeps it text)
    body = f"id: {plan.id}\n" + (f"arxiv: {plan.arxiv}\n" if plan.arxiv else "# arxiv: 2505.02922\n")
    body += f"short: {_q(shown)}" + "  # display name, e.g. RetroInfer\n"
    text = head + body + _comment(PAPER_FIELDS.format(topic=topic, section=section))
    paper = _check(text, Paper, plan.path)
    if paper.id != plan.id:  # pragma: no cover
        raise ScaffoldError("internal error: id did not round-trip")
    return text
