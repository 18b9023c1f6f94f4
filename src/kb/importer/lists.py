"""四、claims to verify, 五、citable arXiv ids, and the carried-over list (沿用件)."""

from __future__ import annotations

import re
from typing import Any

from kb.importer.context import ARXIV, Context
from kb.importer.lines import Logical, tail_paren
from kb.importer.result import Miss
from kb.importer.sections import anchoring

L, R = "[（(]", "[）)]"
_CLAIM = re.compile(
    rf"^(?P<n>\d+)\s*[.．、)）]\s*(?P<title>.+?)(?:\s*{L}(?P<p>P[0-3])(?:\s*·\s*[^）)]*)?{R})?\s*[：:]\s*(?P<rest>.*)$"
)
_UPDATE = re.compile(
    rf"^(?P<action>已核实|有更新|已放弃)\s*{L}(?P<claim>.+?)(?:\s*·\s*(?P<p>P[0-3]))?{R}\s*[：:]\s*(?P<note>.+)$"
)
ACTIONS = {"已核实": "resolved", "有更新": "updated", "已放弃": "dropped"}
_CITABLE = re.compile(
    rf"^\d+\s*[.．、]\s*arXiv\s*[:：]\s*(?P<id>\d{{4}}\.\d{{4,5}})(?:v\d+)?\s*(?:—|--|-|：)\s*(?P<title>.+?)\s*(?:{L}(?P<note>[^（）()]+){R})?$"
)


def claims(ctx: Context, lines: list[Logical], misses: list[Miss]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    out: list[dict[str, Any]] = []
    updates: list[dict[str, Any]] = []
    taken: set[str] = set()
    for line in lines:
        if (u := _UPDATE.match(line.text)) is not None:
            if (cid := ctx.earlier_claim(u.group("claim"))) is None:
                misses.append(Miss(line, f"“{u.group('claim')}”对不上先前任何一条待核实说法：写它的 id 或它的标题"))
                continue
            up = {"claim": cid, "action": ACTIONS[u.group("action")], "note": u.group("note")}
            updates.append({**up, **({"priority": u.group("p")} if u.group("p") else {})})
            continue
        m = _CLAIM.match(line.text)
        if m and not line.bullet:
            papers = ctx.named(m.group("title"))
            cid = ctx.claim_id(m.group("title"), papers, taken)
            taken.add(cid)
            claim: dict[str, Any] = {"id": cid, "title": m.group("title"), "_n": int(m.group("n")), "_line": line.first}
            claim.update({"priority": m.group("p")} if m.group("p") else {})
            claim.update({"papers": papers} if papers else {})
            points = [p.strip() for p in re.split(r"(?:^|\s)-\s+", m.group("rest")) if p.strip()]
            claim.update({"points": points} if points else {})
            out.append(claim)
        elif out and line.bullet:
            out[-1].setdefault("points", []).append(line.text)
        else:
            misses.append(Miss(line, "读不出待核实说法（应为 “N. 标题： - 要点 - 要点”）"))
    return out, updates


def citable(ctx: Context, lines: list[Logical], misses: list[Miss]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for line in lines:
        m = _CITABLE.match(line.text)
        if m is None:
            misses.append(Miss(line, "读不出可引用的 arXiv 号（应为 “N. arXiv:号 — 标题（说明）”）"))
            continue
        title = m.group("title")
        short = re.split(r"\s*[:：]\s", title)[0].strip()
        paper = ctx.paper_for(m.group("id"), short, title)
        assert paper is not None
        entry = {"paper": paper, "title": title, **({"note": m.group("note")} if m.group("note") else {})}
        out.append(entry)
    return out


def carried(ctx: Context, lines: list[Logical], misses: list[Miss], dated: bool = False) -> list[dict[str, Any]]:
    """沿用件: each entry's paper, label and anchoring (``dated``: the brief's own date is implied,
    as for the candidates, which the brief anchors)."""
    out: list[dict[str, Any]] = []
    for line in lines:
        label, note = tail_paren(line.text)
        ids = ARXIV.findall(line.text)
        name = ARXIV.sub("", label).strip()
        paper = ctx.paper_for(ids[0] if ids else None, name)
        if paper is None:
            misses.append(Miss(line, "沿用件里认不出是哪篇论文（没有 arXiv 号，名字也不在知识库里）"))
            continue
        entry: dict[str, Any] = {"paper": paper}
        short, arxiv = ctx.short_of(paper)
        if label != (f"{short} arXiv:{arxiv}" if arxiv and ids else short):
            entry["label"] = label
        if note:
            entry.update(anchoring(ctx, note, dated))
            entry.update({"origin": o} if (o := ctx.origin(note)) else {})
        out.append(entry)
    return out


def candidates(ctx: Context, lines: list[Logical], misses: list[Miss]) -> list[dict[str, Any]]:
    """其他条目: further items this brief raises or updates, written as the carried-over list is."""
    keep = ("paper", "status", "note", "anchored_in", "anchored_since")
    return [{k: v for k, v in c.items() if k in keep} for c in carried(ctx, lines, misses, dated=True)]
