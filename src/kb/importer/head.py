"""The title, the header (实例 / cron / 生成时间 / 窗口期 / 基线活文档), 状态 and the signature."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

from kb.importer.lines import Logical

C = r"\s*[：:]\s*"
L, R = "[（(]", "[）)]"
STAMP = r"(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})"
_HEADER = {
    "instance": rf"实例{C}(?P<instance>[^·]+?)\s*·\s*(?P<topic>\S+)\s*主题\s*"
    r"(?P<round>[A-Z][A-Z0-9]*)\s*(?P<round_name>[^·]*?)\s*(?:·|生成时间|$)",
    "cron": r"cron\s*[：:]?\s*(?P<cron>[0-9a-f-]{8,})",
    "generated": rf"生成时间{C}{STAMP}\s*(?P<abbr>[A-Z]{{2,5}})?\s*{L}(?P<tz>[A-Za-z_/+-]+){R}",
    "window": rf"窗口期{C}{STAMP}\s*(?:→|->|~|至)\s*{STAMP}\s*(?:{L}(?P<note>[^）)]*){R})?",
    "baseline": rf"基线活文档{C}(?P<baseline>.+?)\s*$",
}


class HeaderError(ValueError):
    """A header field that is missing or unreadable."""


def _at(date: str, time: str, zone: ZoneInfo) -> str:
    return dt.datetime.fromisoformat(f"{date}T{int(time[:-3]):02d}{time[-3:]}").replace(tzinfo=zone).isoformat()


def header(title: Logical | None, lines: list[Logical]) -> dict[str, Any]:
    text = " ".join(x.text for x in lines)
    found = {k: re.search(rx, text) for k, rx in _HEADER.items()}
    for k in ("instance", "generated", "window"):
        if found[k] is None:
            raise HeaderError(f"the header has no readable {k} ({_HEADER[k].split('{')[0][:6]}…)")
    ins, gen, win = found["instance"], found["generated"], found["window"]
    assert ins and gen and win
    zone = ZoneInfo(gen.group("tz"))
    out: dict[str, Any] = {
        "topic": ins.group("topic"),
        "date": gen.group(1),
        "round": ins.group("round"),
        "round_name": ins.group("round_name") or None,
        "title": title.text if title else None,
        "instance": ins.group("instance").strip(),
        "cron": found["cron"].group("cron") if found["cron"] else None,
        "generated_at": _at(gen.group(1), gen.group(2), zone),
        "timezone": gen.group("tz"),
        "timezone_abbr": gen.group("abbr"),
        "window": {
            "start": _at(win.group(1), win.group(2), zone),
            "end": _at(win.group(3), win.group(4), zone),
            "note": win.group("note"),
        },
        "baseline": found["baseline"].group("baseline") if found["baseline"] else None,
    }
    return out


def status(lines: list[Logical]) -> tuple[dict[str, Any], dict[str, int], list[str]]:
    """(character, stated figures, the 状态 lines as written)."""
    character: dict[str, Any] = {}
    stated: dict[str, int] = {}
    rest: list[str] = []
    for line in lines:
        m = re.match(rf"本棒性质{C}[\"“](?P<title>.+?)[\"”]\s*型棒\s*(?:——|--|—)\s*(?P<text>.+)$", line.text)
        if m and not character:
            character = {"title": m.group("title"), "text": m.group("text")}
        rest.append(line.text)
        stated.update(figures(line.text))
    return character, stated, rest


_FIGURES = {
    "increments": r"(\d+)\s*条主增量",
    "net_new": r"(\d+)\s*条\s*NET-new",
    "adjacent_ingested": r"(\d+)\s*条\s*(?:paper_card\s*)?邻接入库",
    "adjacent": r"(\d+)\s*条\s*邻接预备",
    "arxiv_net_new": r"净增\s*(\d+)\s*件",
    "carried_over": r"沿用\s*(\d+)\s*(?:件|条)",
}


def figures(text: str) -> dict[str, int]:
    return {k: int(m.group(1)) for k, rx in _FIGURES.items() if (m := re.search(rx, text))}


def signature(text: str) -> dict[str, Any]:
    """The figures a signature states: ``本棒检查 20+ 来源（a 3 件 + b 6 件）``."""
    out: dict[str, Any] = {}
    m = re.search(rf"检查\s*(\d+)\+?\s*(?:个)?来源\s*(?:{L}(?P<parts>[^）)]+){R})?", text)
    if m:
        out["sources_checked_min"] = int(m.group(1))
        parts = [re.fullmatch(r"\s*(.+?)\s+(\d+)\s*件\s*", p) for p in (m.group("parts") or "").split(" + ")]
        if parts and all(parts):
            out["sources_breakdown"] = [{"label": p.group(1), "count": int(p.group(2))} for p in parts if p]
    return out
