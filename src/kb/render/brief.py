"""A brief's page, in the seed's order:

status · sources checked · main increments · adjacent prep items · claims to
verify · citable arXiv ids and carried-over items · summary table and comparison
with the previous brief · sources included / not included · signature.

Every figure comes from :mod:`kb.knowledge.figures`; every contributed string goes
through :mod:`kb.render.escape` (or :func:`kb.render.links.text`).
"""

from __future__ import annotations

from kb.knowledge.figures import BriefFigures, short_date
from kb.knowledge.index import KnowledgeBase, brief_page
from kb.data.models import ADJACENT_LABELS, CREDIBILITY_LABELS, LIGHTS, STATUS_LABELS, Brief, Increment, Status
from kb.render.escape import md, md_link
from kb.render.links import Linker, brief_link, brief_title, paper_link, section_label, section_link, text

CN_NUM = "一二三四五六七八九十"


def stars(value: int | None) -> str:
    return "⭐" * value if value else "—"


def _h(level: int, title: str, anchor: str) -> str:
    return f"{'#' * level} {title} {{ #{anchor} }}"


def _time(dt_value) -> str:
    return dt_value.strftime("%Y-%m-%d %H:%M")


def _papers_ids(kb: KnowledgeBase, linker: Linker, ids) -> str:
    parts = []
    for pid in ids:
        paper = kb.papers.get(pid)
        if paper is None:
            continue
        label = f"arXiv:{paper.arxiv}" if paper.arxiv else paper.short
        parts.append(paper_link(kb, linker, pid, label))
    return " + ".join(parts)


def markdown(kb: KnowledgeBase, key: str, page: str | None = None) -> str:
    """The brief's Markdown; links are made relative to ``page`` (default: the brief's own page),
    so the same brief can be embedded in any hand-written page."""
    brief = kb.briefs[key]
    f: BriefFigures = kb.figures[key]
    linker = Linker(page or brief_page(key))
    parts = [
        f"# {md(brief_title(kb, key))}",
        _meta(kb, linker, brief),
        _prev_next(kb, linker, f),
        _status(kb, linker, key, brief, f),
        _sources(kb, linker, brief, f),
        _increments(kb, linker, brief),
        _adjacent(kb, linker, brief),
        _claims(kb, linker, brief),
        _ids_and_carried(kb, linker, brief, f),
        _summary(kb, linker, key, brief, f),
        _source_lists(kb, linker, f),
        _signature(kb, linker, brief, f),
        _prev_next(kb, linker, f),
    ]
    return "\n\n".join(p for p in parts if p) + "\n"


def _meta(kb: KnowledgeBase, linker: Linker, b: Brief) -> str:
    tz = f" {md(b.timezone_abbr)}" if b.timezone_abbr else ""
    rows = [f"- **实例**：{md(b.instance)} · {md(b.topic)} 主题 {md(b.round)} {md(b.round_name or '')}".rstrip()]
    if b.cron:
        rows.append(f"- **cron**：{md(b.cron)}")
    rows.append(f"- **生成时间**：{md(_time(b.generated_at))}{tz}（{md(b.timezone)}）")
    note = f"（{md(b.window.note)}）" if b.window.note else ""
    rows.append(f"- **窗口期**：{md(_time(b.window.start))} → {md(_time(b.window.end))}{note}")
    if b.baseline:
        bl = b.baseline
        labels = "；".join(md(lb.text) for lb in bl.labels)
        approx = "约" if bl.citations_approx else ""
        rows.append(f"- **基线活文档**：{md(bl.document)}（{md(bl.updated.isoformat())} 更新标注：{labels}；引→{approx}{bl.citations} 条 arXiv）")
    if b.reconstructed:
        rows.append(f"\n!!! note \"重建的简报\"\n    {md(b.reconstructed)}")
    return "\n".join(rows)


def _prev_next(kb: KnowledgeBase, linker: Linker, f: BriefFigures) -> str:
    items = []
    if f.previous:
        items.append("← 上一期：" + brief_link(kb, linker, f.previous))
    if f.next:
        items.append("下一期：" + brief_link(kb, linker, f.next) + " →")
    if not items:
        return ""
    return '<div class="kb-prevnext" markdown>\n' + " · ".join(items) + "\n</div>"


