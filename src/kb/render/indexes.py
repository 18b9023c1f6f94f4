"""Index pages: briefs per topic by date, and all papers.  These go in the nav;
the thousands of pages they list do not."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase

from kb.render.escape import md
from kb.render.links import Linker, brief_link, paper_link, text

BRIEFS = "briefs/index.md"
PAPERS = "papers/index.md"


def briefs(kb: KnowledgeBase) -> str:
    linker = Linker(BRIEFS)
    out = ["# 简报", "每个主题的每日简报，按日期倒序。数字都是根据数据计算的。"]
    for topic, keys in kb.by_topic.items():
        title = kb.topics[topic].title if topic in kb.topics else topic
        out.append(f"## {md(title)} {{ #topic-{topic} }}")
        rows = ["| 日期 | 简报 | 主增量 | NET-new | 邻接预备 | 净增 arXiv | 沿用件 | 不一致 |", "|---|---|---|---|---|---|---|---|"]
        for key in reversed(keys):
            b, f = kb.briefs[key], kb.figures[key]
            warn = f"⚠️ {len(f.disagreements)}" if f.disagreements else "—"
            rows.append(f"| {b.date.isoformat()} | {brief_link(kb, linker, key, f'{b.round} · {b.instance}')} | {f.increments} | {f.net_new} "
                        f"| {f.adjacent} | {len(f.net_new_ids)} | {len(f.carried)} | {warn} |")
        out.append("\n".join(rows))
    return "\n\n".join(out) + "\n"


def papers(kb: KnowledgeBase) -> str:
    linker = Linker(PAPERS)
    out = ["# 论文", f"知识库中的全部 {len(kb.papers)} 篇论文（及系统、基准）。"
           "全部条目的 BibTeX：[下载 references.bib](../references.bib)；每篇论文页底部也有可复制的 BibTeX。"]
    rows = ["| 论文 | arXiv | 会议 | 可信度 | 主分类 | 锚入 | 提及 |", "|---|---|---|---|---|---|---|"]
    for pid, p in sorted(kb.papers.items(), key=lambda kv: kv[1].short.lower()):
        ident = text(kb, linker, "arXiv:" + p.arxiv_base) if p.arxiv_base else "—"
        anchored = "、".join(f"{md(a.topic)} {a.since.isoformat()}" for a in p.anchors) or "—"
        rows.append(f"| {paper_link(kb, linker, pid)} | {ident} | {md(p.venue.name) if p.venue else '—'} "
                    f"| {p.credibility.label if p.credibility else '—'} | {md(p.category.primary) if p.category else '—'} "
                    f"| {anchored} | {len(kb.mentions_of(pid))} |")
    out.append('<div class="kb-table" data-kb-table="papers" markdown>\n\n' + "\n".join(rows) + "\n\n</div>")
    return "\n\n".join(out) + "\n"


def latest_briefs(kb: KnowledgeBase, page: str, limit: int = 5) -> str:
    linker = Linker(page)
    keys = sorted(kb.briefs, key=lambda k: kb.briefs[k].date, reverse=True)[:limit]
    lines = []
    for key in keys:
        b, f = kb.briefs[key], kb.figures[key]
        lines.append(f"- {brief_link(kb, linker, key)}：{f.increments} 条主增量 · {len(f.net_new_ids)} 个净增 arXiv 号 · "
                     f"{len(f.carried)} 件沿用")
    return "\n".join(lines) or "还没有简报。"


