"""The catalogue's words inside a brief page that join the author's figures and texts: the status
and summary lines, the comparison with the previous brief, the signature's checks, the source
groups and an imported brief's lines that fit no field; and the names of the places where a paper
is mentioned (a backlink's place).  Part of :data:`kb.messages.UI` (one catalogue; split
only to keep each file small): use them through it."""

from __future__ import annotations

BRIEF: dict[str, str] = {
    # parts, the day's anchorings, later words on a claim, a promoted item, reconstructed briefs
    "brief.part": "{num}、{title}",
    "brief.numerals": "一二三四五六七八九十",
    "brief.anchored_glance": "本棒锚入",
    "claim.later": "后来：",
    "claim.priority_change": "（{old} → {new}）",
    "status.first_as_main": "（首次作为主增量：此前只作为邻接预备出现）",
    "nav.no_earlier": "知识库里没有该主题更早的简报，无从对照。",
    "brief.baseline_anchored_min": "；截至上一期已锚入至少 {n} 篇（更早的简报有重建的）",
    "brief.baseline_anchored_unknown": "；截至上一期已锚入多少篇不明（更早的简报是重建的，没有记下锚入）",
    # the status section (kb.render.brief)
    "brief.character": "“{title}”型棒 —— {text}",
    "brief.baseline": "{doc}（{date} 更新标注：{labels}{citations}）",
    "brief.baseline_citations": "；引用{approx} {n} 条 arXiv",
    "brief.baseline_approx": "约",
    # the summary and the comparison with the previous brief
    "brief.summary_line": "{topic} 主题 {window}净增量 = {counts}",
    "brief.compared_with": "与 {brief}（{increments} 条主增量 + {adjacent} 条邻接预备）对照：",
    "compare.title": "计算所得对照（知识库根据数据计算）",
    "compare.increments": "主增量",
    "compare.net_new": "NET-new",
    "compare.adjacent": "邻接预备",
    "compare.arxiv": "净增 arXiv 号",
    "compare.carried": "沿用件",
    # the signature's checks: a stated figure, then the computed one
    "sigcheck.lead": "签名里的数字：",
    "sigcheck.net_new": "NET-new",
    "sigcheck.adjacent_ingested": "邻接入库",
    "sigcheck.adjacent": "邻接预备",
    "sigcheck.arxiv": "arXiv 号",
    "sigcheck.breakdown": "分项合计 {total}，",
    "sigcheck.sources": "来源 {stated}+：{breakdown}来源清单列出 {listed} 个不同文件",
    # main increments and the lists (kb.render.brief_items, kb.render.brief_lists)
    "brief.increment_heading": "增量 {n}【{where} · {date}】{light} {title}",
    "brief.increment_toc": "增量 {n} · {label}",  # its name in the table of contents
    "brief.candidates_count": "（{n} 件）",
    "brief.candidates_more": "……共 {n} 件",
    "check.computed_mark": "（计算）",
    # an imported text brief's lines that fit no field (kb.render.brief)
    "brief.unmapped": "原文（未归入字段）",
    "brief.unmapped_note": "以下几行是从文本简报导入时没有对应字段的原文，按作者所写保留。",
    "brief.unmapped_where": "原文第 {line} 行 · {part}",
    "brief.unmapped_no_part": "各部分之前",
    # the sources checked (kb.render.brief_sources)
    "sources.fold": "计算所得：{groups} 组来源 · 清单列出 {files} 个文件",
    "sources.card_category": "主分类 {category}",
    "sources.card_adjacent": "邻接 {topics}",
    "sources.card_ingested": "{ingested} 入库",
    "sources.cards": "新卡",
    "sources.cards_in_topic": "本主题主分类新卡",
    "sources.cards_adjacent": "邻接入库",
    "sources.check": "{checks}：{what}原文 {stated}{mark}",
    "sources.lists_fold": "已纳入 {included} · 未纳入 {excluded}",
    # where a mention stands (kb.knowledge.mentions: a backlink's place, the backlog's handled-by);
    # the candidates, carried-over, signature and status parts are named as elsewhere
    "place.adjacent": "邻接 {letter} · {title}",
    "place.claim": "待核实 {n} · {title}",
    "place.claim_update": "待核实更新 · {claim}",
    "place.source": "来源 1.{n} · {title}",
    "place.citable": "可引用的 arXiv 号",
    "place.summary": "小结与对照",
    "place.source_lists": "检查过的来源汇总",
    "place.paper": "论文 · {name}",
    "place.anchored_since": "锚入于 {date}",
    "place.anchored_by": "最迟于 {date} 已锚入",
}
