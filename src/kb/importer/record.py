"""A text brief to a brief record: the parts parsed, the summary table's rows joined to their
items, and every line accounted for — a line no field holds, or that the record cannot write
back (checked by exporting it), is kept verbatim under ``unmapped`` and reported."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from kb.data.models import Brief
from kb.importer import head, lists, sources, tables
from kb.importer.context import Context
from kb.importer.export import export_text
from kb.importer.increments import increments
from kb.importer.lines import HEADING, Logical, key, read
from kb.importer.parts import Part, split
from kb.importer.result import Miss
from kb.importer.sections import labels, section_of

EMPTY = re.compile(r"^[（(]\s*(?:本棒)?无\s*[）)]$")  # a part with nothing this round: （本棒无）


@dataclass
class Imported:
    brief: Brief
    data: dict[str, Any]
    misses: list[Miss] = field(default_factory=list)


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        out = {k: _clean(v) for k, v in value.items() if not k.startswith("_")}
        return {k: v for k, v in out.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def _parts(ctx: Context, parts: list[Part], rec: dict[str, Any], misses: list[Miss]) -> dict[str, Any]:
    """Parse each part into ``rec``; the summary rows are returned for joining."""
    order = sorted(parts, key=lambda p: p.kind != "citable")  # the citable list names new papers
    rows: dict[str, Any] = {}
    for part in order:
        k, lines = part.kind, [x for x in part.lines if not EMPTY.match(x.text)]
        if part.heading is not None and k not in ("comparison", "unknown"):
            rec["headings"].append({"part": k, "text": part.heading.text})
        if k == "sources":
            rec["sources"] = sources.sources(lines, misses)
        elif k == "checked":
            rec["checked"] = sources.checked(lines, misses)
        elif k == "increments":
            rec["increments"] = increments(ctx, lines, misses)
        elif k == "adjacent":
            rec["adjacent"] = tables.adjacent(ctx, lines, misses)
        elif k == "claims":
            rec["claims"], rec["claim_updates"] = lists.claims(ctx, lines, misses)
        elif k == "citable":
            rec["citable"] = lists.citable(ctx, lines, misses)
        elif k == "carried":
            rec["carried"] = lists.carried(ctx, lines, misses)
        elif k == "candidates":
            rec["candidates"] = lists.candidates(ctx, lines, misses)
        elif k == "summary":
            rec["summary_text"], rows = tables.summary(ctx, lines, misses)
        elif k == "comparison":
            rec["comparison"], figures = tables.comparison(
                ctx, [*([part.heading] if part.heading else []), *lines], misses
            )
            rec["stated"].update(figures)
        else:
            what = f"不认识的部分“{part.heading_text}”，整段原样保留"
            misses.extend(Miss(x, what) for x in [*([part.heading] if part.heading else []), *lines])
    return rows


def _join_rows(ctx: Context, rec: dict[str, Any], rows: dict[str, Any]) -> None:
    for n, inc in enumerate(rec.get("increments", []), start=1):
        row = rows.get(str(inc.get("_n", n)))
        if row:
            inc["summary"], inc["value"] = row["row"], row["value"]
            short = re.sub(r"\s+", " ", re.split(r"[（(]", row["row"]["label"])[0]).strip()  # a short name
            inc["label"] = short or inc["label"]
        if not inc["sections"]:
            inc["sections"] = list(dict.fromkeys(s["section"] for s in inc.get("suggested", [])))
    for item in rec.get("adjacent", []):
        row = rows.get(item["_letter"])
        if row:
            item["summary"], item["value"] = row["row"], row["value"]
            sec = section_of(ctx.topic, row["row"].get("category", ""))
            item.update({"sections": [sec]} if sec and "§" in row["row"].get("category", "") else {})
            warn = re.search(r"[（(](⚠️?[^）)]+)[）)]", row["row"].get("status", ""))
            item.update({"warning": warn.group(1)} if warn else {})
        if item.get("status") == "verify":
            item.update({"claim": c} if (c := _claim_for(item["title"], rec.get("claims", []))) else {})


def _claim_for(title: str, claims: list[dict[str, Any]]) -> str | None:
    scored = [(difflib.SequenceMatcher(None, key(title), key(c["title"])).ratio(), c["id"]) for c in claims]
    best = max(scored, default=(0.0, ""))
    return best[1] if best[0] >= 0.4 else None


def _timed_files(rec: dict[str, Any]) -> None:
    """``08:40：…`` under ``inbox/tom …``: the file of that time the source lists name (…T0840…)."""
    paths = [f["path"] for f in rec.get("checked", {}).get("included", [])]
    for group in rec.get("sources", []):
        who = re.match(r"(inbox/[\w-]+)\s", group["title"] + " ")
        found = []
        for text in group.get("findings", []):
            m = re.match(r"^(\d{1,2}):(\d{2})\s*[：:]\s*(.+)$", text)
            hits = [
                p
                for p in paths
                if m and who and p.startswith(who.group(1) + "/") and f"T{int(m.group(1)):02d}{m.group(2)}" in p
            ]
            found.append(
                {"path": hits[0], "time": f"{m.group(1)}:{m.group(2)}", "summary": m.group(3)}
                if m and len(hits) == 1
                else None
            )
        if found and all(found) and not group.get("files"):
            group["files"], group["findings"] = found, []


def _confirmed(ctx: Context, rec: dict[str, Any]) -> None:
    for group in rec.get("sources", []):
        pending = [p for text in group.get("findings", []) if "仍未锚入" in text for p in ctx.named(text)]
        group.update({"confirmed_pending": pending} if pending else {})


def parse(ctx: Context, text: str) -> tuple[dict[str, Any], list[Logical], list[Miss]]:
    lines = read(text)
    parts = split(lines)
    misses: list[Miss] = []
    rec: dict[str, Any] = head.header(parts.title, parts.header)
    ctx.date = dt.date.fromisoformat(rec["date"])
    character, stated, rec["status_lines"] = head.status(parts.status)
    rec.update({"character": character, "stated": stated, "headings": []})
    last = parts.parts[-1].lines if parts.parts and parts.parts[-1].lines else []
    signed = rf"^(?:(?:[—–]+|-{{2,}})\s*)?{re.escape(rec['instance'])}\s*·\s*\d{{4}}-\d{{2}}-\d{{2}}"  # —— Tom · …
    if last and re.match(signed, last[-1].text):
        rec["signature"] = last.pop().text  # the signature closes the brief
        rec["stated"].update(head.signature(rec["signature"]))
    rows = _parts(ctx, parts.parts, rec, misses)
    _join_rows(ctx, rec, rows)
    _timed_files(rec)
    _confirmed(ctx, rec)
    return rec, lines, misses


def _lookup(ctx: Context) -> Callable[[str], tuple[str, str | None, str | None]]:
    def lookup(pid: str) -> tuple[str, str | None, str | None]:
        short, arxiv = ctx.short_of(pid)
        p = ctx.papers.get(pid)
        return short, arxiv, (p.title if p else ctx.new[pid].title)

    return lookup


def _unmapped(misses: list[Miss], heads: dict[int, str]) -> list[dict[str, Any]]:
    out = []
    for m in sorted(misses, key=lambda m: m.line.first):
        part = max((n for n in heads if n <= m.line.first), default=None)
        text = m.line.text
        pieces = [text[i : i + 4000] for i in range(0, len(text), 4000)]  # a field holds 4,000 characters
        block = {"part": heads.get(part) if part else None, "line": m.line.first, "why": m.why, "lines": pieces}
        out.append(block)
    return out


def _unwritten(lines: list[Logical], header: list[Logical], exported: str) -> list[Logical]:
    """The lines the exported text does not hold.  A line of the body is compared whole (its key),
    or joined with the next one (建议归入节：… and 状态：… written on two lines, which the export writes
    as one); the title and header, which the export writes as one line, by their text found in the export."""
    written = {key(x) for x in exported.splitlines()}
    whole = key(exported)
    last = header[-1].first if header else 1
    keys = [key(x.text) for x in lines]
    joined = {i + d for i in range(len(lines) - 1) if keys[i] + keys[i + 1] in written for d in (0, 1)}
    kept = [
        x
        for i, x in enumerate(lines)
        if keys[i] not in written and i not in joined and not (x.first <= last and keys[i] in whole)
    ]
    return [x for x in kept if not tables.SEPARATOR.fullmatch(x.text)]  # a table's rule is formatting


class NotARecord(ValueError):
    """The text read, but what it says is no valid brief record: each problem with its line."""

    def __init__(self, problems: list[tuple[int, str]]):
        super().__init__("\n".join(f"line {n}: {why}" for n, why in problems))
        self.problems = problems


def _named(ctx: Context, item: Any) -> str | None:
    """Why an increment has no sections: its heading's reference (`【§1.(9) … · date】`) names none."""
    written = item.get("where") if isinstance(item, dict) else None
    if not written:
        return None
    known = labels(ctx.topic)
    close = difflib.get_close_matches(written, known.values(), n=1, cutoff=0.5)
    return (
        f"'{written}' names no section of topic '{ctx.topic.id}'"
        + (f" (did you mean '{close[0]}'?)" if close else "")
        + f"; write a section as the topic's data/topics/{ctx.topic.id}.yaml numbers it"
    )


