"""References between records: topics, sections, papers and claims named by id must
exist.  Each error names the closest valid ids and where the valid ones are listed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, cast

from kb.data.diagnostics import Diagnostic, KeyPath, format_keypath
from kb.data.hints import did_you_mean
from kb.data.models import Brief, Section
from kb.knowledge.rules.locate import diag

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase


def brief_refs(brief: Brief) -> Iterator[tuple[KeyPath, str, str]]:
    """(keypath, kind, value) for every reference a brief makes: kind is 'section', 'paper' or 'claim'."""
    for i, inc in enumerate(brief.increments):
        yield from ((("increments", i, "sections", j), "section", s) for j, s in enumerate(inc.sections))
        yield from ((("increments", i, "papers", j), "paper", p) for j, p in enumerate(inc.papers))
        for j, r in enumerate(inc.relations):
            if r.section:
                yield ("increments", i, "relations", j, "section"), "section", r.section
            yield from ((("increments", i, "relations", j, "papers", k), "paper", p) for k, p in enumerate(r.papers))
        yield from (
            (("increments", i, "suggested", j, "section"), "section", sg.section) for j, sg in enumerate(inc.suggested)
        )
        yield from _anchored_in(("increments", i), inc.anchored_in)
    for i, adj in enumerate(brief.adjacent):
        yield from ((("adjacent", i, "sections", j), "section", s) for j, s in enumerate(adj.sections))
        yield from ((("adjacent", i, "papers", j), "paper", p) for j, p in enumerate(adj.papers))
        if adj.claim:
            yield ("adjacent", i, "claim"), "claim", adj.claim
    for name in ("candidates", "carried", "citable"):
        for i, entry in enumerate(getattr(brief, name)):
            yield (name, i, "paper"), "paper", entry.paper
            yield from _anchored_in((name, i), getattr(entry, "anchored_in", None))
    for i, c in enumerate(brief.claims):
        yield from ((("claims", i, "papers", j), "paper", p) for j, p in enumerate(c.papers))
    for i, g in enumerate(brief.sources):
        yield from ((("sources", i, "confirmed_pending", j), "paper", p) for j, p in enumerate(g.confirmed_pending))
        for j, fl in enumerate(g.files):
            yield from (
                (("sources", i, "files", j, "classifies", k, "paper"), "paper", c.paper)
                for k, c in enumerate(fl.classifies)
            )


def _anchored_in(at: KeyPath, sections: list[str] | str | None) -> Iterator[tuple[KeyPath, str, str]]:
    """`anchored_in: <id>` or `anchored_in: [<id>, …]`: each id located (the item of a list)."""
    if sections is None:
        return
    if isinstance(sections, str):  # as written in a brief that is no valid record (`_Raw`)
        sections = [sections]
    if len(sections) == 1:  # written either way: the key locates both
        yield (*at, "anchored_in"), "section", sections[0]
    else:
        yield from (((*at, "anchored_in", j), "section", s) for j, s in enumerate(sections))


def unknown_section(kb: KnowledgeBase, topic: str, value: str) -> str:
    ids = list(kb.sections.get(topic, {}))
    return (
        f"unknown section '{value}' in topic '{topic}'{did_you_mean(value, ids) or _under(value, ids)}; "
        f"the section ids are listed in data/topics/{topic}.yaml"
    )


def _under(value: str, ids: list[str]) -> str:
    """`` (the ids starting 's1-3-': …)``: a section's number part written alone, as ``s1-3``."""
    below = [i for i in ids if i.startswith(value + "-")]
    if not below:
        return ""
    more = f", and {len(below) - 5} more" if len(below) > 5 else ""
    return f" (the ids starting '{value}-': {', '.join(below[:5])}{more})"


def unknown_paper(kb: KnowledgeBase, value: str) -> str:
    return (
        f"unknown paper '{value}': no data/papers/{value}.yaml{did_you_mean(value, kb.papers)}; "
        "a new paper gets its file with `kb new paper <arXiv id or slug>`"
    )


def unknown_topic(kb: KnowledgeBase, value: str) -> str:
    return (
        f"unknown topic '{value}'{did_you_mean(value, kb.topics)}; "
        f"expected one of: {', '.join(kb.topics) or 'none'} (data/topics/<id>.yaml)"
    )


def topics(kb: KnowledgeBase, dup_sections: list[tuple[str, Section, KeyPath]]) -> list[Diagnostic]:
    out = []
    for tid, section, keypath in dup_sections:
        out.append(
            diag(
                kb,
                "topic",
                tid,
                keypath,
                f"duplicate section id '{section.id}': section ids must be "
                "unique within a topic (they are the anchors of the living document)",
                "duplicate-section",
            )
        )
    for tid in kb.topics:
        for info in kb.sections[tid].values():
            ib = info.section.introduced_by
            if ib and ib not in kb.briefs and ib.rsplit("/", 1)[-1] not in kb.failed.get("briefs", ()):
                out.append(
                    diag(
                        kb,
                        "topic",
                        tid,
                        ("sections",),
                        f"section '{info.id}' is introduced_by unknown brief '{ib}'{did_you_mean(ib, kb.briefs)}",
                        "unknown-brief",
                    )
                )
        for ui, update in enumerate(kb.topics[tid].updates):
            for li, label in enumerate(update.labels):
                for pj, pid in enumerate(label.papers):
                    if pid not in kb.papers and pid not in kb.failed.get("papers", ()):
                        out.append(
                            diag(
                                kb,
                                "topic",
                                tid,
                                ("updates", ui, "labels", li, "papers", pj),
                                unknown_paper(kb, pid),
                                "unknown-paper",
                            )
                        )
    return out


