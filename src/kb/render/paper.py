"""A paper's page: metadata (authors, affiliations, year, venue, abstract when
known), credibility, cards, key numbers, notes, the findings about its file,
where it is anchored (derived from the briefs), links out, BibTeX and backlinks
(every mention in the data, with its sentence)."""

from __future__ import annotations

import html as _html

from markdown.extensions.toc import slugify, unique

from kb.bib.fields import date_of, missing
from kb.data import arxiv_id
from kb.data.models import STATUS_LABELS, Paper
from kb.knowledge.figures import paper_status
from kb.knowledge.index import KnowledgeBase, paper_page, section_anchor
from kb.knowledge.mentions import Mention
from kb.messages import t
from kb.render import related
from kb.render.checks import CHECKS_ANCHOR
from kb.render.findings import finding_text
from kb.render.html import Html, admonition, blocks, el, esc, heading, link, strong, t_html, ul
from kb.render.html import p as para
from kb.render.html import table as html_table
from kb.render.links import SIGHTING_LABELS, Linker, anchor_text, brief_link, section_label, text

# the page's own section anchors (the title's anchor must differ from them)
ANCHORS = ("abstract", "key-numbers", "notes", "anchored", "related", "backlinks", "bibtex")


def title_anchor(short: str) -> str:
    """The title's anchor: what the ``toc`` extension made of ``# {short}`` (``_1`` when nothing ASCII is left)."""
    return unique(slugify(" ".join(short.split()), "-"), set(ANCHORS))


def page(kb: KnowledgeBase, paper_id: str, bibtex: str | None = None, demos: Html = "") -> Html:
    """The paper's page (HTML)."""
    p = kb.papers[paper_id]
    linker = Linker(paper_page(paper_id))
    out = [heading(1, esc(p.short), title_anchor(p.short))]
    if p.display_title != p.short:
        out.append(para(strong(esc(p.display_title))))
    out.append(_facts(kb, linker, p))
    out.append(_findings(kb, linker, p))
    if p.arxiv_meta and p.arxiv_meta.abstract:
        out.append(heading(2, esc(t("paper.abstract")), "abstract"))
        out.append(para(text(kb, linker, p.arxiv_meta.abstract)))
    if p.key_numbers:
        out.append(heading(2, esc(t("paper.key_numbers")), "key-numbers"))
        head = [esc(t("paper.th_number")), esc(t("paper.th_meaning"))]
        out.append(html_table(head, ([strong(esc(n.value)), esc(n.what)] for n in p.key_numbers)))
    if p.notes:
        out.append(heading(2, esc(t("paper.notes")), "notes"))
        out.append(ul(text(kb, linker, n) for n in p.notes))
    out.append(_anchors(kb, linker, p))
    out.append(demos)
    out.append(related.paper_section(kb, linker, paper_id))
    out.append(_backlinks(kb, linker, p))
    out.append(heading(2, "BibTeX", "bibtex"))
    out.append(_bibtex(p, bibtex))
    return blocks(*out) + "\n"


def _bibtex(p: Paper, bibtex: str | None) -> Html:
    """The paper's entry to copy, or, for a paper whose entry would lack an author, a full title or
    a year (:func:`kb.bib.fields.missing`), what is missing and how to add it."""
    if bibtex:
        return el(
            "pre",
            el("code", _html.escape(bibtex.strip()), "language-bibtex"),
            "kb-bibtex",
            tabindex=0,
            role="region",
            aria_label="BibTeX",
        )
    lacking = missing(p)
    return para(
        esc(
            t(
                "paper.bib_incomplete",
                missing="、".join(t(f"paper.bib_missing.{name}") for name in lacking),
                command=f"kb paper refresh {p.id}",
                file=f"data/papers/{p.id}.yaml",
                keys="、".join(t(f"paper.bib_key.{name}") for name in lacking),
            )
        ),
        "kb-bib-incomplete",
    )


def _fact(label: str, value: Html) -> Html:
    """One line of the facts list: the label (strong), then the value."""
    return f"{strong(esc(label))}：{value}"


def _topic(kb: KnowledgeBase, linker: Linker, name: str) -> Html:
    """A category as the paper file writes it; a topic of the knowledge base by its title (what the
    site calls it everywhere else), linked to its living document."""
    topic = kb.topics.get(name)
    return linker.link(topic.title, topic.page) if topic else esc(name)


def _facts(kb: KnowledgeBase, linker: Linker, p: Paper) -> Html:
    """The paper's identity list: what its record says of it, then where it stands in the knowledge
    base (category, credibility, cards, first sighting) and its links out."""
    rows = _described(kb, linker, p) + _standing(kb, linker, p)
    links = _links(p)
    if links:
        rows.append(_fact(t("paper.links"), " · ".join(link(label, u) for label, u in links)))
    return ul(rows, "kb-identity")  # what names the paper: the search index weighs it (kb.site.search)


