"""The catalogue's words around the pages: page descriptions, the theme's own pages, the header
search, the page scripts, feeds, charts and the kernel demos.  Part of :data:`kb.messages.UI`
(one catalogue; split only to keep each file small): use them through it."""

from __future__ import annotations

SITE: dict[str, str] = {
    "site.name": "LLM 推理知识库",
    # the generated pages' entries in the site's navigation (mkdocs.yml nav; kb.site.pages)
    "nav.page.briefs": "简报",
    "nav.page.papers": "论文",
    "nav.page.backlog": "待办",
    "nav.page.stats": "统计",  # llms.txt's title where mkdocs.yml names no site
    # page descriptions (meta description, Open Graph) and the theme's pages (overrides/*.html)
    "meta.increments": "主增量",
    "meta.briefs": "全部 {n} 期每日简报，按月分组、按日期倒序：每期的本棒性质、各条主增量和计数。",
    "meta.papers": "知识库中的全部 {n} 篇论文（及系统、基准）：会议、可信度、主分类、状态与首次出现，附 BibTeX。",
    "meta.backlog": "待办：仍为 NET-new 或待锚入的 {n} 条、还没有论文卡的 arXiv 号、待核实的说法和重复卡。",
    "meta.timeline": "{topic}各节的时间线：每节按日期列出锚入的论文与记录它的简报、仍在等待锚入的条目及其天数，附各节的增长图。",
    "meta.stats": "统计：每周各节的主增量与待锚入条目的天数分布（静态图表，附数据表），以及简报的订阅源。",
    "feeds.subscribe": "订阅",
    "feeds.item": "{title}：",  # a topic's feed links follow
    "feeds.subscribe_intro": "每个主题的简报都有 Atom 与 RSS 订阅源，每期简报一条：以本棒性质为题，正文列出各条主增量（链接到简报和论文页）和计数；每个主题的新论文另有一个订阅源，每篇论文在第一次被简报提到时出现。",
    "page.permalink": "本节的链接",  # the title of the ¶ link after every heading
    "page.not_found": "找不到这个页面",
    "page.not_found_intro": "这个地址没有页面：可能是链接写错了，或者页面已经改名。",
    "page.not_found_home": "回到首页",
    "page.not_found_search": "也可以用页面顶部的搜索框查找论文、简报或 arXiv 号。",
    # the header search (overrides/partials/search.html, docs/assets/kb-search.js, src/kb/site/search/__init__.py)
    "search.shortcut": "（/ 或 s）",
    "search.filter.type": "类型",  # also the Pagefind filter's name
    "search.filter.topic": "主题",
    "search.filter.type_label": "按类型筛选",
    "search.filter.topic_label": "按主题筛选",
    "search.filter.all": "全部",
    # words the page scripts show (docs/assets/*.js read them from the page: kb.messages.script_words)
    "js.search.unavailable": "搜索索引无法加载",
    "js.search.none": "没有找到结果",
    "js.search.found": "找到 {n} 个结果",  # also for 1: one wording for every count
    "js.search.filtered": "（已筛选：{filters}）",  # after the count while a filter is chosen
    "js.search.more": "显示更多结果（还有 {n} 个）",
    "js.search.unknown_id": "知识库中没有 arXiv:{id}",  # the meta line for an arXiv id no page holds
    "js.search.unknown_near": "知识库中没有 arXiv:{id}；下面是同月份、号码相近的论文",
    "js.search.unknown_link": "在 arXiv 上查看 arXiv:{id}",
    "js.search.unknown_type": "arXiv",
    "js.search.filter_option": "{value}（{n}）",
    "js.tables.filter": "筛选…",
    "js.tables.filter_label": "筛选表格",
    "js.tables.empty": "没有符合筛选条件的行。",
    "js.tables.shown": "显示 {shown} / {total} 行",
    "js.tables.sort": "按此列排序",
    "js.tables.sort_by": "排序",  # before the row of sort buttons a wide table shows on a phone
    "js.tables.wide": "表格较宽，可左右滑动查看全部列 →",
    "js.previews.button": "预览：{link}",
    "search.type.brief": "简报",  # a result's type, in the order the type filter lists them
    "search.type.paper": "论文",
    "search.type.living": "活文档",
    "search.type.timeline": "时间线",
    "search.type.backlog": "待办",
    "search.type.index": "索引",
    "search.type.home": "首页",
    "search.type.about": "说明",
    "search.date.living": "更新于 {date}",  # the living document's date in a result (a paper's: paper.published)
    # feeds (src/kb/render/feeds.py)
    "feeds.title": "{topic} · 简报",
    "feeds.counts": "主增量 {increments} 条 · NET-new {net_new} 条 · 邻接预备 {adjacent} 条 · 净增 arXiv 号 {arxiv} 个",
    "feeds.computed": "（计数由知识库计算）。",
    "feeds.computed_partial": "（计数由知识库计算；本期为重建，计数只是下限）。",
    "feeds.headline": "本棒性质：{title}。",
    "feeds.entry_title": "{date}：{headline}",
    "feeds.papers_title": "{topic} · 新论文",
    "feeds.paper_first": "首次出现：{date}，{brief}",
    "feeds.paper_credibility": "可信度 {label}",
    "feeds.increments": "主增量：{titles}。",
    # charts and the stats page (src/kb/render/charts.py)
    "charts.days": "{n} 天",
    "charts.days_range": "{low}–{high} 天",
    "charts.days_more": "{n} 天以上",
    "charts.axis_range": "{low}–{high}",  # a bar's label under the axis: short, so the chart fits a phone unscaled
    "charts.axis_more": "{n}+",
    "charts.axis_unit": "天",  # once, at the start of the axis
    "charts.cell_tip": "{section} · {week} 起一周：{n} 条主增量",
    "charts.increments_title": "{topic}：每周各节的主增量",
    "charts.bar_tip": "{bucket}：{n} 条",
    "charts.bar_names": "（{names}）",
    "charts.age_title": "{topic}：待锚入条目的天数分布",
    "charts.th_section": "节",
    "charts.th_week": "{week} 起",
    "charts.increments_table": "数据表：每周各节的主增量",
    "charts.th_days": "天数",
    "charts.th_count": "条数",
    "charts.th_items": "条目",
    "charts.age_table": "数据表：待锚入条目的天数分布",
    "charts.no_pending": "没有待锚入的条目。",
    "charts.age_intro": "截至 {date}（该主题最新一期简报的日期）共 {n} 条仍为 NET-new 或待锚入；天数从任何一期简报第一次提到它的那天算起。",
    "charts.title": "统计",
    "charts.intro": "下面的图表在构建网站时由数据生成（静态 SVG，不需要脚本，离线可看）；数字与简报页、待办页使用同一套计算。用电脑时把鼠标停在格子或柱子上可以看到明细；每张图下面也有展开即见的数据表，手机上请看它。",
    "charts.increments_heading": "每周各节的主增量",
    "charts.no_increments": "还没有主增量。",
    "charts.increments_intro": "每格是该周（周一起）各期简报中归入该节的主增量条数；一条增量归入几个节，就在每个节各计一次。",
    "charts.age_heading": "待锚入条目的天数",
    "charts.details": "逐条明细见{link}。",
    "charts.details_link": "待办",
    "charts.feeds": "订阅",
    "charts.feeds_intro": "每个主题的简报都有 Atom 与 RSS 订阅源，每期简报一条：计算出的计数、本棒性质和各条主增量的标题。",
    # the section timelines (src/kb/render/timeline.py)
    "timeline.title": "{topic}：各节时间线",
    "timeline.intro": "活文档{link}每一节怎样长成：哪天锚入了哪篇论文、由哪期简报记录，以及还在等待锚入该节的条目。同一篇论文在不同日期再次锚入同一节时每次各列一行；移到别的节时，两节各在其日期列出。日期是简报写明的锚入日期，未写明时是记录它的简报的日期。每节的图是锚入该节的论文的累计篇数，图下的表列出同样的数字。",
    "timeline.in_document": "活文档中的本节",
    "timeline.none": "{section}：还没有锚入的论文。",
    "timeline.summary": "{section}：{first} 至 {last} 共记录锚入 {n} 次，涉及 {papers} 篇论文。",
    "timeline.th_date": "日期",
    "timeline.th_brief": "记录简报",
    "timeline.th_paper": "论文",
    "timeline.th_total": "累计篇数",
    "timeline.pending": "仍在等待锚入本节的条目：",
    "timeline.pending_item": "{paper}：已等待 {days} 天（{date} 首次出现于{brief}）",
    "timeline.unsectioned": "未记录所在节的锚入",
    "timeline.chart_title": "{section}：锚入论文的累计篇数（{first} 至 {last}）",
    "timeline.point_tip": "{date}：累计 {n} 篇",
    # related papers and their graphs (src/kb/render/related.py)
    "related.heading": "相关论文",
    "related.intro": "简报里和本文放在一起的论文，按关联分数排列：同一条脉络关系提到 {relation} 分，同一条目 {item} 分，同一条待核实断言 {claim} 分，同属活文档一节 {section} 分（只加给已有别的关联的论文），同一期简报列出每期 {brief} 分（最多计 {cap} 期）。图与下面的列表内容相同。",
    "related.graph_title": "{paper} 的相关论文",
    "related.graph_desc": "中间是本文，四周是相关论文，连线越粗关联越强；下面的列表是同样的内容。",
    "related.node_tip": "{paper}（{n} 分）",
    "related.score": "{n} 分",
    "related.relation": "脉络关系 {where}",
    "related.item": "同一条目 {where}",
    "related.claim": "同一断言「{where}」",
    "related.section": "同一节 {where}",
    "related.brief": "同见于 {n} 期简报",
    "related.section_title": "{section}：论文之间的关系（{shown}/{total} 篇）",
    "related.section_desc": "连线表示两篇论文被同一条脉络关系、同一条目或同一条待核实断言放在一起，越粗关联越强；下面的列表是同样的内容。",
    # WebGPU kernel demos (src/kb/demos/render.py)
    "demos.softmax": "数值稳定的 softmax",
    "demos.rmsnorm": "RMSNorm",
    "demos.gemv": "GEMV（解码一步的矩阵-向量乘）",
    "demos.attention-decode": "解码注意力（KV Cache，可选 top-k 稀疏）",
    "demos.heading": "可运行的内核演示",
    "demos.intro": "以下演示在你的浏览器中用 WebGPU 运行 WGSL 内核，并与 JavaScript 的 CPU 参考实现逐元素对照；所有文件都来自本站，不访问网络。浏览器不支持 WebGPU 时只运行 CPU 参考实现。",
    "demos.kernel": "内核：{label}",
    "demos.loading": "正在载入演示…",
    "demos.noscript": "此演示需要启用 JavaScript。",
}
