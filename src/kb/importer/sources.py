"""一、sources checked (groups of files, findings and new paper cards) and 七、the author's
lists of sources included / not included."""

from __future__ import annotations

import re
from typing import Any

from kb.importer.lines import GROUP, Logical
from kb.importer.result import Miss

L, R = "[（(]", "[）)]"
_PAREN = re.compile(rf"^(?P<title>.*?)\s*{L}(?P<inner>[^（）()]*){R}\s*$")
_FILE = re.compile(r"^(?P<path>[\w./@+-]+\.(?:md|txt|yaml))\s*(?:—|--|–|-|：|:)\s*(?P<rest>.+)$")
_KEY = re.compile(r"^(?P<key>本棒最关键源之\S)\s*[：:]\s*(?P<rest>.+)$")
_CARD = re.compile(
    rf"^(?P<n>\d{{3,5}})-(?P<a>\d{{4}})-(?P<b>\d{{4,5}})(?:\s+(?P<title>[^（(]+?))?\s*(?:{L}(?P<inner>.+){R})?$"
)
_RANGE = re.compile(r"^(\d{4}-\d{2}-\d{2})\s*(?:→|->|~|至)\s*(\d{4}-\d{2}-\d{2})$")
_TIME = re.compile(r"\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}")
_CHECK = re.compile(rf"^(?:✅|✔️?|☑️?)?\s*(?P<path>[^\s（(]+)\s*(?:{L}(?P<note>.+){R})?$")


def _group(title: str) -> dict[str, Any]:
    m = _PAREN.match(title)
    if m is None:
        return {"title": title}
    rng = _RANGE.match(m.group("inner"))
    if rng:
        label = re.search(r"近\s*\d+\s*日", m.group("title"))
        window = {"label": label.group(0) if label else m.group("title"), "start": rng.group(1), "end": rng.group(2)}
        return {"title": m.group("title"), "cards_window": window}
    if _TIME.search(m.group("inner")):
        return {"title": m.group("title"), "time": m.group("inner")}
    return {"title": title}


def _card(m: re.Match[str]) -> dict[str, Any]:
    card: dict[str, Any] = {"number": m.group("n"), "arxiv": f"{m.group('a')}.{m.group('b')}"}
    if m.group("title"):
        card["title"] = m.group("title").strip()
    inner = m.group("inner") or ""
    cat = re.fullmatch(r"主分类\s*(?P<cat>[a-z0-9-]+)(?:\s*·\s*邻接\s*(?P<adj>[a-z0-9-]+))?", inner.strip())
    if cat:
        card["category"] = cat.group("cat")
        if cat.group("adj"):
            card["adjacent"] = [cat.group("adj")]
    elif inner:
        card["note"] = inner
    return card


def _bullet(group: dict[str, Any], text: str) -> None:
    fm, cm = _FILE.match(text), _CARD.match(text)
    if cm:
        group.setdefault("cards", []).append(_card(cm))
    elif fm and not group.get("cards"):
        path = fm.group("path")
        who = re.match(r"(inbox/[\w-]+)", group["title"])
        entry: dict[str, Any] = {"path": f"{who.group(1)}/{path}" if who and "/" not in path else path}
        km = _KEY.match(fm.group("rest"))
        entry.update({"key": km.group("key"), "summary": km.group("rest")} if km else {"summary": fm.group("rest")})
        group.setdefault("files", []).append(entry)
    else:
        group.setdefault("tally" if group.get("cards") or group.get("files") else "findings", []).append(text)
        stated = group.setdefault("stated", {})
        for k, rx in (
            ("cards", r"(\d+)\s*张新卡"),
            ("cards_in_topic", r"主分类新卡\s*[：:]\s*(\d+)"),
            ("cards_adjacent", r"邻接入库\s*(\d+)\s*件"),
        ):
            if (m := re.search(rx, text)) and k not in stated:
                stated[k] = int(m.group(1))


def sources(lines: list[Logical], misses: list[Miss]) -> list[dict[str, Any]]:
    groups: list[dict[str, Any]] = []
    for line in lines:
        m = GROUP.match(line.text)
        if m and not line.bullet:
            groups.append(_group(m.group("title")))
        elif groups:
            _bullet(groups[-1], line.text)
        else:
            misses.append(Miss(line, "来源清单里，这一行前面没有 1.1 这样的小节标题"))
    for g in groups:
        if not g.get("stated"):
            g.pop("stated", None)
    return groups


def checked(lines: list[Logical], misses: list[Miss]) -> dict[str, Any]:
    out: dict[str, Any] = {"included": [], "excluded": []}
    where: str | None = None
    for line in lines:
        sub = re.match(rf"^已检查\s*/\s*(?P<what>已纳入|未纳入)[^（(]*(?:{L}(?P<label>.+){R})?\s*$", line.text)
        if sub and not line.bullet:
            where = "included" if sub.group("what") == "已纳入" else "excluded"
            if where == "excluded" and sub.group("label"):
                out["excluded_label"] = sub.group("label")
            continue
        m = _CHECK.match(line.text)
        if where is None or m is None or "/" not in m.group("path") and "." not in m.group("path"):
            misses.append(Miss(line, "来源汇总里读不出文件路径（应为 “✅ 路径（说明）”）"))
            continue
        out[where].append({"path": m.group("path"), **({"note": m.group("note")} if m.group("note") else {})})
    return out
