"""二、the main increments: heading, source, links, venue, authors, credibility, points,
defects, relations to the living document, suggested sections and status."""

from __future__ import annotations

import re
from typing import Any

from kb.importer.context import Context
from kb.importer.lines import Logical, tail_paren
from kb.importer.result import Miss
from kb.importer.sections import anchoring, section_of, sections_of

C = r"\s*[：:]\s*"
HEAD = re.compile(
    r"^增量\s*(?P<n>\d+)\s*[【\[](?P<where>.+?)\s*·\s*(?P<date>\d{4}-\d{2}-\d{2})\s*[】\]]\s*"
    r"(?P<light>🟢|🟡|🔴)?\s*(?P<title>.+)$"
)
LIGHTS = {"🟢": "green", "🟡": "yellow", "🔴": "red"}
STATUS = {"NET-new": "net-new", "待锚入": "pending", "已锚入": "anchored"}
_LINK = re.compile(
    r"(?P<label>[^：:；;]+?)\s*[：:]\s*(?P<url>https?://[^\s（()；;]+)\s*(?:[（(](?P<note>[^）)]+)[）)])?\s*"
)
_POINTS = re.compile(rf"^要点\s*(?:[（(](?P<t>.+)[）)])?{C}$")
_DEFECTS = re.compile(rf"^核心缺陷\s*(?:[（(](?P<src>.+?)[）)])?{C}(?P<rest>.*)$")
_RELATIONS = re.compile(rf"^与活文档现有脉络的关系{C}(?P<rest>.*)$")
_SUGGEST = re.compile(rf"^建议归入节{C}(?P<s>.+?)\s*(?:状态{C}(?P<status>.+))?$")
_STATUS = re.compile(rf"^状态{C}(?P<status>.+)$")
_STATE = re.compile(r"^(?P<w>NET-new|待锚入|已锚入)\s*(?:[（(](?P<note>.+)[）)])?\s*$")
_FIELDS = {"会议": "venue", "作者": "authors", "可信度": "credibility_note"}


def _sources(text: str) -> list[dict[str, Any]]:
    out = []
    for part in re.split(r"\s+\+\s+(?=\S*[/_])", text):
        card = re.fullmatch(r"paper_card\s+(\d+-\d{4}-\d{4,5})", part.strip())
        if card:
            out.append({"path": f"paper_cards/{card.group(1)}.md"})
            continue
        m = re.fullmatch(r"\s*(?P<path>[^\s（(]+?)\s*(?:[（(](?P<note>[^）)]+)[）)])?\s*(?P<section>§.*)?", part)
        if m is None:
            raise ValueError(part)
        d = {"path": m.group("path"), "section": m.group("section"), "note": m.group("note")}
        out.append({k: v.strip() for k, v in d.items() if v})
    return out


def _links(text: str) -> list[dict[str, Any]] | None:
    out: list[dict[str, Any]] = []
    for i, chunk in enumerate(re.split(r"\s*[；;]\s*(?=[^：:；;]+[：:]\s*https?://)", text)):
        m = _LINK.fullmatch(chunk)
        if m is None:
            return None
        link = {"label": m.group("label").strip(), "url": m.group("url")}
        link.update({"note": m.group("note")} if m.group("note") else {})
        out.append({**link, "joined": "true"} if i else link)
    return out


def _relations(ctx: Context, rest: str, own: list[str]) -> list[dict[str, Any]]:
    out = []
    for chunk in [c for c in re.split(r"(?:^|\s)-\s+", rest) if c.strip()]:
        m = re.match(r"^(?P<label>§[^：:]+?)\s*[：:]\s*(?P<text>.+)$", chunk.strip())
        rel: dict[str, Any] = {"text": (m.group("text") if m else chunk).strip()}
        if m:
            rel = {"section": section_of(ctx.topic, m.group("label")), "label": m.group("label"), **rel}
        papers = ctx.named(rel["text"], skip=tuple(own))
        rel.update({"papers": papers} if papers else {})
        rel.update({"origin": o} if (o := ctx.origin(rel["text"])) else {})
        out.append({k: v for k, v in rel.items() if v is not None})
    return out


