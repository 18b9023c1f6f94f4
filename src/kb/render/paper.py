"""A paper's page: metadata (authors, affiliations, year, venue, abstract when
known), credibility, cards, key numbers, notes, the findings about its file,
where it is anchored (derived from the briefs), links out, BibTeX and backlinks
(every mention in the data, with its sentence)."""

from __future__ import annotations

import html

from kb.bib.fields import date_of
from kb.data import arxiv_id
from kb.data.models import STATUS_LABELS, Paper
from kb.knowledge.figures import paper_status
from kb.knowledge.index import KnowledgeBase, paper_page, section_anchor
from kb.knowledge.mentions import Mention
from kb.render.escape import md, md_link
from kb.render.links import SIGHTING_LABELS, Linker, anchor_text, brief_link, section_label, text
from kb.render.messages import finding_text, t


def markdown(kb: KnowledgeBase, paper_id: str, bibtex: str | None = None, demos: str = "") -> str:
    p = kb.papers[paper_id]
    linker = Linker(paper_page(paper_id))
    out = [f"# {md(p.short)}"]
    if p.display_title != p.short:
        out.append(f"**{md(p.display_title)}**")
    out.append(_facts(kb, linker, p))
    out.append(_findings(kb, linker, p))
    if p.arxiv_meta and p.arxiv_meta.abstract:
        out.append(f"## {t('paper.abstract')} {{ #abstract }}\n\n" + text(kb, linker, p.arxiv_meta.abstract))
    if p.key_numbers:
        out.append(
            f"## {t('paper.key_numbers')} {{ #key-numbers }}\n\n"
            f"| {t('paper.th_number')} | {t('paper.th_meaning')} |\n|---|---|\n"
            + "\n".join(f"| **{md(n.value)}** | {md(n.what)} |" for n in p.key_numbers)
        )
    if p.notes:
        out.append(f"## {t('paper.notes')} {{ #notes }}\n\n" + "\n".join(f"- {text(kb, linker, n)}" for n in p.notes))
    out.append(_anchors(kb, linker, p))
    if demos:
        out.append(demos)
    out.append(_backlinks(kb, linker, p))
    if bibtex:
        # an HTML block with escaped text: no fence length can be outrun by backticks in a title
        out.append(
            "## BibTeX { #bibtex }\n\n"
            f'<pre class="kb-bibtex"><code class="language-bibtex">{html.escape(bibtex.strip())}</code></pre>'
        )
    return "\n\n".join(x for x in out if x) + "\n"


