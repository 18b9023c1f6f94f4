"""A paper's page: metadata, credibility, cards, key numbers, notes, anchors,
links out, BibTeX and backlinks (every mention in the data, with its sentence)."""

from __future__ import annotations

import html

from kb.knowledge.index import KnowledgeBase, paper_page
from kb.knowledge.mentions import Mention
from kb.knowledge.rules import submitted_mismatch
from kb.data.models import Paper
from kb.render.escape import md, md_link
from kb.render.links import Linker, section_label, text


def markdown(kb: KnowledgeBase, paper_id: str, bibtex: str | None = None, demos: str = "") -> str:
    p = kb.papers[paper_id]
    linker = Linker(paper_page(paper_id))
    out = [f"# {md(p.short)}"]
    if p.display_title != p.short:
        out.append(f"**{md(p.display_title)}**")
    out.append(_facts(kb, linker, p))
    mismatch = submitted_mismatch(p)
    if mismatch:
        out.append(f'!!! warning "日期与 arXiv 号不一致"\n    {md(mismatch)}')
    if p.key_numbers:
        out.append("## 关键数字 { #key-numbers }\n\n| 数字 | 含义 |\n|---|---|\n" +
                   "\n".join(f"| **{md(n.value)}** | {md(n.what)} |" for n in p.key_numbers))
    if p.notes:
        out.append("## 笔记 { #notes }\n\n" + "\n".join(f"- {text(kb, linker, n)}" for n in p.notes))
    if p.arxiv_meta and p.arxiv_meta.abstract:
        out.append("## 摘要（arXiv） { #abstract }\n\n" + text(kb, linker, p.arxiv_meta.abstract))
    out.append(_anchors(kb, linker, p))
    if demos:
        out.append(demos)
    out.append(_backlinks(kb, linker, p))
    if bibtex:
        # an HTML block with escaped text: no fence length can be outrun by backticks in a title
        out.append("## BibTeX { #bibtex }\n\n"
                   f'<pre class="kb-bibtex"><code class="language-bibtex">{html.escape(bibtex.strip())}</code></pre>')
    return "\n\n".join(x for x in out if x) + "\n"


def _facts(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    rows = []
    if p.arxiv:
        base = p.arxiv_base
        rows.append(f"- **arXiv**：{md(p.arxiv)} · {md_link('abs', f'https://arxiv.org/abs/{p.arxiv}')} · "
                    f"{md_link('pdf', f'https://arxiv.org/pdf/{p.arxiv}')}" + ("" if base == p.arxiv else f"（基础号 {md(base)}）"))
    authors = p.authors or (p.arxiv_meta.authors if p.arxiv_meta else [])
    if authors:
        rows.append("- **作者**：" + "、".join(md(a) for a in authors))
    if p.affiliations:
        rows.append("- **机构**：" + " + ".join(md(a) for a in p.affiliations))
    if p.authors_note:
        rows.append(f"- **作者备注**：{text(kb, linker, p.authors_note)}")
    if p.venue:
        detail = f"（{md(p.venue.detail)}）" if p.venue.detail else ""
        note = f" · {md(p.venue.note)}" if p.venue.note else ""
        rows.append(f"- **会议/期刊**：{md(p.venue.name)}{detail}{note}")
    if p.arxiv_meta and p.arxiv_meta.journal_ref:
        rows.append(f"- **Journal ref**：{md(p.arxiv_meta.journal_ref)}")
    dates = []
    if p.published:
        dates.append(f"发表 {md(p.published)}")
    if p.submitted:
        dates.append(f"v1 {p.submitted.isoformat()}")
    if p.arxiv_meta and p.arxiv_meta.updated:
        dates.append(f"arXiv 更新 {p.arxiv_meta.updated.isoformat()}")
    if dates:
        rows.append("- **日期**：" + " · ".join(dates))
    subjects = p.subjects or (p.arxiv_meta.categories if p.arxiv_meta else [])
    if subjects:
        rows.append("- **arXiv 分类**：" + "、".join(md(s) for s in subjects))
    if p.category:
        adj = ("；邻接 " + "、".join(md(a) for a in p.category.adjacent)) if p.category.adjacent else ""
        rows.append(f"- **主分类**：{md(p.category.primary)}{adj}")
    if p.credibility:
        reason = f"（{md(p.credibility.reason)}）" if p.credibility.reason else ""
        rows.append(f"- **可信度**：{p.credibility.label}{reason}")
    if p.cards:
        dup = "（同一 arXiv 号有多张卡：重复卡待清理）" if len(p.cards) > 1 else ""
        rows.append("- **paper_card**：" + "、".join(str(c) for c in p.cards) + dup)
    links = [(label, getattr(p.links, key)) for key, label in
             (("code", "代码"), ("html", "HTML"), ("pdf", "PDF"), ("proceedings", "会议论文"), ("blog", "博客"), ("other", "其他"))]
    links = [(label, u) for label, u in links if u]
    if p.arxiv_meta and p.arxiv_meta.doi:
        links.append(("DOI", f"https://doi.org/{p.arxiv_meta.doi}"))
    if links:
        rows.append("- **链接**：" + " · ".join(md_link(label, u) for label, u in links))
    return "\n".join(rows)


def _anchors(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    lines = ["## 在活文档中的位置 { #anchored }", ""]
    if not p.anchors:
        lines.append("尚未锚入任何活文档。")
        return "\n".join(lines)
    from kb.knowledge.index import section_anchor

    for a in p.anchors:
        topic = kb.topics.get(a.topic)
        if topic is None:
            continue
        where = section_label(kb, a.topic, a.section) if a.section else f"{topic.title}（未注明节）"
        anchor = section_anchor(a.section) if a.section else "unsectioned"
        note = f"；{md(a.note)}" if a.note else ""
        lines.append(f"- {linker.link(where, topic.page, anchor)}：自 {a.since.isoformat()} 起锚入{note}")
    return "\n".join(lines)


def _place_link(linker: Linker, m: Mention) -> str:
    return linker.link(m.place.label, m.place.page, m.place.anchor)


def _backlinks(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    mentions = kb.mentions_of(p.id)
    lines = [f"## 反向链接（{len(mentions)}） {{ #backlinks }}", ""]
    if not mentions:
        lines.append("还没有任何简报、条目或章节提到它。")
        return "\n".join(lines)
    lines += ['<div class="kb-backlinks" markdown>', "", "| 日期 | 位置 | 提及 |", "|---|---|---|"]
    # by date; within a day, in the order the parts appear on the page (collection order)
    for m in sorted(mentions, key=lambda m: m.place.date.isoformat() if m.place.date else ""):
        where = _place_link(linker, m)
        if m.place.brief:
            b = kb.briefs[m.place.brief]
            where = linker.link(f"{b.date.isoformat()} {b.round}", m.place.page) + " · " + where
        date = m.place.date.isoformat() if m.place.date else "—"
        lines.append(f"| {date} | {where} | {text(kb, linker, m.context)} |")
    lines += ["", "</div>"]
    return "\n".join(lines)
