"""三、the adjacent items' table, 六、the summary table and its opening sentence, and the
comparison with the previous brief.  A table row is written with its cells separated by
spaces (as the team's chat pastes a table) or by ``|``."""

from __future__ import annotations

import re
from typing import Any

from kb.importer.context import Context
from kb.importer.lines import Logical
from kb.importer.result import Miss

L, R = "[（(]", "[）)]"
_ADJ = re.compile(
    rf"^(?P<letter>[A-Z])\s+(?P<title>.+?)\s*[：:]\s*(?P<text>.+?)\s+"
    rf"(?P<arxiv>无(?:{L}(?P<note>[^）)]*){R})?|arXiv\s*[:：]\s*\d{{4}}\.\d{{4,5}}(?:\s*\+\s*arXiv\s*[:：]\s*\d{{4}}\.\d{{4,5}})*)\s+"
    rf"(?P<origin>.+?)\s+(?P<status>邻接(?:{L}(?P<inner>.*){R})?)\s*$"
)
_STARS = re.compile(r"\s*(?P<stars>(?:[⭐★]\ufe0f?)+)\s*")
SEPARATOR = re.compile(r"[\s|:-]*-[\s|:-]*")  # a Markdown table's rule under its header
_ROW = re.compile(r"^(?P<key>\d+|[A-Z])\s+(?P<rest>.+)$")


def _cells(text: str) -> str:
    """A row written with ``|`` as the same row with spaces."""
    return " ".join(c.strip() for c in text.strip().strip("|").split("|")) if "|" in text else text


def adjacent(ctx: Context, lines: list[Logical], misses: list[Miss]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in lines:
        text = _cells(line.text)
        if re.match(r"^#\s", text) or SEPARATOR.fullmatch(line.text):
            continue
        m = _ADJ.match(text)
        if m is None:
            misses.append(Miss(line, "读不出邻接表的一行（字母 条目：说明 arXiv 来源 状态）"))
            continue
        item: dict[str, Any] = {
            "title": m.group("title"),
            "text": m.group("text"),
            "_letter": m.group("letter"),
            "_line": line.first,
        }
        ids = re.findall(r"\d{4}\.\d{4,5}", m.group("arxiv"))
        item["papers"] = [p for i in ids if (p := ctx.paper_for(i, i))]
        item.update({"source_note": m.group("note")} if m.group("note") else {})
        item["origin"] = m.group("origin")
        inner = m.group("inner") or ""
        pri = re.match(r"^(?P<p>P[0-3])\s*待核实\s*(?:[；;]\s*(?P<rest>.*))?$", inner)
        if pri:
            item.update({"status": "verify", "priority": pri.group("p")})
            inner = pri.group("rest") or ""
        item.update({"relation": inner} if inner else {})
        out.append(item)
    return out


def summary(ctx: Context, lines: list[Logical], misses: list[Miss]) -> tuple[str | None, dict[str, dict[str, Any]]]:
    """(the opening sentence, rows by item key: ``1``… for increments, ``A``… for adjacent items)."""
    opening: str | None = None
    rows: dict[str, dict[str, Any]] = {}
    for line in lines:
        text = _cells(line.text)
        if re.match(r"^#\s", text) or SEPARATOR.fullmatch(line.text):
            continue
        m, stars = _ROW.match(text), _STARS.search(text)
        if m and stars:
            head, status = text[m.end("key") : stars.start()].strip(), text[stars.end() :].strip()
            cat = (
                re.search(r"\s(§.+)$", head) or re.search(r"(?<=[）)])\s+(\S.*)$", head) or re.search(r"\s(\S+)$", head)
            )
            assert cat is not None
            row = {"label": head[: cat.start()].strip(), "category": cat.group(1).strip(), "status": status}
            rows[m.group("key")] = {
                "row": {k: v for k, v in row.items() if v},
                "value": len(re.findall("[⭐★]", stars.group("stars"))),
            }
        elif opening is None and not rows:
            opening = text
        else:
            misses.append(Miss(line, "读不出小结表的一行（编号 条目 分类 价值 状态）"))
    return opening, rows


def comparison(ctx: Context, lines: list[Logical], misses: list[Miss]) -> tuple[dict[str, Any], dict[str, int]]:
    out: dict[str, Any] = {}
    stated: dict[str, int] = {}
    text = " ".join(x.text for x in lines)
    m = re.match(rf"^与\s*(?P<label>.+?)\s*(?:{L}(?P<counts>[^）)]*){R})?\s*对照\s*[：:]\s*(?P<rest>.*)$", text)
    if m is None:
        misses.extend(Miss(x, "读不出与上一期的对照") for x in lines)
        return out, stated
    out["previous_label"] = m.group("label")
    counts = m.group("counts") or ""
    for k, rx in (("previous_increments", r"(\d+)\s*条主增量"), ("previous_adjacent", r"(\d+)\s*条邻接预备")):
        if c := re.search(rx, counts):
            stated[k] = int(c.group(1))
    for chunk in [c.strip() for c in re.split(r"(?:^|\s)-\s+", m.group("rest")) if c.strip()]:
        part = re.match(r"^(?P<what>\d{1,2}-\d{1,2}\s*增量|本棒特征)\s*[：:]\s*(?P<text>.+)$", chunk)
        if part is None:
            misses.extend(Miss(x, f"读不出对照中的“{chunk[:20]}”") for x in lines[:1])
        elif part.group("what") == "本棒特征":
            out["features"] = [
                f.strip() for f in re.split(r"\s*\+\s*(?![^（(]*[）)])", part.group("text")) if f.strip()
            ]
        else:
            this = re.sub(r"\s", "", part.group("what")).startswith(f"{ctx.date.month}-{ctx.date.day}增量")
            out["this_summary" if this else "previous_summary"] = part.group("text")
    return out, stated