def _described(kb: KnowledgeBase, linker: Linker, p: Paper) -> list[Html]:
    """The record's description of the paper: id, authors, kind, year, venue, dates, subjects."""
    rows = []
    meta = p.arxiv_meta
    if p.arxiv:
        base = p.arxiv_base
        ident = arxiv_id.parse(p.arxiv)
        assert ident is not None  # the model refuses a malformed id
        rows.append(
            _fact("arXiv", f"{esc(p.arxiv)} · {link('abs', ident.abs_url)} · {link('pdf', ident.pdf_url)}")
            + ("" if base == p.arxiv else t_html("paper.base_id", id=esc(base)))
        )
    authors = p.authors or (meta.authors if meta else [])
    if authors:
        rows.append(_fact(t("paper.authors"), "、".join(esc(x) for x in authors)))
    if p.affiliations:
        rows.append(_fact(t("paper.affiliations"), " + ".join(esc(x) for x in p.affiliations)))
    if p.authors_note:
        rows.append(_fact(t("paper.authors_note"), text(kb, linker, p.authors_note)))
    if p.kind != "paper":  # a system, benchmark or report (a paper is what the page is by default)
        rows.append(_fact(t("paper.kind"), esc(t(f"paper.kind.{p.kind}"))))
    year, _ = date_of(p)
    if year:
        rows.append(_fact(t("paper.year"), esc(year)))
    if p.venue:
        detail = f"（{esc(p.venue.detail)}）" if p.venue.detail else ""
        note = f" · {esc(p.venue.note)}" if p.venue.note else ""
        rows.append(_fact(t("paper.venue"), f"{esc(p.venue.name)}{detail}{note}"))
    if meta and meta.journal_ref:
        rows.append(_fact("Journal ref", esc(meta.journal_ref)))
    dates = _dates(p)
    if dates:
        rows.append(_fact(t("paper.dates"), " · ".join(dates)))
    subjects = p.subjects or (meta.categories if meta else [])
    if subjects:
        rows.append(_fact(t("paper.subjects"), "、".join(esc(s) for s in subjects)))
    return rows


def _standing(kb: KnowledgeBase, linker: Linker, p: Paper) -> list[Html]:
    """Where the paper stands in the knowledge base: category, credibility, cards, first sighting."""
    rows = []
    if p.category:
        adjacent = "、".join(_topic(kb, linker, x) for x in p.category.adjacent)
        adj = t_html("paper.adjacent", topics=adjacent) if p.category.adjacent else ""
        rows.append(_fact(t("paper.category"), f"{_topic(kb, linker, p.category.primary)}{adj}"))
    if p.credibility:
        reason = f"（{esc(p.credibility.reason)}）" if p.credibility.reason else ""
        rows.append(_fact(t("paper.credibility"), f"{esc(p.credibility.label)}{reason}"))
    if p.cards:
        dup = esc(t("paper.duplicate_cards")) if len(p.cards) > 1 else ""
        rows.append(_fact("paper_card", "、".join(esc(c) for c in p.cards) + dup))
    first = kb.history.first_seen(p.id)
    if first is not None:
        kind = SIGHTING_LABELS.get(first.kind, first.kind)
        brief = brief_link(kb, linker, first.brief)
        value = t_html("paper.first_seen_value", date=first.date.isoformat(), brief=brief, kind=esc(kind))
        rows.append(_fact(t("paper.first_seen"), value))
    return rows


def _dates(p: Paper) -> list[Html]:
    """Publication, arXiv v1 and last arXiv update, as known."""
    meta = p.arxiv_meta
    dates = []
    if p.published:
        dates.append(t_html("paper.published", date=esc(p.published)))
    if p.submitted:
        dates.append(f"v1 {p.submitted.isoformat()}")
    elif meta and meta.published:
        dates.append(f"arXiv v1 {meta.published.isoformat()}")
    if meta and meta.updated:
        dates.append(t_html("paper.arxiv_updated", date=meta.updated.isoformat()))
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


def _findings(kb: KnowledgeBase, linker: Linker, p: Paper) -> Html:
    """The findings about the paper's file, in Chinese; acknowledged ones stay, with the reason."""
    noted = kb.findings("paper", p.id)
    names = {pid: paper.short for pid, paper in kb.papers.items()} if noted else {}
    out = []
    for n in noted:
        body = [para(text(kb, linker, finding_text(n.finding, names)))]
        if n.acknowledged:
            body.append(para(t_html("paper.acknowledged", reason=text(kb, linker, n.acknowledged.reason))))
        title = t("paper.check_date") if n.finding.kind == "submitted-vs-id" else t("paper.check")
        out.append(admonition("warning", esc(title), blocks(*body)))
    return el("div", blocks(*out), id=CHECKS_ANCHOR) if out else ""  # a brief naming the paper links here