def _disagreement_note(f: BriefFigures) -> str:
    if not f.disagreements:
        return ""
    lines = ['!!! warning "简报所写与计算结果不一致"',
             "    下列数字或说法与根据数据计算出的结果不符；页面上的计数一律以计算结果为准。", ""]
    for d in f.disagreements:
        lines.append(f"    - {md(d.message)}（原文：{md(d.stated)}；计算：{md(d.computed)}）")
    return "\n".join(lines)


def _status(kb: KnowledgeBase, linker: Linker, key: str, b: Brief, f: BriefFigures) -> str:
    ingest = f"（{f.net_new} 条 NET-new · {f.adjacent_ingested} 条 paper_card 邻接入库）" if f.increments else ""
    lines = [_h(2, "状态", "status"), ""]
    lines.append(f"- **增量条数**：{f.increments} 条主增量{ingest} + {f.adjacent} 条邻接预备供今晚活文档接力参考")
    if b.character:
        lines.append(f"- **本棒性质**：“{md(b.character.title)}”型棒 —— {text(kb, linker, b.character.text)}")
    if f.net_new_ids:
        ids = " + ".join(f"{paper_link(kb, linker, p, 'arXiv:' + kb.papers[p].arxiv_base)} {md(kb.papers[p].short)}" for p in f.net_new_papers)
        lines.append(f"- **涉及 arXiv 号**：净增 {len(f.net_new_ids)} 件（{ids}）")
    else:
        lines.append("- **涉及 arXiv 号**：净增 0 件")
    if f.carried:
        lines.append(f"- **沿用件**：{len(f.carried)} 件（其中 {len(f.carried_anchored)} 件已锚入），见 [沿用件](#carried)")
    note = _disagreement_note(f)
    return "\n".join(lines) + ("\n\n" + note if note else "")


