"""The backlog page: sortable, filterable tables (a small local script adds sorting).

Everything here comes from the history (:mod:`kb.knowledge.backlog`): pending
items with their first sighting (any brief, any kind of item) and age; open
claims once each, with the brief that raised them and every later update; ids
mentioned without a paper file; duplicate cards.
"""

from __future__ import annotations

from kb.data.models import CLAIM_ACTION_LABELS, STATUS_LABELS
from kb.knowledge.backlog import as_of, duplicate_cards, open_claims, pending_items
from kb.knowledge.claims import ClaimState
from kb.knowledge.index import KnowledgeBase, brief_page
from kb.render.escape import md
from kb.render.links import SIGHTING_LABELS, Linker, brief_link, paper_link, section_link, text

PAGE = "backlog.md"


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def _table(headers: list[str], rows: list[str], name: str) -> str:
    head = "| " + " | ".join(headers) + " |\n|" + "---|" * len(headers)
    return (f'<div class="kb-table" data-kb-table="{name}" markdown>\n\n' + head + "\n" + "\n".join(rows) + "\n\n</div>")


def _short_date(kb: KnowledgeBase, key: str) -> str:
    return kb.briefs[key].date.strftime("%m-%d")


def claim_history(kb: KnowledgeBase, linker: Linker, state: ClaimState) -> str:
    """Raised by, then every update (date, action, note, brief), for a table cell: a ``<details>``
    when there are updates."""
    raised = f"{state.date.isoformat()} 提出（{brief_link(kb, linker, state.brief, _short_date(kb, state.brief) + ' 简报')}）"
    if not state.events:
        return raised
    steps = [raised]
    for e in state.events:
        pri = f"，优先级改为 {md(e.update.priority)}" if e.update.priority else ""
        steps.append(f"{e.date.isoformat()} {CLAIM_ACTION_LABELS[e.update.action]}{pri}：{text(kb, linker, e.update.note)}"
                     f"（{brief_link(kb, linker, e.brief, _short_date(kb, e.brief) + ' 简报')}）")
    return f"<details><summary>{len(state.events)} 次更新</summary>{'<br>'.join(steps)}</details>"


def markdown(kb: KnowledgeBase) -> str:
    linker = Linker(PAGE)
    out = ["# 待办（Backlog）",
           "这里汇总仍在等待处理的条目：待锚入的论文、还没有论文卡的 arXiv 号、待核实的说法和重复卡。"
           "表格可点表头排序，可用上方输入框筛选（在浏览器里完成，不需要服务器）。"]
    for topic in kb.topics:
        items = pending_items(kb, topic)
        day = as_of(kb, topic)
        out.append(f"## {md(kb.topics[topic].title)}：待锚入 {{ #pending-{topic} }}")
        if day:
            out.append(f"截至 {day.isoformat()}（该主题最新一期简报的日期）共 {len(items)} 条；“首次出现”是任何一期简报"
                       "第一次提到它（主增量、邻接预备、候选、待核实说法、沿用件或可引用列表都算），“天数”从那天算起。")
        rows = []
        for it in items:
            p = kb.papers[it.paper]
            ident = text(kb, linker, "arXiv:" + p.arxiv_base) if p.arxiv_base else "—"
            cred = p.credibility.label if p.credibility else "—"
            secs = " + ".join(section_link(kb, linker, topic, s) for s in dict.fromkeys(it.sections)) or "—"
            first = (brief_link(kb, linker, it.first_brief, it.first_seen.isoformat())
                     + f" · {SIGHTING_LABELS.get(it.first_kind, it.first_kind)}")
            carried = "、".join(brief_link(kb, linker, k, _short_date(kb, k)) for k in it.briefs)
            rows.append(f"| {paper_link(kb, linker, it.paper)} | {ident} | {STATUS_LABELS[it.status]} | {first} "
                        f"| {it.age_days} | {stars(it.value)} | {cred} | {secs} | {carried} |")
        out.append(_table(["论文", "arXiv", "状态", "首次出现", "天数", "价值", "可信度", "建议归入节", "经手简报"], rows, f"pending-{topic}")
                   if rows else "没有待锚入的条目。")
    unknown = kb.unknown_ids()
    out.append("## 提到但还没有论文卡的 arXiv 号 { #cards-to-write }")
    rows = []
    for ident, mentions in unknown.items():
        places = []
        seen = set()
        for m in mentions:
            if (m.place.page, m.place.anchor) in seen:
                continue
            seen.add((m.place.page, m.place.anchor))
            label = (_short_date(kb, m.place.brief) + " " if m.place.brief else "") + m.place.label
            places.append(linker.link(label, m.place.page, m.place.anchor))
        first = min((m.place.date for m in mentions if m.place.date), default=None)
        rows.append(f"| {text(kb, linker, 'arXiv:' + ident)} | {first.isoformat() if first else '—'} | {len(mentions)} | {'；'.join(places)} |")
    out.append(_table(["arXiv", "首次提到", "提及次数", "提到的位置"], rows, "cards-to-write") if rows else "没有。")
    out.append("## 待核实的说法 { #claims }")
    claims = open_claims(kb)
    out.append(f"仍未核实的说法共 {len(claims)} 条，每条一行，按优先级排列；已核实或已放弃的不再列出。"
               "优先级取最近一次更新给出的；“历程”列出提出它的简报和之后每一次更新。")
    rows = []
    for oc in claims:
        pri = md(oc.priority) if oc.priority else "—"
        papers = "、".join(paper_link(kb, linker, p) for p in oc.claim.papers if p in kb.papers) or "—"
        rows.append(f"| {pri} | {linker.link(oc.claim.title, brief_page(oc.brief), f'claim-{oc.index}')} | {oc.date.isoformat()} "
                    f"| {papers} | {claim_history(kb, linker, oc)} |")
    out.append(_table(["优先级", "说法", "提出日期", "相关论文", "历程"], rows, "claims") if rows else "没有待核实的说法。")
    out.append("## 重复卡 { #duplicate-cards }")
    rows = []
    for d in duplicate_cards(kb):
        where = "论文文件" if d.where == "paper" else brief_link(kb, linker, d.where, kb.briefs[d.where].date.isoformat() + " 新卡清单")
        who = paper_link(kb, linker, d.paper) if d.paper else "—"
        ident = text(kb, linker, "arXiv:" + d.arxiv) if d.arxiv else "—"
        rows.append(f"| {ident} | {who} | {'、'.join(str(c) for c in d.cards)} | {where} |")
    out.append(_table(["arXiv", "论文", "卡号", "发现于"], rows, "duplicate-cards") if rows else "没有重复卡。")
    return "\n\n".join(out) + "\n"
