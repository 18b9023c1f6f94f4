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
    "zone": rf"时区{C}(?P<abbr>[A-Z]{{2,5}})?\s*{L}(?P<tz>[A-Za-z_/+-]+){R}",  # a brief without 生成时间
}
REBUILT = re.compile(rf"^重建{C}(?P<text>.+)$")  # a reconstructed brief's own line: what it was rebuilt from


class HeaderError(ValueError):
    """A header field that is missing or unreadable."""


def _at(date: str, time: str, zone: ZoneInfo) -> str:
    return dt.datetime.fromisoformat(f"{date}T{int(time[:-3]):02d}{time[-3:]}").replace(tzinfo=zone).isoformat()


def header(title: Logical | None, lines: list[Logical]) -> dict[str, Any]:
    """The header's fields.  A reconstructed brief (a ``重建：`` line) may lack 生成时间 and 窗口期, as
    its record does: its date is then the title's, its time zone the ``时区：`` one."""
    rebuilt = next((m.group("text") for x in lines if (m := REBUILT.match(x.text))), None)
    text = " ".join(x.text for x in lines if not REBUILT.match(x.text))
    found = {k: re.search(rx, text) for k, rx in _HEADER.items()}
    day = re.search(r"(\d{4}-\d{2}-\d{2})", title.text) if title and rebuilt else None
    found["zone"] = found["generated"] or found["zone"]
    for k in ("instance", "generated", "window") if rebuilt is None else ("instance", "zone"):
        if found[k] is None:
            raise HeaderError(f"the header has no readable {k} ({_HEADER[k].split('{')[0][:6]}…)")
    ins, gen, win, tz = found["instance"], found["generated"], found["window"], found["zone"]
    assert ins and tz
    if gen is None and day is None:
        raise HeaderError("a reconstructed brief without 生成时间 needs its date in the title (YYYY-MM-DD)")
    zone = ZoneInfo(tz.group("tz"))
    window = None
    if win:
        window = {"start": _at(win.group(1), win.group(2), zone), "end": _at(win.group(3), win.group(4), zone)}
        window["note"] = win.group("note")
    return {
        "topic": ins.group("topic"),
        "date": gen.group(1) if gen else day.group(1) if day else None,
        "round": ins.group("round"),
        "round_name": ins.group("round_name") or None,
        "title": title.text if title else None,
        "instance": ins.group("instance").strip(),
        "cron": found["cron"].group("cron") if found["cron"] else None,
        "generated_at": _at(gen.group(1), gen.group(2), zone) if gen else None,
        "timezone": tz.group("tz"),
        "timezone_abbr": tz.group("abbr"),
        "window": window,
        "baseline": found["baseline"].group("baseline") if found["baseline"] else None,
        "reconstructed": rebuilt,
    }


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