def _sources(kb: KnowledgeBase, linker: Linker, b: Brief, f: BriefFigures) -> str:
    if not b.sources:
        return ""
    out = [_h(2, f"{CN_NUM[0]}、本棒检查过的来源清单", "sources")]
    for i, g in enumerate(b.sources, 1):
        when = f"（{md(g.time)}）" if g.time else ""
        out.append(_h(3, f"1.{i} {md(g.title)}{when}", f"src-{i}"))
        lines = [f"- {text(kb, linker, x)}" for x in g.findings]
        for fl in g.files:
            bits = [md(fl.path)]
            if fl.scope:
                bits.append(f"〔{md(fl.scope)}〕")
            if fl.time and not g.time:
                bits.append(f"（{md(fl.time)}）")
            elif fl.time and fl.time not in (g.time or ""):
                bits.append(f"（{md(fl.time)}）")
            desc = " — " + text(kb, linker, fl.summary) if fl.summary else ""
            keyed = f" · **{md(fl.key)}**" if fl.key else ""
            mark = "✅" if fl.included else "⬜"
            lines.append(f"- {mark} {' '.join(bits)}{keyed}{desc}")
        if g.cards:
            window = f"（{md(g.cards_window)}）" if g.cards_window else ""
            numbers = [c.number for c in g.cards]
            lines.append(f"- 新卡{window}：paper_card {min(numbers)}-{max(numbers)}，共 {len(g.cards)} 张")
            for c in g.cards:
                paper = kb.paper_for(c.arxiv) if c.arxiv else None
                title = c.title or (paper.short if paper else "")
                cat = paper.category.primary if paper and paper.category else c.category
                bits = [f"{c.number}"]
                if c.arxiv:
                    bits.append(text(kb, linker, c.arxiv))
                if title:
                    bits.append(paper_link(kb, linker, paper.id, title) if paper else md(title))
                extra = []
                if cat:
                    extra.append(f"主分类 {md(cat)}")
                if paper and paper.category and paper.category.adjacent:
                    extra.append("邻接 " + "、".join(md(a) for a in paper.category.adjacent))
                if c.ingested:
                    extra.append(f"{md(c.ingested)} 入库")
                if c.note:
                    extra.append(md(c.note))
                lines.append(f"    - {' · '.join(bits)}" + (f"（{' · '.join(extra)}）" if extra else ""))
            lines.append(f"- {md(b.topic)} 主分类新卡：{f.cards_in_topic} 件")
            if f.cards_adjacent:
                lines.append(f"- 邻接入库：{len(f.cards_adjacent)} 张（paper_card {'、'.join(str(n) for n in f.cards_adjacent)}）")
        if g.confirmed_pending:
            names = " / ".join(paper_link(kb, linker, p) for p in g.confirmed_pending if p in kb.papers)
            lines.append(f"- 本来源确认仍未锚入：{names}")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _paper_facts(kb: KnowledgeBase, linker: Linker, inc: Increment) -> list[str]:
    lines = []
    papers = [kb.papers[p] for p in inc.papers if p in kb.papers]
    multi = len(papers) > 1
    for p in papers:
        who = f"{paper_link(kb, linker, p.id)}：" if multi else ""
        if p.arxiv:
            lines.append(f"- **论文**：{paper_link(kb, linker, p.id, p.display_title)}（{text(kb, linker, 'arXiv:' + p.arxiv)}）")
        else:
            lines.append(f"- **论文**：{paper_link(kb, linker, p.id, p.display_title)}")
        if p.venue:
            detail = f"（{md(p.venue.detail)}）" if p.venue.detail else ""
            note = f" · {md(p.venue.note)}" if p.venue.note else ""
            lines.append(f"- **会议**：{who}{md(p.venue.name)}{detail}{note}")
        authors = "、".join(md(a) for a in p.authors)
        affs = " + ".join(md(a) for a in p.affiliations)
        if authors or affs:
            note = f"（{text(kb, linker, p.authors_note)}）" if p.authors_note else ""
            lines.append(f"- **作者**：{who}{authors}{' · ' if authors and affs else ''}{affs}{note}")
        if p.submitted or p.subjects:
            bits = ([f"v1 {p.submitted.isoformat()}"] if p.submitted else []) + [md(s) for s in p.subjects]
            lines.append(f"- **版本**：{who}{'，'.join(bits)}")
    creds = [p for p in papers if p.credibility]
    if creds:
        levels = {p.credibility.level for p in creds}
        if len(levels) == 1 and len(creds) == len(papers):
            head = creds[0].credibility.label
            reasons = "；".join(
                (f"{md(p.short)} = " if multi else "") + md(p.credibility.reason) for p in creds if p.credibility.reason)
            lines.append(f"- **可信度**：{head}（{reasons}）" if reasons else f"- **可信度**：{head}")
        else:
            lines.append("- **可信度**：" + "；".join(
                f"{md(p.short)} {p.credibility.label}" + (f"（{md(p.credibility.reason)}）" if p.credibility.reason else "")
                for p in creds))
    if inc.credibility_note:
        lines.append(f"- **可信度备注**：{md(inc.credibility_note)}")
    return lines