def _suggested(ctx: Context, text: str) -> list[dict[str, Any]]:
    out = []
    for part in re.split(r"(?<=[）)])\s*\+\s*(?=§)", text):
        label, note = tail_paren(part.strip())
        sec = section_of(ctx.topic, label)
        if sec is None:
            raise ValueError(part)
        out.append({"section": sec, "label": label, **({"note": note} if note else {})})
    return out


def _status(ctx: Context, inc: dict[str, Any], text: str) -> bool:
    m = _STATE.match(text.strip())
    if m is None:
        return False
    inc["status"] = STATUS[m.group("w")]
    note = m.group("note")
    if inc["status"] == "anchored":  # where and since when, as a note states them
        found = anchoring(ctx, f"已锚入 {note or ''}", dated=True)
        note = found["note"][4:] or None
        inc.update({k: v for k, v in found.items() if k in ("anchored_in", "anchored_since")})
    inc.update({"status_note": note} if note else {})
    return True


def _line(ctx: Context, inc: dict[str, Any], line: Logical) -> str | None:
    """Put ``line`` into ``inc``; the reason when it does not fit."""
    text = line.text
    if m := _POINTS.match(text):
        inc.setdefault("points", []).append({"title": text.rstrip("：:").strip()} if m.group("t") else {})
    elif m := _DEFECTS.match(text):
        inc["defects"] = [d.strip() for d in re.split(r"(?:^|\s)\d+\.\s+", m.group("rest")) if d.strip()]
        inc.update({"defects_source": m.group("src")} if m.group("src") else {})
    elif m := _RELATIONS.match(text):
        inc["relations"] = _relations(ctx, m.group("rest"), inc["papers"])
    elif m := _SUGGEST.match(text):
        inc["suggested"] = _suggested(ctx, m.group("s"))
        if m.group("status") and not _status(ctx, inc, m.group("status")):
            return "读不出状态（应为 NET-new、待锚入或已锚入）"
    elif m := _STATUS.match(text):
        return None if _status(ctx, inc, m.group("status")) else "读不出状态（应为 NET-new、待锚入或已锚入）"
    elif inc.get("points") and line.bullet:
        inc["points"][-1].setdefault("items", []).append(text)
    else:
        return _meta(inc, text)
    return None


def _meta(inc: dict[str, Any], text: str) -> str | None:
    m = re.match(rf"^(?P<label>[^：:]{{1,20}}?){C}(?P<value>.+)$", text)
    if m is None:
        return "不是“标签：内容”的一行，也不在要点之下"
    label, value = m.group("label").strip().strip("*").strip(), m.group("value").strip()  # **作者**：… as 作者：…
    if label == "来源":
        inc["sources"] = _sources(value)
    elif label in _FIELDS:
        inc[_FIELDS[label]] = value
    elif (links := _links(text)) is not None:
        inc.setdefault("links", []).extend(links)
    else:
        inc.setdefault("details", []).append({"label": label, "text": value})
    return None


def increments(ctx: Context, lines: list[Logical], misses: list[Miss]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in lines:
        m = HEAD.match(line.text)
        if m and not line.bullet:
            title = m.group("title").strip()
            where = m.group("where").strip()
            inc: dict[str, Any] = {"sections": sections_of(ctx.topic, where), "where": where}
            inc.update({"light": LIGHTS[m.group("light")]} if m.group("light") else {})
            inc.update({"title": title, "label": re.split(r"[：:（(]", title)[0].strip() or title})
            inc["papers"] = ctx.named(title)
            inc["_n"], inc["_line"] = int(m.group("n")), line.first
            out.append(inc)
            continue
        try:
            why = _line(ctx, out[-1], line) if out else "增量部分里，这一行前面没有“增量 N【…】”标题"
        except ValueError as exc:
            why = f"读不出“{exc}”"
        if why:
            misses.append(Miss(line, why))
    return out
