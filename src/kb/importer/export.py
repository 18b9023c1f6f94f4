"""A brief record back in the team's text format (``kb export brief KEY --text``).

What the author wrote is written back from the fields that hold it; a record written by hand
(no ``status_lines``, ``headings`` or ``baseline``) gets the team's usual wording for them.
Importing the output gives the same record."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from kb.data.models import Brief
from kb.data.models.items import (
    ADJACENT_LABELS,
    LIGHTS,
    STATUS_LABELS,
    AdjacentItem,
    Candidate,
    CarriedEntry,
    Increment,
    Status,
)

# paper id -> (short name, arXiv id, title)
Lookup = Callable[[str], tuple[str, str | None, str | None]]
B = "  • "
NONE = "（本棒无）"
HEADINGS = {
    "sources": "一、本棒检查过的来源清单",
    "increments": "二、最重要的 {n} 条主增量",
    "adjacent": "三、{n} 条邻接预备",
    "claims": "四、值得警惕的矛盾或待核实说法",
    "citable": "五、可引用的 arXiv 号列表（{n} 件 · 本棒 NET-new）",
    "carried": "沿用件（已在 inference.md 或预备级）",
    "candidates": "其他条目（锚入与更新）",
    "summary": "六、本棒小结",
    "checked": "七、检查过的来源汇总",
}


def _md(d: dt.date) -> str:
    return f"{d.month}-{d.day}"


def _hm(t: dt.datetime) -> str:
    return t.strftime("%Y-%m-%d %H:%M")


def _p(text: str | None) -> str:
    return f"（{text}）" if text else ""


def header(b: Brief) -> list[str]:
    w, at = b.window, b.generated_at  # a reconstructed brief may record neither: its time zone alone
    line = f"实例：{b.instance} · {b.topic} 主题 {b.round} {b.round_name or ''}".rstrip()
    line += f" · cron {b.cron}" if b.cron else " ·"
    zone = f"{b.timezone_abbr or ''}（{b.timezone}）"
    line += f" 生成时间：{_hm(at)} {zone}" if at else f" 时区：{zone}"
    line += f" 窗口期：{_hm(w.start)} → {_hm(w.end)}{_p(w.note)}" if w else ""
    line += f" 基线活文档：{b.baseline}" if b.baseline else ""
    rebuilt = [f"重建：{b.reconstructed}"] if b.reconstructed else []  # what a reconstructed brief is from
    return [b.title or f"{b.topic} · {b.round} 简报（{b.date}）", "", line, *rebuilt]


def status(b: Brief) -> list[str]:
    if b.status_lines:
        return [B + x for x in b.status_lines]
    s, out = b.stated, []
    if s.increments is not None:
        inner = " + ".join(
            f"{n} 条{w}"
            for n, w in ((s.net_new, "NET-new"), (s.adjacent_ingested, "paper_card 邻接入库"))
            if n is not None
        )
        adj = f"+ {s.adjacent} 条邻接预备" if s.adjacent is not None else ""
        out.append(f"增量条数：{s.increments} 条主增量{_p(inner)}{adj}")
    if b.character:
        out.append(f'本棒性质："{b.character.title}"型棒 —— {b.character.text}')
    if s.arxiv_net_new is not None:
        out.append(f"涉及 arXiv 号：净增 {s.arxiv_net_new} 件")
    return [B + x for x in out]


def sources(b: Brief) -> list[str]:
    out: list[str] = []
    for i, g in enumerate(b.sources, start=1):
        when = f"{g.cards_window.start} → {g.cards_window.end}" if g.cards_window else g.time
        out += ["", f"1.{i} {g.title}{_p(when)}", ""]
        out += [B + x for x in g.findings]
        prefix = g.title.split(" ")[0] + "/" if g.title.startswith("inbox/") else "\0"
        for f in g.files:
            path = f.path[len(prefix) :] if f.path.startswith(prefix) else f.path
            if f.time and f.summary and not f.key:  # `08:40：…`, the file named by the source lists
                out.append(f"{B}{f.time}：{f.summary}")
                continue
            out.append(f"{B}{path} — " + (f"{f.key}：" if f.key else "") + (f.summary or ""))
        for c in g.cards:
            inner = f"主分类 {c.category}" + "".join(f" · 邻接 {a}" for a in c.adjacent) if c.category else c.note
            title = f" {c.title}" if c.title else ""
            out.append(f"{B}{c.number}-{(c.arxiv or '').replace('.', '-')}{title}{_p(inner)}")
        out += [B + x for x in g.tally]
    return out


def _increment(b: Brief, n: int, inc: Increment, where: Mapping[str, str]) -> list[str]:
    light = f"{LIGHTS[inc.light]} " if inc.light else ""
    at = inc.where or " + ".join(where.get(s, s) for s in inc.sections)  # as the summary table names them
    out = ["", f"增量 {n}【{at} · {b.date}】{light}{inc.title}", ""]
    if inc.sources:
        parts = []
        for s in inc.sources:
            card = s.path.startswith("paper_cards/") and s.path.endswith(".md")
            path = f"paper_card {s.path[12:-3]}" if card else s.path
            parts.append(path + _p(s.note) + (f" {s.section}" if s.section else ""))
        out.append(f"{B}来源：" + " + ".join(parts))
    for link in inc.links:
        text = f"{link.label}：{link.url}{_p(link.note)}"
        if link.joined and out[-1].startswith(B):
            out[-1] += "；" + text
        else:
            out.append(B + text)
    for label, value in (("会议", inc.venue), ("作者", inc.authors), ("可信度", inc.credibility_note)):
        out += [f"{B}{label}：{value}"] if value else []
    out += [f"{B}{d.label}：{d.text}" for d in inc.details]
    for group in inc.points:
        out += ["", f"{group.title or '要点'}：", ""] + [B + x for x in group.items]
    if inc.defects:
        numbered = " ".join(f"{i}. {d}" for i, d in enumerate(inc.defects, start=1))
        out.append(f"{B}核心缺陷{_p(inc.defects_source)}： {numbered}")
    if inc.relations:
        rels = " ".join(f"- {r.label}：{r.text}" if r.label else f"- {r.text}" for r in inc.relations)
        out += ["", f"与活文档现有脉络的关系： {rels}"]
    note = inc.status_note if inc.status_note else _sections(inc.anchored_in, where)
    tail = f" 状态：{STATUS_LABELS[inc.status]}{_p(_since(note, inc.anchored_since))}"
    if inc.suggested:
        sugg = "+ ".join(f"{s.label or where.get(s.section, s.section)}{_p(s.note)}" for s in inc.suggested)
        out += ["", f"建议归入节：{sugg}{tail}"]
    else:
        out += ["", tail.strip()]
    return out


def _adjacent(letter: str, a: AdjacentItem, lookup: Lookup) -> str:
    ids = [lookup(p)[1] for p in a.papers]
    arxiv = " + ".join(f"arXiv:{i}" for i in ids if i) or f"无{_p(a.source_note)}"
    inner = "；".join(x for x in (f"{a.priority} 待核实" if a.priority else "", a.relation or "") if x)
    return f"{letter} {a.title}：{a.text} {arxiv} {a.origin} 邻接{_p(inner)}"


def claims(b: Brief, titles: Mapping[str, str]) -> list[str]:
    out = []
    for n, c in enumerate(b.claims, start=1):
        points = " ".join(f"- {p}" for p in c.points)
        out.append(f"  {n}. {c.title}{_p(c.priority)}： {points}".rstrip())
    labels = {"resolved": "已核实", "updated": "有更新", "dropped": "已放弃"}
    for u in b.claim_updates:
        ref = titles.get(u.claim, u.claim) + (f" · {u.priority}" if u.priority else "")
        out.append(f"{B}{labels[u.action.value]}（{ref}）：{u.note}")
    return out


def _entry(paper: str, label: str | None, note: str | None, lookup: Lookup) -> str:
    short, arxiv, _ = lookup(paper)
    return B + (label or (f"{short} arXiv:{arxiv}" if arxiv else short)) + _p(note)


def summary(b: Brief, where: Mapping[str, str]) -> list[str]:
    out = ["", b.summary_text or "", "", "# 条目 分类 价值 状态"] if b.summary_text else ["", "# 条目 分类 价值 状态"]
    items: list[tuple[str, Increment | AdjacentItem]] = [(str(i), x) for i, x in enumerate(b.increments, start=1)]
    items += [(chr(65 + i), x) for i, x in enumerate(b.adjacent)]
    for k, x in items:
        if x.value:
            label = x.summary.label if x.summary else (x.label if isinstance(x, Increment) else x.title)
            cat = x.summary.category if x.summary else " + ".join(where.get(s, s) for s in x.sections)
            state = x.summary.status if x.summary else _state(x)
            out.append(f"{k} {label} {cat or '-'} {'⭐' * x.value} {state}".replace("  ", " "))
    c = b.comparison
    if c:
        counts = " + ".join(
            f"{n} 条{w}"
            for n, w in ((b.stated.previous_increments, "主增量"), (b.stated.previous_adjacent, "邻接预备"))
            if n is not None
        )
        prev = (c.previous_label or "").split(" ")[0] if c.previous_label else _md(b.date - dt.timedelta(days=1))
        parts = [f"- {prev} 增量：{c.previous_summary}"] if c.previous_summary else []
        parts += [f"- {_md(b.date)} 增量：{c.this_summary}"] if c.this_summary else []
        parts += ["- 本棒特征：" + " + ".join(c.features)] if c.features else []
        out += ["", f"与 {c.previous_label or ''}{_p(counts)}对照： " + " ".join(parts)]
    return out


def checked(b: Brief) -> list[str]:
    out: list[str] = []
    if b.checked is None:
        return out
    out += ["", "已检查 / 已纳入本棒", ""] + [f"{B}✅ {f.path}{_p(f.note)}" for f in b.checked.included]
    if b.checked.excluded or b.checked.excluded_label:
        out += ["", f"已检查 / 未纳入{_p(b.checked.excluded_label)}", ""]
        out += [f"{B}{f.path}{_p(f.note)}" for f in b.checked.excluded]
    return out


def export_text(
    b: Brief, lookup: Lookup, where: Mapping[str, str] | None = None, titles: Mapping[str, str] | None = None
) -> str:
    """``b`` as text; ``where``: section id -> how the text names it (``§1.(3) KV Cache``), for
    sections a hand-written record gives without the author's label; ``titles``: claim id -> title
    (a later brief names an earlier claim by its title)."""
    where = where or {}
    heads = {h.part: h.text for h in b.headings}

    def heading(part: str, n: int | None = None) -> list[str]:
        return ["", heads.get(part) or HEADINGS[part].format(n=n)] + (["", NONE] if part in heads and n == 0 else [])

    out = header(b) + ["", "状态", ""] + status(b)
    if b.sources or "sources" in heads:
        out += heading("sources", len(b.sources)) + sources(b)
    if b.increments or "increments" in heads:  # （本棒无） where a part the author wrote is empty
        out += heading("increments", len(b.increments))
        for n, inc in enumerate(b.increments, start=1):
            out += _increment(b, n, inc, where)
    if b.adjacent or "adjacent" in heads:
        letters = [_adjacent(chr(65 + i), a, lookup) for i, a in enumerate(b.adjacent)]
        out += heading("adjacent", len(b.adjacent)) + (["", "# 条目 arXiv 来源 状态", *letters] if letters else [])
    if b.claims or b.claim_updates or "claims" in heads:
        out += heading("claims", len(b.claims) + len(b.claim_updates)) + [""] + claims(b, titles or {})
    if b.citable or "citable" in heads:
        out += heading("citable", len(b.citable)) + [""]
        for n, c in enumerate(b.citable, start=1):
            short, arxiv, title = lookup(c.paper)
            out.append(f"  {n}. arXiv:{arxiv} — {c.title or title or short}{_p(c.note)}")
    if b.carried:
        out += (
            heading("carried")
            + [""]
            + [_entry(c.paper, c.label, _since(_noted(c, where), c.anchored_since), lookup) for c in b.carried]
        )
    if b.candidates:
        out += (
            heading("candidates")
            + [""]
            + [_entry(c.paper, None, _since(_noted(c, where), c.anchored_since), lookup) for c in b.candidates]
        )
    if b.increments or b.adjacent or b.comparison or b.summary_text:
        out += heading("summary") + summary(b, where)
    if b.checked:
        out += heading("checked") + checked(b)
    for block in b.unmapped:
        out += ["", *block.lines]
    out += ["", b.signature] if b.signature else []
    return "\n".join(out).replace("\n\n\n", "\n\n") + "\n"


def _state(x: Increment | AdjacentItem) -> str:
    if isinstance(x, Increment):
        return STATUS_LABELS[x.status]
    return f"{x.priority} 待核实" if x.priority else ADJACENT_LABELS[x.status]


def _sections(ids: list[str] | None, where: Mapping[str, str]) -> str | None:
    """``anchored_in`` as the text writes it (``§1.(1) 推理引擎 + §1.(2) 推理调度``), for the importer."""
    return " + ".join(where.get(s, s) for s in ids) if ids else None


def _noted(entry: CarriedEntry | Candidate, where: Mapping[str, str]) -> str | None:
    """An entry's note; typed as keys alone (``status: anchored, anchored_in: …``, no note), the
    status and sections in the words the importer reads them from (``已锚入 §1.(3) …``)."""
    if entry.note or entry.status is None:
        return entry.note
    return " ".join(x for x in (STATUS_LABELS[entry.status], _sections(entry.anchored_in, where)) if x)


def _since(note: str | None, since: dt.date | None) -> str | None:
    if since is None:
        return note
    return f"{note} · {_md(since)} 锚入" if note else f"{_md(since)} 锚入"


__all__ = ["Status", "export_text"]