def _increments(kb: KnowledgeBase, linker: Linker, b: Brief) -> str:
    if not b.increments:
        return ""
    out = [_h(2, f"{CN_NUM[1]}、最重要的 {len(b.increments)} 条主增量", "increments")]
    for i, inc in enumerate(b.increments, 1):
        secs = " + ".join(md(section_label(kb, b.topic, s)) for s in inc.sections)
        light = f" {LIGHTS[inc.light]}" if inc.light else ""
        out.append(_h(3, f"增量 {i}【{secs} · {b.date.isoformat()}】{light} {md(inc.title)}", f"inc-{i}"))
        lines = []
        ids = _papers_ids(kb, linker, inc.papers)
        if ids:
            lines.append(f"- **arXiv**：{ids}")
        for s in inc.sources:
            sec = f" {md(s.section)}" if s.section else ""
            note = f"（{md(s.note)}）" if s.note else ""
            lines.append(f"- **来源**：{md(s.path)}{note}{sec}")
        for ln in inc.links:
            note = f"（{text(kb, linker, ln.note)}）" if ln.note else ""
            lines.append(f"- **{md(ln.label)}**：{md_link(ln.url, ln.url)}{note}")
        lines.extend(_paper_facts(kb, linker, inc))
        out.append("\n".join(lines))
        for g in inc.points:
            out.append(f"**{md(g.title) if g.title else '要点'}**：\n\n" + "\n".join(f"- {text(kb, linker, x)}" for x in g.items))
        kn = [(p, n) for p in inc.papers if p in kb.papers for n in kb.papers[p].key_numbers]
        if kn:
            multi = len({p for p, _ in kn}) > 1
            out.append("**关键数字**：\n\n" + "\n".join(
                f"- {(md(kb.papers[p].short) + ' · ') if multi else ''}**{md(n.value)}** {md(n.what)}" for p, n in kn))
        if inc.defects:
            src = f"（{md(inc.defects_source)}）" if inc.defects_source else ""
            out.append(f"**核心缺陷**{src}：\n\n" + "\n".join(f"{j}. {text(kb, linker, d)}" for j, d in enumerate(inc.defects, 1)))
        if inc.relations:
            rel = []
            for r in inc.relations:
                where = section_link(kb, linker, b.topic, r.section) + "：" if r.section else ""
                also = ""
                if r.papers:
                    also = "（相关：" + "、".join(paper_link(kb, linker, p) for p in r.papers if p in kb.papers) + "）"
                rel.append(f"- {where}{text(kb, linker, r.text)}{also}")
            out.append("**与活文档现有脉络的关系**：\n\n" + "\n".join(rel))
        tail = []
        if inc.suggested:
            sugg = " + ".join(
                section_link(kb, linker, b.topic, s.section) + (f"（{text(kb, linker, s.note)}）" if s.note else "")
                for s in inc.suggested)
            tail.append(f"- **建议归入节**：{sugg}")
        note = f"（{text(kb, linker, inc.status_note)}）" if inc.status_note else ""
        tail.append(f"- **状态**：<span class=\"kb-status kb-status-{inc.status.value}\">{STATUS_LABELS[inc.status]}</span>{note}")
        tail.append(f"- **价值**：{stars(inc.value)}")
        out.append("\n".join(tail))
    return "\n\n".join(out)


def _adjacent(kb: KnowledgeBase, linker: Linker, b: Brief) -> str:
    if not b.adjacent:
        return ""
    out = [_h(2, f"{CN_NUM[2]}、{len(b.adjacent)} 条邻接预备供今晚活文档接力参考", "adjacent")]
    rows = ["| # | 条目 | arXiv | 来源 | 状态 |", "|---|---|---|---|---|"]
    for i, a in enumerate(b.adjacent):
        letter = chr(ord("A") + i)
        ids = _papers_ids(kb, linker, a.papers)
        arxiv = ids or ("无" + (f"（{md(a.source_note)}）" if a.source_note else ""))
        status = (f"{md(a.priority)} " if a.priority else "") + ADJACENT_LABELS[a.status]
        rel = f"（{text(kb, linker, a.relation)}）" if a.relation else ""
        rows.append(
            f"| <span id=\"adj-{letter.lower()}\"></span>{letter} | **{md(a.title)}**：{text(kb, linker, a.text)} | {arxiv} "
            f"| {md(a.origin)} | {status}{rel} |")
    out.append("\n".join(rows))
    return "\n\n".join(out)


def _claims(kb: KnowledgeBase, linker: Linker, b: Brief) -> str:
    if not b.claims:
        return ""
    out = [_h(2, f"{CN_NUM[3]}、值得警惕的矛盾或待核实说法", "claims")]
    for i, c in enumerate(b.claims, 1):
        state = "（已核实）" if c.resolved else ""
        out.append(_h(3, f"{i}. {md(c.title)}{(' · ' + md(c.priority)) if c.priority else ''}{state}", f"claim-{i}"))
        lines = [f"- {text(kb, linker, p)}" for p in c.points]
        if c.papers:
            lines.append("- 相关论文：" + "、".join(paper_link(kb, linker, p) for p in c.papers if p in kb.papers))
        out.append("\n".join(lines))
    return "\n\n".join(out)