def _facts(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    rows = []
    meta = p.arxiv_meta
    if p.arxiv:
        base = p.arxiv_base
        ident = arxiv_id.parse(p.arxiv)
        assert ident is not None  # the model refuses a malformed id
        rows.append(
            f"- **arXiv**：{md(p.arxiv)} · {md_link('abs', ident.abs_url)} · {md_link('pdf', ident.pdf_url)}"
            + ("" if base == p.arxiv else t("paper.base_id", id=md(base)))
        )
    authors = p.authors or (meta.authors if meta else [])
    if authors:
        rows.append(t("paper.fact", label=t("paper.authors")) + "、".join(md(a) for a in authors))
    if p.affiliations:
        rows.append(t("paper.fact", label=t("paper.affiliations")) + " + ".join(md(a) for a in p.affiliations))
    if p.authors_note:
        rows.append(t("paper.fact", label=t("paper.authors_note")) + text(kb, linker, p.authors_note))
    year, _ = date_of(p)
    if year:
        rows.append(t("paper.fact", label=t("paper.year")) + md(year))
    if p.venue:
        detail = f"（{md(p.venue.detail)}）" if p.venue.detail else ""
        note = f" · {md(p.venue.note)}" if p.venue.note else ""
        rows.append(t("paper.fact", label=t("paper.venue")) + f"{md(p.venue.name)}{detail}{note}")
    if meta and meta.journal_ref:
        rows.append(f"- **Journal ref**：{md(meta.journal_ref)}")
    dates = _dates(p)
    if dates:
        rows.append(t("paper.fact", label=t("paper.dates")) + " · ".join(dates))
    subjects = p.subjects or (meta.categories if meta else [])
    if subjects:
        rows.append(t("paper.fact", label=t("paper.subjects")) + "、".join(md(s) for s in subjects))
    if p.category:
        adj = t("paper.adjacent", topics="、".join(md(a) for a in p.category.adjacent)) if p.category.adjacent else ""
        rows.append(t("paper.fact", label=t("paper.category")) + f"{md(p.category.primary)}{adj}")
    if p.credibility:
        reason = f"（{md(p.credibility.reason)}）" if p.credibility.reason else ""
        rows.append(t("paper.fact", label=t("paper.credibility")) + f"{p.credibility.label}{reason}")
    if p.cards:
        dup = t("paper.duplicate_cards") if len(p.cards) > 1 else ""
        rows.append("- **paper_card**：" + "、".join(str(c) for c in p.cards) + dup)
    first = kb.history.first_seen(p.id)
    if first is not None:
        rows.append(
            t("paper.fact", label=t("paper.first_seen"))
            + t(
                "paper.first_seen_value",
                date=first.date.isoformat(),
                brief=brief_link(kb, linker, first.brief),
                kind=SIGHTING_LABELS.get(first.kind, first.kind),
            )
        )
    links = _links(p)
    if links:
        rows.append(t("paper.fact", label=t("paper.links")) + " · ".join(md_link(label, u) for label, u in links))
    return "\n".join(rows)


def _dates(p: Paper) -> list[str]:
    """Publication, arXiv v1 and last arXiv update, as known."""
    meta = p.arxiv_meta
    dates = []
    if p.published:
        dates.append(t("paper.published", date=md(p.published)))
    if p.submitted:
        dates.append(f"v1 {p.submitted.isoformat()}")
    elif meta and meta.published:
        dates.append(f"arXiv v1 {meta.published.isoformat()}")
    if meta and meta.updated:
        dates.append(t("paper.arxiv_updated", date=meta.updated.isoformat()))
    return dates


def _links(p: Paper) -> list[tuple[str, str]]:
    """(label, URL) of the paper's links out, the DOI last."""
    meta = p.arxiv_meta
    links = [
        (label, getattr(p.links, key))
        for key, label in (
            ("code", t("paper.link_code")),
            ("html", "HTML"),
            ("pdf", "PDF"),
            ("proceedings", t("paper.link_proceedings")),
            ("blog", t("paper.link_blog")),
            ("other", t("paper.link_other")),
        )
    ]
    out = [(label, u) for label, u in links if u]
    if meta and meta.doi:
        out.append(("DOI", f"https://doi.org/{meta.doi}"))
    return out


def _findings(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    """The findings about the paper's file, in Chinese; acknowledged ones stay, with the reason."""
    noted = kb.findings("paper", p.id)
    names = {pid: paper.short for pid, paper in kb.papers.items()} if noted else {}
    out = []
    for n in noted:
        body = [text(kb, linker, finding_text(n.finding, names))]
        if n.acknowledged:
            body.append(t("paper.acknowledged", reason=text(kb, linker, n.acknowledged.reason)))
        title = t("paper.check_date") if n.finding.kind == "submitted-vs-id" else t("paper.check")
        out.append(f'!!! warning "{title}"\n' + "\n\n".join(f"    {b}" for b in body))
    return "\n\n".join(out)


def _anchors(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    lines = [f"## {t('paper.anchored')} {{ #anchored }}", ""]
    found = False
    for tid, topic in kb.topics.items():
        rec = kb.history.anchor(p.id, tid)
        if rec is None:
            continue
        found = True
        if rec.section and kb.section(tid, rec.section) is not None:
            where = linker.link(
                f"{topic.title} · {section_label(kb, tid, rec.section)}", topic.page, section_anchor(rec.section)
            )
        else:
            where = linker.link(t("paper.anchored_unsectioned", topic=topic.title), topic.page, "unsectioned")
        lines.append(f"- {where}：{anchor_text(kb, linker, rec)}")
    if found:
        return "\n".join(lines)
    seen_in = sorted({kb.briefs[s.brief].topic for s in kb.history.by_paper.get(p.id, [])} & set(kb.by_topic))
    if not seen_in:
        lines.append(t("paper.never_seen"))
    for tid in seen_in:
        status = paper_status(kb.history, p.id, kb.by_topic[tid][-1], tid)
        title = kb.topic_title(tid)
        latest = kb.briefs[kb.by_topic[tid][-1]].date.isoformat()
        lines.append("- " + t("paper.not_anchored", topic=md(title), date=latest, status=STATUS_LABELS[status]))
    return "\n".join(lines)


def _place_link(linker: Linker, m: Mention) -> str:
    return linker.link(m.place.label, m.place.page, m.place.anchor)


def backlink_places(kb: KnowledgeBase, p: Paper) -> list[tuple[Mention, list[Mention]]]:
    """The paper's mentions, one entry per place (a brief part, a section, a page), each with the
    mentions found there: by date (undated hand-written pages last), then in collection order."""
    by_place: dict[tuple[str, str], list[Mention]] = {}
    for m in kb.mentions_of(p.id):
        by_place.setdefault((m.place.page, m.place.anchor), []).append(m)
    groups = [(ms[0], ms) for ms in by_place.values()]
    groups.sort(key=lambda g: (g[0].place.date is None, g[0].place.date.isoformat() if g[0].place.date else ""))
    return groups


def _best_context(p: Paper, mentions: list[Mention]) -> str:
    """The context that names the paper (its name or arXiv id), else the first one."""
    names = [n for n in (p.short, p.arxiv_base) if n]
    for m in mentions:
        if any(n.lower() in m.context.lower() for n in names):
            return m.context
    return mentions[0].context


def _backlinks(kb: KnowledgeBase, linker: Linker, p: Paper) -> str:
    groups = backlink_places(kb, p)
    lines = [f"## {t('paper.backlinks', n=len(groups))} {{ #backlinks }}", ""]
    if not groups:
        lines.append(t("paper.no_backlinks"))
        return "\n".join(lines)
    lines += [
        '<div class="kb-backlinks" markdown>',
        "",
        f"| {t('paper.th_date')} | {t('paper.th_place')} | {t('paper.th_mention')} |",
        "|---|---|---|",
    ]
    for first, mentions in groups:
        where = _place_link(linker, first)
        if first.place.brief:
            b = kb.briefs[first.place.brief]
            where = linker.link(f"{b.date.isoformat()} {b.round}", first.place.page) + " · " + where
        date = first.place.date.isoformat() if first.place.date else "—"
        lines.append(f"| {date} | {where} | {text(kb, linker, _best_context(p, mentions))} |")
    lines += ["", "</div>"]
    return "\n".join(lines)