def _validated(ctx: Context, rec: dict[str, Any], data: dict[str, Any]) -> Brief:
    try:
        return Brief.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc, node, line, parent = err["loc"], rec, 1, None
            for part in loc:  # the nearest item that knows its line
                parent, node = node, _child(node, part)
                line = node.get("_line", line) if isinstance(node, dict) else line
            where = ".".join(str(x) for x in loc)
            problems.append((line, f"{where}: {_named(ctx, parent if loc[-1] == 'sections' else None) or err['msg']}"))
        raise NotARecord(problems) from None


def _child(node: Any, part: int | str) -> Any:
    if isinstance(node, dict):
        return node.get(str(part))
    return node[part] if isinstance(node, list) and isinstance(part, int) and part < len(node) else None


def import_text(ctx: Context, text: str) -> Imported:
    """``text`` as a brief record; raises NotARecord when what it says is no valid record."""
    rec, lines, misses = parse(ctx, text)
    heads = {x.first: x.text for x in lines if HEADING.match(x.text) and not x.bullet}
    brief = _validated(ctx, rec, _clean({**rec, "unmapped": _unmapped(misses, heads)}))
    exported = export_text(brief, _lookup(ctx), labels(ctx.topic), ctx.claims)
    missed = {id(m.line) for m in misses}
    for x in _unwritten(lines, split(lines).header, exported):
        if id(x) not in missed:
            misses.append(Miss(x, "记录写不回这一行（导出时不同），原文保留"))
    data = _clean({**rec, "unmapped": _unmapped(misses, heads)})
    return Imported(_validated(ctx, rec, data), data, misses)