def _ids_and_carried(kb: KnowledgeBase, linker: Linker, b: Brief, f: BriefFigures) -> str:
    out = [_h(2, f"{CN_NUM[4]}、可引用的 arXiv 号列表（{len(f.net_new_ids)} 件 · 本棒 NET-new）", "arxiv-ids")]
    lines = []
    for i, pid in enumerate(f.net_new_papers, 1):
        p = kb.papers[pid]
        tags = []
        for inc in b.increments:
            if pid in inc.papers:
                tags = list(inc.tags)
        bits = [md(t) for t in tags]
        if p.venue:
            bits.append(md(p.venue.name))
        if p.published:
            bits.append(md(p.published))
        lines.append(f"{i}. {paper_link(kb, linker, pid, 'arXiv:' + p.arxiv_base)} — {md(p.display_title)}" + (f"（{' · '.join(bits)}）" if bits else ""))
    out.append("\n".join(lines) if lines else "本棒没有净增 arXiv 号。")
    if b.candidates:
        out.append(_h(3, f"候选（{len(b.candidates)} 件）", "candidates"))
        rows = []
        for c in b.candidates:
            p = kb.papers.get(c.paper)
            if p is None:
                continue
            ident = f" {paper_link(kb, linker, c.paper, 'arXiv:' + p.arxiv_base)}" if p.arxiv_base else ""
            note = f"（{text(kb, linker, c.note)}）" if c.note else ""
            rows.append(f"- {paper_link(kb, linker, c.paper)}{ident} · <span class=\"kb-status kb-status-{c.status.value}\">"
                        f"{STATUS_LABELS[c.status]}</span>{note}")
        out.append("\n".join(rows))
    out.append(_h(3, f"沿用件（{len(f.carried)} 件，其中 {len(f.carried_anchored)} 件已锚入）", "carried"))
    if f.carried:
        rows = []
        for c in f.carried:
            p = kb.papers[c.paper]
            name = paper_link(kb, linker, c.paper)
            ident = f" {paper_link(kb, linker, c.paper, 'arXiv:' + p.arxiv_base)}" if p.arxiv_base else ""
            venue = (f" {md(p.venue.name)}" + (f" {md(p.venue.note)}" if p.venue.note else "")) if p.venue else ""
            if c.status is Status.anchored:
                where = section_label(kb, b.topic, c.anchored_section) if c.anchored_section else "未注明节"
                state = f"已锚入（{md(where)} · {c.anchored_since.isoformat()}）"
            else:
                state = "待锚入"
            origin = brief_link(kb, linker, c.origin, c.origin_label)
            rows.append(f"- {name}{ident}{venue}（{origin} · {state}）")
        out.append("\n".join(rows))
    else:
        out.append("没有沿用件。")
    return "\n\n".join(out)


def _summary(kb: KnowledgeBase, linker: Linker, key: str, b: Brief, f: BriefFigures) -> str:
    out = [_h(2, f"{CN_NUM[5]}、本棒小结", "summary")]
    start, end = b.window.start, b.window.end
    out.append(
        f"{md(b.topic)} 主题 {start.month}-{start.day} {start.strftime('%H:%M')} → {end.month}-{end.day} {end.strftime('%H:%M')} "
        f"净增量 = {f.increments} 条主增量（{f.net_new} 条 NET-new + {f.adjacent_ingested} 条邻接入库）+ {f.adjacent} 条邻接预备")
    if f.rows:
        rows = ["| # | 条目 | 分类 | 价值 | 状态 |", "|---|---|---|---|---|"]
        for r in f.rows:
            tags = []
            item = b.increments[int(r.key) - 1] if r.key.isdigit() else None
            if item:
                tags = [md(t) for t in item.tags]
            ids = [kb.papers[p].arxiv_base for p in r.papers if p in kb.papers and kb.papers[p].arxiv_base]
            inner = " · ".join(tags + [text(kb, linker, f"arXiv:{i}") for i in ids]) if item else ""
            label = f"[{md(r.label)}](#{r.anchor})" + (f"（{inner}）" if inner else "")
            if r.sections:
                cat = " + ".join(section_link(kb, linker, b.topic, s) for s in dict.fromkeys(r.sections))
                if r.section_note:
                    cat += f"（{md(r.section_note)}）"
            else:
                cat = md(r.category or "—")
            note = f"；{md(r.note)}" if r.note else ""
            rows.append(f"| {r.key} | {label} | {cat} | {stars(r.value)} | {md(r.status)}{note} |")
        out.append("\n".join(rows))
    out.append(_comparison(kb, linker, key, b, f))
    return "\n\n".join(p for p in out if p)