def demos(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    for did, demo in kb.demos.items():
        for i, p in enumerate(demo.papers):
            if p not in kb.papers and p not in kb.failed.get("papers", ()):
                out.append(diag(kb, "demo", did, ("papers", i), unknown_paper(kb, p), "unknown-paper"))
        for i, s in enumerate(demo.sections):
            if kb.find_section(s) is None and not kb.failed.get("topics"):
                ids = [sid for secs in kb.sections.values() for sid in secs]
                out.append(
                    diag(
                        kb,
                        "demo",
                        did,
                        ("sections", i),
                        f"unknown section '{s}'{did_you_mean(s, ids)}",
                        "unknown-section",
                    )
                )
    return out


def briefs(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    topic_claims = {topic: set(kb.claims.ids(topic)) for topic in kb.topics}  # once per topic, not per brief
    for key, brief in kb.briefs.items():
        if brief.topic not in kb.topics:
            if brief.topic not in kb.failed.get("topics", ()):
                out.append(diag(kb, "brief", key, ("topic",), unknown_topic(kb, brief.topic), "unknown-topic"))
            continue
        claim_ids = topic_claims[brief.topic]
        for keypath, kind, value in brief_refs(brief):
            if kind == "section" and kb.section(brief.topic, value) is None:
                out.append(diag(kb, "brief", key, keypath, unknown_section(kb, brief.topic, value), "unknown-section"))
            elif kind == "paper" and value not in kb.papers and value not in kb.failed.get("papers", ()):
                out.append(diag(kb, "brief", key, keypath, unknown_paper(kb, value), "unknown-paper"))
            elif kind == "claim" and value not in claim_ids and not kb.claims_held:
                out.append(
                    diag(
                        kb,
                        "brief",
                        key,
                        keypath,
                        f"unknown claim '{value}'{did_you_mean(value, claim_ids)}: "
                        "name a claim raised in this brief's `claims:` or an earlier brief of the topic",
                        "unknown-claim",
                    )
                )
    return out


class _Raw:
    """A brief's data as written, read the way :func:`brief_refs` reads a record: a key as an
    attribute, a list or text as it is, a missing key or a value of no such kind as nothing."""

    __slots__ = ("_data",)

    def __init__(self, data: dict[str, object]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> object:
        value = self._data.get(name)
        if isinstance(value, list):
            return [_Raw(v) if isinstance(v, dict) else v for v in value]
        if isinstance(value, dict):
            return _Raw(value)
        return value if isinstance(value, str) else ()


def _written(data: object, keypath: KeyPath) -> object:
    """The value at ``keypath`` in ``data``, reached through mappings and lists only (else None)."""
    for part in keypath:
        if isinstance(part, int):
            if not isinstance(data, list) or not 0 <= part < len(data):
                return None
            data = data[part]
        elif isinstance(data, dict) and part in data:
            data = data[part]
        else:
            return None
    return data


def unchecked_briefs(kb: KnowledgeBase) -> list[Diagnostic]:
    """The papers and sections named by briefs that are no valid record (a mistyped key, a value of
    the wrong kind): reported with those mistakes, not after they are fixed.  Only what is written
    where a brief names one is read, and nothing the schema already refused at that place."""
    out = []
    for key, src in kb.unchecked.items():
        data = src.located.data
        if not isinstance(data, dict):
            continue
        topic = data.get("topic") if isinstance(data.get("topic"), str) else key.partition("/")[0]
        if topic not in kb.topics:
            continue
        refused = {d.key for d in kb.diagnostics if d.path == src.path}
        found: list[tuple[KeyPath, str, str]] = []
        try:
            found.extend(brief_refs(cast(Brief, _Raw(data))))
        except (AttributeError, TypeError):  # an item that is no mapping: what was read before it stands
            pass
        for keypath, kind, value in found:
            written = _written(data, keypath)  # `anchored_in: [<id>]` is located by its key, as `anchored_in: <id>`
            shown = format_keypath(keypath)  # `anchored_in: <id>` is refused as its list's item [0]
            if not isinstance(value, str) or written not in (value, [value]) or {shown, f"{shown}[0]"} & refused:
                continue
            if kind == "section" and kb.section(str(topic), value) is None:
                message, code = unknown_section(kb, str(topic), value), "unknown-section"
            elif kind == "paper" and value not in kb.papers and value not in kb.failed.get("papers", ()):
                message, code = unknown_paper(kb, value), "unknown-paper"
            else:  # a claim: may be raised by this brief, whose claims are not read
                continue
            line, col = src.located.value_where(keypath)
            out.append(Diagnostic(src.path, line, col, message, key=format_keypath(keypath), code=code))
    return out
