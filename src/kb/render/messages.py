"""Every piece of interface text readers see, in one catalogue (Chinese).

Renderers never write interface words inline: they ask :func:`t` for a message
by key, and findings are phrased by :func:`finding_text` from the finding's
``kind`` and ``params`` (the English message in :mod:`kb.knowledge.findings` is
for contributors).  An English site is a second catalogue, not a code change.
Templates use :meth:`str.format` fields; values are escaped by the caller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.render.messages_brief import BRIEF
from kb.render.messages_editions import EDITIONS
from kb.render.messages_site import SITE

if TYPE_CHECKING:  # the catalogue loads without the models (kb build's index step reads its names)
    from kb.knowledge.findings import Finding

UI: dict[str, str] = {
    # brief page: the lede
    "brief.glance": "今日要点",
    "brief.headline": "本棒性质",
    "brief.increments_glance": "主增量",
    "brief.adjacent_glance": "邻接预备",
    "brief.claims_glance": "待核实",
    "brief.more": "全文",
    "brief.meta": "本期信息",
    "brief.prev": "← 上一期",
    "brief.this": "本期简报",
    "brief.named": "{date} {round} 简报",
    "brief.next": "下一期 →",
    "brief.reconstructed": "重建的简报",
    "brief.baseline_computed": "（据活文档更新记录",
    "brief.baseline_anchored": "；截至上一期已锚入 {n} 篇",
    "brief.reconstructed_figures": "这一期是重建的：下面计算出的数字只是下限，原文的计数不明。",
    # brief page: sections, as in the original brief
    "brief.status": "状态",
    "brief.sources": "本棒检查过的来源清单",
    "brief.increments": "最重要的 {n} 条主增量",
    "brief.adjacent": "{n} 条邻接预备供今晚活文档接力参考",
    "brief.claims": "值得警惕的矛盾或待核实说法",
    "brief.citable": "可引用的 arXiv 号列表（{n} 件 · 本棒 NET-new）",
    "brief.carried": "沿用件（已在 inference.md 或预备级）",
    "brief.summary": "本棒小结",
    "brief.source_lists": "检查过的来源汇总",
    "brief.signature": "签名",
    "brief.checks": "核对",
    "brief.candidates": "候选",
    "brief.claim_updates": "对早先待核实说法的更新",
    # labels
    "label.instance": "实例",
    "label.cron": "cron",
    "label.generated": "生成时间",
    "label.window": "窗口期",
    "label.baseline": "基线活文档",
    "brief.process": "流程信息（任务编号、基线活文档）",
    "label.count": "增量条数",
    "label.character": "本棒性质",
    "label.arxiv": "涉及 arXiv 号",
    "label.source": "来源",
    "label.venue": "会议",
    "label.authors": "作者",
    "label.credibility": "可信度",
    "label.credibility_note": "可信度备注",
    "label.version": "版本",
    "label.paper": "论文",
    "label.points": "要点",
    "label.key_numbers": "关键数字",
    "label.defects": "核心缺陷",
    "label.relations": "与活文档现有脉络的关系",
    "label.suggested": "建议归入节",
    "label.sections": "所属章节",
    "label.status": "状态",
    "label.value": "价值",
    "label.related": "相关论文",
    "label.editor_note": "编者注",
    "label.included": "已检查 / 已纳入本棒",
    "label.excluded": "已检查 / 未纳入",
    "label.cards": "新卡",
    "label.comparison": "与上一期对照",
    "label.features": "本棒特征",
    "label.increments_of": "{date} 增量",
    "label.none": "无",
    "label.confirmed_pending": "本来源确认仍未锚入",
    # table heads
    "th.num": "#",
    "th.item": "条目",
    "th.arxiv": "arXiv",
    "th.origin": "来源",
    "th.status": "状态",
    "th.category": "分类",
    "th.value": "价值",
    "th.section": "节",
    "th.credibility": "可信度",
    "th.stated": "原文",
    "th.computed": "计算",
    "th.previous": "上一期",
    "th.this": "本期",
    # figures and checks
    "unit.increments": " 条主增量",
    "unit.net_new": " 条 NET-new",
    "unit.ingested": " 条 paper_card 邻接入库",
    "unit.ingested_short": " 条邻接入库",
    "unit.adjacent": " 条邻接预备供今晚活文档接力参考",
    "unit.arxiv": " 件",
    "fig.arxiv": "净增 ",
    "fig.carried": "{n} 件（其中 {anchored} 件已锚入）",
    "check.computed": "核对：计算得 {n}",
    "check.same": "与计算一致",
    "check.computed_only": "{n}（计算）",
    "check.computed_title": "原文没有写这个数，这是知识库根据数据计算的",
    "check.lower_bound": "≥{n}（下限）",
    "check.paper": "核对：论文页 {n} 条",
    "check.told": "据 {brief}{known}",
    "check.told_known": "；数据中列出 {n} 条",
    "check.told_title": "这一期是重建的，原文的计数没有留下：这是下一期简报说起这一期时给出的数字",
    "check.unknown": "？{unit}（不明）",
    "check.partial": "原文 {stated}；重建后仅知 {known} 条",
    "check.acknowledged": "已知悉",
    "check.open": "待处理",
    "check.intro_reconstructed": "这一期没有原文，上面是据后来的简报和来源整理出的部分；这里列出知识库根据数据计算、与这些记录不同或前后不一的地方，供读者自行判断。每条末尾的编号是给贡献者的：在简报文件里确认一条差异时写的就是它。",
    "check.intro": "原文的文字和数字照录在上面；这里列出知识库根据数据计算、与原文不同或原文前后不一的地方，供读者自行判断。每条末尾的编号是给贡献者的：在简报文件里确认一条差异时写的就是它。",
    "check.none": "没有发现原文与计算结果不一致的地方。",
    "computed.net_new_ids": "计算所得净增 arXiv 号",
    "computed.carried": "计算所得沿用件",
    "computed.carried_note": "上一期之后仍未锚入、本期没有再次提出的条目，由知识库根据历史计算。",
    "computed.citable": "计算所得：本期首次出现且有 arXiv 号的论文",
    "status.anchored_at": "已锚入（{section} · {date}）",
    "status.anchored_undated": "已锚入（{section} · 锚入日期未注明，最晚 {date}）",
    "status.pending": "待锚入",
    "status.unsectioned": "未注明节",
    "status.first_seen": "首见于 {brief}",
    "claim.raised": "{date} 提出",
    "claim.update": "{date} {action}：{note}",
    "claim.closed": "已于 {date} {action}",
    "nav.first_brief": "这是该主题的第一期简报，没有可对照的上一期。",
    "nav.sig_missing": "原文没有留下签名。",
    # paper page
    "paper.abstract": "摘要（arXiv）",
    "paper.key_numbers": "关键数字",
    "paper.th_number": "数字",
    "paper.th_meaning": "含义",
    "paper.notes": "笔记",
    "paper.base_id": "（基础号 {id}）",
    "paper.authors": "作者",
    "paper.affiliations": "机构",
    "paper.authors_note": "作者备注",
    "paper.year": "年份",
    "paper.kind": "类型",
    "paper.kind.system": "系统",
    "paper.kind.benchmark": "基准测试",
    "paper.kind.report": "报告",
    "paper.venue": "会议/期刊",
    "paper.published": "发表 {date}",
    "paper.arxiv_updated": "arXiv 更新 {date}",
    "paper.dates": "日期",
    "paper.subjects": "arXiv 分类",
    "paper.adjacent": "；邻接 {topics}",
    "paper.category": "主分类",
    "paper.credibility": "可信度",
    "paper.duplicate_cards": "（同一 arXiv 号有多张卡：重复卡待清理）",
    "paper.first_seen": "首次出现",
    "paper.first_seen_value": "{date} · {brief}（{kind}）",
    "paper.link_code": "代码",
    "paper.link_proceedings": "会议论文",
    "paper.link_blog": "博客",
    "paper.link_other": "其他",
    "paper.links": "链接",
    "paper.acknowledged": "已知悉：{reason}",
    "paper.check_date": "核对：日期与 arXiv 号不一致",
    "paper.check": "核对",
    "paper.anchored": "在活文档中的位置",
    "paper.anchored_unsectioned": "{topic}（未注明节）",
    "paper.never_seen": "尚未锚入任何活文档；还没有简报提到它。",
    "paper.not_anchored": "尚未锚入「{topic}」活文档，现为{status}。最近一次把它列为条目的简报：{brief}（只在正文里提到它的，见反向链接）。",
    "paper.in_prose_only": "「{topic}」活文档的正文提到了它（{places}），但还没有简报记录它的锚入。",
    "paper.backlinks": "反向链接（{n}）",
    "paper.no_backlinks": "还没有任何简报、条目或章节提到它。",
    "paper.th_date": "日期",
    "paper.th_place": "位置",
    "paper.th_mention": "提及",
    "paper.bib_incomplete": "BibTeX 条目不完整，暂不提供：缺{missing}。联网时运行 {command} 从 arXiv 补全，或在 {file} 里补写（{keys}）。",
    "paper.bib_missing.author": "作者",
    "paper.bib_missing.title": "完整标题（现在只有简称）",
    "paper.bib_missing.year": "年份",
    "paper.bib_key.author": "authors",
    "paper.bib_key.title": "title",
    "paper.bib_key.year": "published",
    # living document
    "living.new_route": "新路线 · {date}",
    "living.none_anchored": "还没有简报记录锚入本节的论文。",
    "living.anchored_here": "已锚入本节：",
    "living.anchored_below": "已锚入本节的子节：",
    "living.in_subsection": "（见 {sections}）",
    "living.pending_here": "待锚入本节：",
    "living.pending_item": "（首次出现 {date}，{brief} · {kind}；已 {days} 天）",
    "living.source_brief": "来源简报",
    "living.acknowledged": "（已知悉：{reason}）",
    "living.checks": "核对：{n} 条",
    "living.checks_open": "，其中 {n} 条待处理",
    "living.checks_all_acknowledged": "，均已知悉",
    "living.no_updates": "本文档的更新记录（updates:）还是空的。",
    "living.th_date": "日期",
    "living.th_labels": "更新标注",
    "living.th_papers": "标注提到的论文",
    "living.th_citations": "arXiv 引用",
    "living.approx": "约 ",
    "living.anchored_count": "简报登记锚入 {n} 篇（其中 {with_id} 篇有 arXiv 号）",
    "living.citations": "活文档最近一次记录引用数（{date}）：{approx}{n} 条 arXiv；{known}",
    "living.recorded_later": "；其中 {n} 篇是在这次引用数（{date}）之后才锚入的，引用数尚未更新",
    "living.derived_labels": "由简报的锚入推得：该日简报记录锚入的论文",
    "living.derived_via": "（{via} 记录锚入）",
    # backlog page
    "backlog.title": "待办（Backlog）",
    "backlog.intro": "这里汇总仍在等待处理的条目：待锚入的论文、还没有论文卡的 arXiv 号、待核实的说法和重复卡。表格可点表头排序，可用上方输入框筛选（在浏览器里完成，不需要服务器）。",
    "backlog.raised": "{date} 提出（{brief}）",
    "backlog.brief_of": "{date} 简报",
    "backlog.new_priority": "，优先级改为 {priority}",
    "backlog.update": "{date} {action}{priority}：{note}（{brief}）",
    "backlog.updates": "{n} 次更新",
    "backlog.pending": "{topic}：待锚入",
    "backlog.pending_intro": "截至 {date}（该主题最新一期简报的日期）共 {n} 条；“首次出现”是任何一期简报第一次提到它（主增量、邻接预备、候选、待核实说法、沿用件或可引用列表都算），“天数”从那天算起。",
    "backlog.no_pending": "没有待锚入的条目。",
    "backlog.cards_to_write": "提到但还没有论文卡的 arXiv 号",
    "backlog.none": "没有。",
    "backlog.claims": "待核实的说法",
    "backlog.claims_intro": "仍未核实的说法共 {n} 条，每条一行，按优先级排列；已核实或已放弃的不再列出。优先级取最近一次更新给出的；“历程”列出提出它的简报和之后每一次更新。",
    "backlog.no_claims": "没有待核实的说法。",
    "backlog.duplicates": "重复卡",
    "backlog.paper_file": "论文文件",
    "backlog.card_list": "{date} 新卡清单",
    "backlog.no_duplicates": "没有重复卡。",
    "backlog.th_paper": "论文",
    "backlog.th_arxiv": "arXiv",
    "backlog.th_status": "状态",
    "backlog.th_first_seen": "首次出现",
    "backlog.th_days": "天数",
    "backlog.th_value": "价值",
    "backlog.th_credibility": "可信度",
    "backlog.th_sections": "建议归入节",
    "backlog.th_briefs": "经手简报",
    "backlog.briefs_span": "{first} … {last}（共 {n} 期 · {all}）",
    "backlog.briefs_all": "全部",
    "backlog.th_first_mentioned": "首次提到",
    "backlog.th_mentions": "提及次数",
    "backlog.th_places": "提到的位置",
    "backlog.th_priority": "优先级",
    "backlog.th_claim": "说法",
    "backlog.th_raised": "提出日期",
    "backlog.th_papers": "相关论文",
    "backlog.th_history": "历程",
    "backlog.th_cards": "卡号",
    "backlog.th_found_in": "发现于",
    # links to other pages (kb.render.links)
    "link.brief_title": "{topic} · {round} 简报（{date}）",
    "link.anchored_on": "锚入于 {date}（{via} 记录）",
    "link.anchored_by": "锚入日期未注明，最晚 {date}（{via} 记录）",
    "sighting.increment": "主增量",  # what a brief named a paper as (kb.knowledge.history.SIGHTING_KINDS)
    "sighting.adjacent": "邻接预备",
    "sighting.candidate": "候选",
    "sighting.claim": "待核实说法",
    "sighting.carried": "沿用件",
    "sighting.citable": "可引用 arXiv 号",
    # index pages (briefs, papers, home)
    "index.pending": "待锚入",
    "index.anchored": "已锚入",
    "index.unseen": "简报未提及",
    "index.stated_computed": "{stated}（计算 {computed}）",
    "index.told": "{n}（据下一期）",
    "index.told_known": "{n}（据下一期；数据中列出 {known}）",
    "index.counts": "主增量 {increments} · NET-new {net_new} · 邻接预备 {adjacent} · 净增 arXiv 号 {arxiv} · 沿用件 {carried}",
    "index.checks_open": "⚠️ {n} 条待处理",
    "index.checks_acknowledged": "{n} 条已知悉",
    "index.briefs": "简报",
    "index.briefs_intro": "每个主题的每日简报，按月分组、按日期倒序：先是本棒性质（标题）和各条主增量，再是计数。计数照原文；原文没有写的由知识库根据数据计算；两者不同时括注计算值。重建的简报只给出下限（≥）。",
    "index.th_date": "日期",
    "index.th_brief": "简报",
    "index.th_news": "本棒性质与主增量",
    "index.th_counts": "计数",
    "index.th_checks": "核对",
    "index.reconstructed": "（重建）",
    "index.latest_by": "最晚 {date}",
    "index.papers": "论文",
    "index.bib_link": "下载 references.bib",
    "index.papers_intro": "知识库中的全部 {n} 篇论文（及系统、基准）。“状态”取各主题最新一期简报时的状态，已锚入的给出所在节与锚入日期（简报没有写明日期时，给出记录它的简报日期作为最晚日期）。全部可引用条目的 BibTeX：{bib}；这些论文的页面底部也有可复制的 BibTeX（缺作者、完整标题或年份的条目不生成，以免编造；页面会写明缺什么、怎样补全）。",
    "index.th_paper": "论文",
    "index.th_arxiv": "arXiv",
    "index.th_venue": "会议",
    "index.th_credibility": "可信度",
    "index.th_category": "主分类",
    "index.th_status": "状态",
    "index.th_first_seen": "首次出现",
    "index.th_mentions": "提及",
    "index.no_increments": "本期没有主增量。",
    "index.increments_unknown": "主增量不明：这一期是重建的。",
    "index.no_briefs": "还没有简报。",
    **BRIEF,  # the words joining a brief's figures and texts: kb.render.messages_brief
    **EDITIONS,  # the banner, the page of changes and the 404 page of the editions: kb.render.messages_editions
    **SITE,  # the theme, the search, the page scripts, feeds, charts and demos: kb.render.messages_site
}


def script_words() -> dict[str, object]:
    """The catalogue's words for the page scripts (``js.`` keys, without the prefix), and the terms
    the glossary defines and their other names, which the header search reads (kb-search.js)."""
    words: dict[str, object] = {key[3:]: text for key, text in UI.items() if key.startswith("js.")}
    words["search.terms"] = sorted(GLOSSARY)
    words["search.synonyms"] = [list(group) for group in SYNONYMS]
    return words


# Terms explained where a page first uses them (an <abbr> with this title; the 术语 page,
# docs/glossary.md, explains each at length).  Longer terms win over the shorter ones inside them.
GLOSSARY: dict[str, str] = {
    "NET-new": "净新增：任何一期简报里第一次出现的论文或 arXiv 号",
    "本棒性质": "这一期简报的标题：一句话说明这一期的主要内容",
    "本棒": "这一期简报（接力中的“这一棒”）",
    "主增量": "这一期最重要的新成果，写明归入活文档的哪一节",
    "待锚入": "已在简报里出现、还没有写进活文档的条目",
    "锚入": "写进活文档的某一节",
    "邻接预备": "与本主题相邻、供下一期或活文档接力参考的条目",
    "沿用件": "上一期留下、这一期继续跟踪的条目",
    "编者注": "编辑补充的说明，与简报原文分开",
    "🟢": "作者标的绿灯，照原文显示：在增量标题前是作者给这条增量的标记，不是可信度；写在可信度里时是可信度的一部分",
    "🟡": "作者标的黄灯，照原文显示：在增量标题前是作者给这条增量的标记，不是可信度；写在可信度里时是可信度的一部分",
    "⭐": "价值星级：星越多越重要",
}

# Other names of a term, in Chinese and English: a search for any of them finds the pages that
# write another (kb.site.search_words follows each name with the term's index word, which the
# header search asks for: kb-search-results.js).
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("KV Cache", "KV 缓存", "键值缓存"),
    ("NVIDIA", "英伟达"),
    ("prefill", "预填充"),
    ("long context", "长上下文"),
    ("serving", "推理服务"),
    ("sparse attention", "稀疏注意力"),
    ("Hugging Face", "HF"),
)

FINDINGS: dict[str, str] = {
    "stated/increments": "原文写 {stated} 条主增量；数据中列出 {computed} 条。",
    "stated/net_new": "原文写 {stated} 条 NET-new；按“首次出现且未锚入”计算，{computed} 条增量是 NET-new（第 {items} 条）。",
    "stated/adjacent_ingested": "原文写 {stated} 条 paper_card 邻接入库；按卡片记录，只有 {computed} 条增量的论文以其他主分类入库（第 {items} 条）。",
    "stated/adjacent": "原文写 {stated} 条邻接预备；数据中列出 {computed} 条。",
    "stated/arxiv_net_new": "原文写净增 {stated} 个 arXiv 号；按首次出现计算为 {computed} 个。",
    "stated/carried_over": "原文写 {stated} 件沿用件；按历史计算为 {computed} 件。",
    "stated/sources": "原文写检查了 {stated}+ 个来源；来源清单只列出 {computed} 个不同文件。",
    "stated/sources_breakdown": "原文写检查了 {stated}+ 个来源，签名里的分项合计 {total}；来源清单列出 {listed} 个不同文件。",
    "stated/previous": "原文说上一期有 {stated}；上一期的数据中是 {computed}。",
    "group/cards": "来源 1.{group} 写 {stated} 张新卡；卡片清单列出 {computed} 张。",
    "group/cards_in_topic": "来源 1.{group} 写本主题主分类新卡 {stated} 件；卡片清单中为 {computed} 件。",
    "group/cards_adjacent": "来源 1.{group} 写邻接入库 {stated} 件；卡片清单中为 {computed} 件（同号重复的卡只算一次：{repeats}）。",
    "range": "“{label}”指 {start} 到 {end}，按日历日含首尾是 {days} 天。",
    "citable/missing": "{paper} 在本期首次出现，但不在原文的可引用 arXiv 号列表里。",
    "citable/not-new": "{paper} 列为本期 NET-new，但它最早出现在{first}。",
    "carried/extra": "原文把 {paper} 列为沿用件，但按历史计算，上一期之后它不是仍待锚入的主增量或候选。",
    "carried/extra-adjacent": "原文把 {paper} 列为沿用件；它此前只在邻接条目中出现，邻接条目不计入沿用件（待办页按提出它的简报列出它）。",
    "carried/status": "原文说 {paper} {stated}；按历史计算为 {computed}。",
    "carried/missing": "原文的沿用件列表漏了 {n} 项上一期之后仍未锚入的条目：{papers}。",
    "status": "原文把 {paper} 标为 {stated}；按历史计算为 {computed}（最早出现在{first}）。",
    "confirmed-pending": "来源 1.{group} 说 {paper} 仍未锚入，但{anchor_brief}记录它已锚入。",
    "origin": "{paper} 在原文中被说成来自 {said} 的简报；按历史，它最早出现在{first}。",
    "origin/partial": "{paper} 在原文中被说成来自 {said} 的简报；那一期是重建的，无法核对（按已知历史，它最早出现在{first}）。",
    "category": "{paper} 在原文不同地方被归入不同分类：{categories}（论文记录的主分类：{primary}）。",
    "window": "窗口期注明“{note}”，但窗口实际长 {hours} 小时。",
    "submitted-vs-id": "v1 日期 {submitted} 不在其 arXiv 号 {arxiv} 所表示的月份（{month}）。",
    "update-label": "{date} 的更新标注“{label}”提到 {paper}，但到那天为止没有简报记录它已锚入。",
}

STATUS_WORDS = {"net-new": "NET-new", "pending": "待锚入", "anchored": "已锚入"}


def t(key: str, **params: object) -> str:
    """The interface message ``key`` with ``params`` filled in (plain text: escape it where it is placed)."""
    return UI[key].format(**params) if params else UI[key]


def t_html(key: str, **markup: str) -> str:
    """The interface message ``key`` as HTML: its own text escaped, ``markup`` (HTML already made:
    escaped text, links) put in as it is."""
    from kb.render.html import esc

    return esc(UI[key], strip=False).format(**markup)


def brief_words(key: str, this: str | None = None) -> str:
    """A brief named in a sentence, by its key (``inference/2026-09-01-e1``): 本期简报 for ``this``
    one, else its date and round (``2026-09-01 E1 简报``)."""
    if key == this:
        return UI["brief.this"]
    date, _, round_ = key.rsplit("/", 1)[-1].rpartition("-")
    return UI["brief.named"].format(date=date, round=round_.upper()) if date else key


def finding_text(finding: Finding, names: dict[str, str] | None = None) -> str:
    """A finding in the reader's language.  ``names`` maps paper ids to the names readers know
    (short names); statuses are shown with the site's words."""
    params = dict(finding.params)
    for k in ("paper",):
        if k in params and names:
            params[k] = names.get(params[k], params[k])
    if isinstance(params.get("papers"), str) and names:  # a "、"-joined list of paper ids
        params["papers"] = "、".join(names.get(pid, pid) for pid in params["papers"].split("、"))
    for k in ("first", "anchor_brief"):  # a brief's key: the brief in words (a date after Chinese: a space)
        if params.get(k):
            named = brief_words(params[k], finding.key if finding.owner == "brief" else None)
            params[k] = named if named == UI["brief.this"] else f" {named}"
    for k in ("stated", "computed"):
        if params.get(k) in STATUS_WORDS:
            params[k] = STATUS_WORDS[params[k]]
    kind = finding.kind
    if kind == "origin" and params.get("partial"):
        kind = "origin/partial"
    template = FINDINGS.get(kind)
    if template is None:
        return finding.message
    try:
        return template.format(**params)
    except (KeyError, IndexError):
        return finding.message