def _comparison(kb: KnowledgeBase, linker: Linker, key: str, b: Brief, f: BriefFigures) -> str:
    lines = [_h(3, "与上一期对照", "comparison")]
    if f.previous is None:
        lines.append("这是该主题的第一期简报，没有可对照的上一期。")
        return "\n\n".join(lines)
    pf: BriefFigures = kb.figures[f.previous]
    prev = kb.briefs[f.previous]
    lines.append(f"与 {brief_link(kb, linker, f.previous)}（{pf.increments} 条主增量 + {pf.adjacent} 条邻接预备）对照：")
    table = ["| | 上一期 | 本期 | 变化 |", "|---|---|---|---|"]
    for label, a, c in (("主增量", pf.increments, f.increments), ("NET-new", pf.net_new, f.net_new),
                        ("邻接预备", pf.adjacent, f.adjacent), ("净增 arXiv 号", len(pf.net_new_ids), len(f.net_new_ids)),
                        ("沿用件", len(pf.carried), len(f.carried))):
        table.append(f"| {label} | {a} | {c} | {c - a:+d} |")
    lines.append("\n".join(table))
    prev_items = [f"{md(inc.label)}" for inc in prev.increments]
    now_items = [f"{md(inc.label)}" for inc in b.increments]
    bullets = []
    if b.comparison and b.comparison.previous_summary:
        bullets.append(f"- {short_date(prev.date)} 增量：{text(kb, linker, b.comparison.previous_summary)}")
    elif prev_items:
        bullets.append(f"- 上一期增量：{' / '.join(prev_items)}")
    if b.comparison and b.comparison.this_summary:
        bullets.append(f"- {short_date(b.date)} 增量：{text(kb, linker, b.comparison.this_summary)}")
    elif now_items:
        bullets.append(f"- 本期增量：{' / '.join(now_items)}")
    if b.comparison and b.comparison.features:
        bullets.append("- 本棒特征：" + " + ".join(md(x) for x in b.comparison.features))
    if bullets:
        lines.append("\n".join(bullets))
    return "\n\n".join(lines)


def _source_lists(kb: KnowledgeBase, linker: Linker, f: BriefFigures) -> str:
    if not (f.included or f.excluded):
        return ""
    out = [_h(2, f"{CN_NUM[6]}、检查过的来源汇总", "source-lists")]
    out.append(_h(3, f"已检查 / 已纳入本棒（{len(f.included)}）", "sources-included"))
    out.append("\n".join(
        f"- ✅ {md(s.path)}" + (f"（{text(kb, linker, s.reason)}）" if s.reason else "") for s in f.included) or "无")
    out.append(_h(3, f"已检查 / 未纳入（{len(f.excluded)}）", "sources-excluded"))
    out.append("\n".join(
        f"- {md(s.path)}" + (f"〔{md(s.scope)}〕" if s.scope else "") + (f"（{text(kb, linker, s.reason)}）" if s.reason else "")
        for s in f.excluded) or "无")
    return "\n\n".join(out)


def _signature(kb: KnowledgeBase, linker: Linker, b: Brief, f: BriefFigures) -> str:
    tz = f" {b.timezone_abbr}" if b.timezone_abbr else ""
    bits = [md(b.instance), md(_time(b.generated_at) + tz)]
    s = b.stated
    if s.sources_checked_min is not None or s.sources_breakdown:
        stated = f"{s.sources_checked_min}+" if s.sources_checked_min is not None else ""
        breakdown = " + ".join(f"{md(c.label)} {c.count} 件" for c in s.sources_breakdown)
        bits.append(f"本棒检查 {stated} 来源" + (f"（{breakdown}）" if breakdown else "") + f"；来源清单列出 {f.sources_checked} 个不同文件")
    else:
        bits.append(f"本棒检查 {f.sources_checked} 个来源文件")
    bits.append(f"{md(b.topic)} 主题 NET-new {f.net_new} 条 + 邻接入库 {f.adjacent_ingested} 条 + 邻接预备 {f.adjacent} 条")
    bits.append(f"涉及 arXiv 号 {len(f.net_new_ids)} 件（净增）")
    return _h(2, "签名", "signature") + "\n\n" + '<p class="kb-signature" markdown>' + " · ".join(bits) + "</p>"
