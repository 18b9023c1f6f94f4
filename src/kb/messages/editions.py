"""The catalogue's words on the pages the monthly editions add (:mod:`kb.editions`): the archive
banner on every frozen page, the page of changes between two editions, the root 404 page and the
version selector's name for the current site.  Part of :data:`kb.messages.UI` (one
catalogue; split only to keep each file small): use them through it."""

from __future__ import annotations

EDITIONS: dict[str, str] = {
    # the banner on a frozen page (kb.editions.freeze)
    "edition.archived": "{edition} 版（存档）",
    "edition.banner": "本页是 {edition} 版冻结时的样子。简报和论文页链接到{current}上的永久地址；{changes}。",
    "edition.current_site": "当前站点",
    "edition.changes_link": "与上一版相比的变化",
    # the page of changes (kb.editions.changes)
    "edition.changes_title": "{edition} 版的变化 - {site}",
    "edition.heading": "{edition} 版：{against}",
    "edition.against": "与 {previous} 版相比的变化",
    "edition.first": "第一个版本",
    "edition.first_intro": "这是第一个版本，没有可以比较的上一版。",
    "edition.home": "本版首页",
    "edition.name": "{edition} 版",
    "edition.briefs_added": "新增简报",
    "edition.briefs_removed": "不再存在的简报",
    "edition.papers_added": "新增论文",
    "edition.papers_removed": "不再存在的论文",
    "edition.none": "没有。",
    "edition.pages": "页面的变化",
    "edition.new_page": "（新页面）",
    "edition.page_changed": "（删去 {removed} 处，新增 {added} 处；{previous}）",
    "edition.previous_page": "上一版的这一页",
    "edition.page_gone": "（本版已没有这一页）",
    "edition.more_changes": "……另有 {n} 处改动未列出。",
    "edition.no_page_changes": "页面的文字没有变化。",
    # the version selector (kb.editions.layout; the root 404 page says page.not_found*)
    "edition.current_title": "最新",
}
