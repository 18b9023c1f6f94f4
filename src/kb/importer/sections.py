"""Section references as the team writes them (``§1.(1) 推理引擎 · Speculative Decoding``) to the
topic's section ids: the number picks the section, words of a sub-section's title refine it;
and the one place a text's anchoring becomes a record's (:func:`anchoring`)."""

from __future__ import annotations

import re
import unicodedata

from kb.data.models.topic import Section, Topic
from kb.importer.context import Context, walk

SECTION_REF = re.compile(r"§\s*(\d+(?:\s*\.\s*\(\s*\d+\s*\))?)")


def _tokens(text: str) -> set[str]:
    text = unicodedata.normalize("NFKC", text).lower()
    words = set(re.findall(r"[a-z][a-z0-9-]{2,}", text))
    han = re.findall(r"[\u4e00-\u9fff]+", text)
    return words | {run[i : i + 2] for run in han for i in range(len(run) - 1)}


def _by_number(topic: Topic, number: str) -> Section | None:
    number = re.sub(r"\s+", "", unicodedata.normalize("NFKC", number))
    return next((s for s in walk(topic.sections) if s.number and s.number.replace(" ", "") == number), None)


def section_of(topic: Topic, label: str) -> str | None:
    """The section a reference such as ``§1.(3) KV Cache 长上下文稀疏 attention 节`` names."""
    m = SECTION_REF.search(label)
    if m is None:
        words = _tokens(label)
        hit = [s for s in walk(topic.sections) if words & _tokens(s.title)]
        return hit[0].id if len(hit) == 1 else None
    parent = _by_number(topic, m.group(1))
    if parent is None:
        return None
    rest = label[m.end() :]
    rest = rest.replace(parent.title, " ")
    words = _tokens(rest) - _tokens(parent.title)
    scored = [(len(words & _tokens(f"{c.title} {c.title_en or ''}")), c.id) for c in parent.children]
    best = max(scored, default=(0, parent.id))
    return best[1] if best[0] > 0 else parent.id


def sections_of(topic: Topic, where: str) -> list[str]:
    """Every section of a ``§1.(1) … + §1.(2) …`` reference, in order, once each."""
    parts = re.split(r"\+(?=\s*§)", where)
    out = [section_of(topic, p) for p in parts]
    return list(dict.fromkeys(s for s in out if s))


def anchoring(ctx: Context, note: str, dated: bool = False) -> dict[str, str | list[str]]:
    """The anchoring a note such as ``已锚入 inference.md 头部 · 9-4 锚入`` or ``9-1 候选 · 待锚入``
    states: ``note`` (without the date), ``status`` (the last status word counts), ``anchored_in``
    (one section id, or a list for ``§1.(1) … + §1.(2) …``) and ``anchored_since``.  ``dated``: the
    entry is dated by its brief (an increment or a candidate, which the brief anchors), so a date
    that is the brief's own is not typed again: it stays in the note as written.  The one place
    text becomes an anchoring: adapt it here."""
    topic = ctx.topic
    out: dict[str, str | list[str]] = {"note": note}
    since = re.search(r"\s*·\s*(\d{1,2})-(\d{1,2})\s*锚入\s*$", note)
    day = ctx.day(int(since.group(1)), int(since.group(2))) if since else None
    if since and day:
        note = note[: since.start()]
        if not (dated and day == ctx.date):
            out = {"note": note, "anchored_since": day.isoformat()}
    words = {"已锚入": "anchored", "待锚入": "pending", "尚未锚入": "pending", "NET-new": "net-new"}
    found = [(m.start(), words[m.group(0)]) for m in re.finditer("|".join(words), note)]
    if not found:
        return out
    out["status"] = max(found)[1]
    if out["status"] == "anchored":
        tail = note[max(found)[0] + 3 :]
        secs = sections_of(topic, tail) if "§" in tail else [h] if (h := _head(topic, tail)) else []
        if secs:
            out["anchored_in"] = secs[0] if len(secs) == 1 else secs
    return out


def _head(topic: Topic, tail: str) -> str | None:
    words = _tokens(tail.replace(topic.document.rsplit("/", 1)[-1], ""))
    hit = [s.id for s in walk(topic.sections) if words and words <= _tokens(s.title)]
    return hit[0] if hit else None


def labels(topic: Topic) -> dict[str, str]:
    """Section id -> how a brief names it: ``§1.(3) KV Cache``, ``§1.(1) 推理引擎 · Speculative Decoding``."""
    out: dict[str, str] = {}

    def visit(sections: list[Section], parent: str | None) -> None:
        for s in sections:
            out[s.id] = f"§{s.number} {s.title}" if s.number else (f"{parent} · {s.title}" if parent else s.title)
            visit(s.children, out[s.id])

    visit(topic.sections, None)
    return out