def _anchors(kb: KnowledgeBase, linker: Linker, p: Paper) -> Html:
    """Where the paper is anchored, topic by topic; in each other topic whose briefs name it, its
    status there (a paper anchored in one topic may still wait in another's); where a living
    document's prose alone names it."""
    head = heading(2, esc(t("paper.anchored")), "anchored")
    rows = []
    for tid, topic in kb.topics.items():
        rec = kb.history.anchor(p.id, tid)
        if rec is None:
            continue
        known: list[str | None] = [sid for sid in rec.sections if kb.section(tid, sid) is not None]
        for sid in known or [None]:  # a row for each section it is anchored in
            if sid is not None:
                where = linker.link(f"{topic.title} · {section_label(kb, tid, sid)}", topic.page, section_anchor(sid))
            else:
                where = linker.link(t("paper.anchored_unsectioned", topic=topic.title), topic.page, "unsectioned")
            rows.append(f"{where}：{anchor_text(kb, linker, rec)}")
    seen_in = [tid for tid in _seen_in(kb, p.id) if kb.history.anchor(p.id, tid) is None]
    if not rows and not seen_in:
        return blocks(head, para(esc(t("paper.never_seen"))), ul(_in_living_prose(kb, linker, p)))
    for tid in seen_in:
        # its status as of the topic's latest brief, and the last brief that named it: only a brief
        # that names it, or the one after the brief where it was net-new, changes this (the date of
        # the latest brief would, every day)
        status = paper_status(kb.history, p.id, kb.by_topic[tid][-1], tid)
        last = [s.brief for s in kb.history.by_paper[p.id] if kb.briefs[s.brief].topic == tid][-1]
        rows.append(
            t_html(
                "paper.not_anchored",
                topic=esc(kb.topic_title(tid)),
                brief=brief_link(kb, linker, last),
                status=esc(STATUS_LABELS[status]),
            )
        )
    return blocks(head, ul(rows + _in_living_prose(kb, linker, p)))


def _seen_in(kb: KnowledgeBase, pid: str) -> list[str]:
    """The topics whose briefs name the paper, in the order of the topics."""
    seen = {kb.briefs[s.brief].topic for s in kb.history.by_paper.get(pid, [])}
    return [tid for tid in kb.topics if tid in seen and tid in kb.by_topic]


def _in_living_prose(kb: KnowledgeBase, linker: Linker, p: Paper) -> list[Html]:
    """Where a living document's prose names a paper no brief has anchored in it: a reader who
    finds it in the text (and among the backlinks) learns why it is not listed as anchored there."""
    out = []
    for tid, topic in kb.topics.items():
        if kb.history.anchor(p.id, tid) is not None:
            continue
        places = {m.place.anchor: m.place.label for m in kb.mentions_of(p.id) if m.place.page == topic.page}
        if places:  # each place by its section's name (else the page's own label for it)
            sections = {section_anchor(sid): info.section.title for sid, info in kb.sections.get(tid, {}).items()}
            links = "、".join(
                linker.link(sections.get(anchor, label), topic.page, anchor) for anchor, label in places.items()
            )
            out.append(t_html("paper.in_prose_only", topic=esc(topic.title), places=links))
    return out


def _place_link(linker: Linker, m: Mention) -> Html:
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


def _backlinks(kb: KnowledgeBase, linker: Linker, p: Paper) -> Html:
    groups = backlink_places(kb, p)
    head = heading(2, esc(t("paper.backlinks", n=len(groups))), "backlinks")
    if not groups:
        return blocks(head, para(esc(t("paper.no_backlinks"))))
    rows = []
    for first, mentions in groups:
        where = _place_link(linker, first)
        if first.place.brief:
            b = kb.briefs[first.place.brief]
            label = f"{b.date.isoformat()} {b.round}"
            if len(kb.topics) > 1:  # which topic's brief, on a site of several
                label = f"{kb.topic_title(b.topic)} {label}"
            where = linker.link(label, first.place.page) + " · " + where
        date = first.place.date.isoformat() if first.place.date else "—"
        rows.append([date, where, text(kb, linker, _best_context(p, mentions))])
    heads = [esc(t(f"paper.th_{k}")) for k in ("date", "place", "mention")]
    return blocks(head, html_table(heads, rows, cls="kb-backlinks"))
