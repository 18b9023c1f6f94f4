"""The week in one page (``weeks/<2026-W36>.md``) and the index of weeks (``weeks/index.md``), from
the view :mod:`kb.knowledge.week`.  A week's page opens with its news (the counts across topics and
one line per topic naming the papers anchored), then, per topic, the anchorings (date, paper,
section, recording brief), the sections that grew (linked to the living document and to their
timeline), the main increments by brief (each linked to its part of the brief, its arXiv ids to
their pages) and the claims resolved, dropped and raised.  The weeks' feed
(:mod:`kb.render.weekfeed`) reuses its title and news line."""

from __future__ import annotations

from kb.data import arxiv_id
from kb.data.models import STATUS_LABELS
from kb.knowledge.history import AnchorRecord
from kb.knowledge.index import KnowledgeBase, section_anchor
from kb.knowledge.week import ClaimClosed, SectionGrowth, TopicWeek, Week, WeekIncrement, week, weeks
from kb.messages import t
from kb.render import links
from kb.render.checks import at_least
from kb.render.html import Html, blocks, div, esc, heading, link, ol, p, t_html, table, ul
from kb.render.links import Linker, brief_link, brief_title, paper_link, section_label
from kb.render.timeline import page_of as timeline_page

INDEX = "weeks/index.md"
TITLE_ANCHOR = "_week"  # not a topic id (slugs have no "_")
ATOM, RSS = "all.weeks.atom.xml", "all.weeks.rss.xml"  # at the root, as the topics' feeds (kb.render.feeds);
# no topic's feed is named so: theirs are <topic>.atom.xml and <topic>.papers.atom.xml, a topic id has no "."


def page_of(wid: str) -> str:
    """The source path of a week's page."""
    return f"weeks/{wid}.md"


def title(w: Week) -> str:
    iso = w.monday.isocalendar()
    return t("week.title", year=iso.year, week=iso.week, first=w.monday.isoformat(), last=w.sunday.isoformat())


def news(w: Week) -> str:
    """The week's counts across topics, in one line (the page's first, the feed's summary)."""
    return t(
        "week.news",
        briefs=w.briefs,
        increments=at_least(w.increments, w.partial),
        anchorings=w.anchorings,
        grown=w.grown,
        raised=w.raised,
        resolved=w.resolved,
        dropped=w.dropped,
    )


def page(kb: KnowledgeBase, wid: str) -> Html:
    w = week(kb, wid)
    assert w is not None, wid
    linker = Linker(page_of(wid))
    out = [
        heading(1, esc(title(w)), TITLE_ANCHOR, toc=t("week.toc", week=w.monday.isocalendar().week)),
        div(blocks(p(esc(news(w))), ul(_topic_news(kb, linker, tw, linker.page) for tw in w.topics)), "kb-week-news"),
        _around(kb, linker, w),
    ]
    for tw in w.topics:
        out.append(heading(2, esc(kb.topic_title(tw.topic)), tw.topic))
        out += _topic(kb, linker, tw)
    return blocks(*out) + "\n"


def shown(kb: KnowledgeBase, w: Week) -> tuple[object, ...]:
    """What a week's page shows of records beyond its view (``w``): the papers it names or links
    (their short names; each arXiv id in a title or a note with the paper it links to), the labels
    of the sections, the titles of the briefs (and whether each is reconstructed) and of the topics.
    With the view and the weeks around it, what the page is made from (its type's inputs)."""
    papers: set[str] = set()
    sections: set[tuple[str, str]] = set()
    texts: list[str] = []
    for tw in w.topics:
        for rec in tw.anchorings:
            papers.add(rec.paper)
            sections.update((tw.topic, sid) for sid in rec.sections)
        for wi in tw.increments:
            papers.update(wi.increment.papers)
            texts.append(wi.increment.title)
        for c in (*tw.resolved, *tw.dropped):
            texts += [c.state.claim.title, c.event.update.note or ""]
        texts += [s.claim.title for s in tw.raised]
    ids = sorted({m.id.base for text in texts for m in arxiv_id.find_ids(" ".join(text.split()))})
    linked = [(base, kb.by_arxiv.get(base)) for base in ids]
    papers.update(pid for _, pid in linked if pid)
    return (
        linked,
        [(pid, kb.papers[pid].short if pid in kb.papers else None) for pid in sorted(papers)],
        [(t_, sid, section_label(kb, t_, sid), kb.section(t_, sid) is not None) for t_, sid in sorted(sections)],
        [(key, brief_title(kb, key), kb.briefs[key].reconstructed) for tw in w.topics for key in tw.briefs],
        [(tw.topic, kb.topic_title(tw.topic), kb.topics[tw.topic].page) for tw in w.topics],
    )


def _topic_news(kb: KnowledgeBase, linker: Linker, tw: TopicWeek, target: str) -> Html:
    """A topic's line of the week's news (its name links to its part of the week's page ``target``)."""
    papers = "、".join(dict.fromkeys(paper_link(kb, linker, r.paper) for r in tw.anchorings))
    return t_html(
        "week.topic_news",
        link=linker.link(kb.topic_title(tw.topic), target, tw.topic),
        briefs=str(len(tw.briefs)),
        increments=at_least(len(tw.increments), tw.partial),
        anchorings=str(len(tw.anchorings)),
        papers=t_html("week.topic_papers", papers=papers) if papers else "",
    )


def _around(kb: KnowledgeBase, linker: Linker, w: Week) -> Html:
    """The weeks before and after, the index of weeks and the feed."""
    ids = [x.id for x in weeks(kb)]
    at = ids.index(w.id)
    parts = []
    if at > 0:
        parts.append(t_html("week.prev", link=linker.link(ids[at - 1], page_of(ids[at - 1]))))
    parts.append(linker.link(t("week.all"), INDEX))
    if at + 1 < len(ids):
        parts.append(t_html("week.next", link=linker.link(ids[at + 1], page_of(ids[at + 1]))))
    parts.append(feed_links(linker))
    return div(p(" · ".join(parts)), "kb-prevnext")


def feed_links(linker: Linker) -> Html:
    return t_html("week.feed", atom=link("Atom", linker.href(ATOM)), rss=link("RSS", linker.href(RSS)))


def _topic(kb: KnowledgeBase, linker: Linker, tw: TopicWeek) -> list[Html]:
    topic = tw.topic
    return [
        heading(3, esc(t("week.anchored")), f"{topic}-anchored"),
        _anchorings(kb, linker, tw),
        heading(3, esc(t("week.grown")), f"{topic}-grown"),
        _grown(kb, linker, topic, tw.grown),
        heading(3, esc(t("week.increments_count", n=at_least(len(tw.increments), tw.partial))), f"{topic}-increments"),
        _increments(kb, linker, tw),
        heading(3, esc(t("week.claims")), f"{topic}-claims"),
        _claims(kb, linker, tw),
    ]


def _anchorings(kb: KnowledgeBase, linker: Linker, tw: TopicWeek) -> Html:
    if not tw.anchorings:
        return p(esc(t("week.no_anchorings")), "kb-empty")
    heads = [esc(t(f"week.th_{k}")) for k in ("date", "paper", "section", "brief")]
    rows = [
        [_date(rec), paper_link(kb, linker, rec.paper), _sections(kb, linker, tw, rec)]
        + [brief_link(kb, linker, rec.brief)]
        for rec in tw.anchorings
    ]
    return blocks(p(esc(t("week.anchored_intro"))), table(heads, rows, "kb-week-anchored"))


def _date(rec: AnchorRecord) -> Html:
    day = rec.known_by.isoformat()
    return esc(t("week.date_known" if rec.since is not None else "week.date_bound", date=day))


def _sections(kb: KnowledgeBase, linker: Linker, tw: TopicWeek, rec: AnchorRecord) -> Html:
    known = [sid for sid in rec.sections if kb.section(tw.topic, sid)]
    if not known:
        return esc(t("week.no_section"))
    moved = esc(t("week.moved")) if (rec.paper, rec.brief) in tw.moved else ""
    return "、".join(links.section_link(kb, linker, tw.topic, sid) for sid in known) + moved


def _grown(kb: KnowledgeBase, linker: Linker, topic: str, grown: tuple[SectionGrowth, ...]) -> Html:
    if not grown:
        return p(esc(t("week.no_growth")), "kb-empty")
    items = []
    for g in grown:
        papers = "、".join(paper_link(kb, linker, pid) for pid in g.papers)
        if g.section is None:
            unknown = esc(t("week.no_section"))
            items.append(t_html("week.grown_unsectioned", section=unknown, n=str(len(g.papers)), papers=papers))
            continue
        timeline = linker.link(t("week.timeline"), timeline_page(topic), g.section)
        section = linker.link(section_label(kb, topic, g.section), kb.topics[topic].page, section_anchor(g.section))
        items.append(t_html("week.grown_item", section=section, n=str(len(g.papers)), papers=papers, timeline=timeline))
    return ul(items)


def _increments(kb: KnowledgeBase, linker: Linker, tw: TopicWeek) -> Html:
    """The week's briefs in order, each with its main increments as written."""
    by_brief: dict[str, list[WeekIncrement]] = {key: [] for key in tw.briefs}
    for inc in tw.increments:
        by_brief[inc.brief].append(inc)
    items = []
    for key, incs in by_brief.items():
        if incs:
            body = ol(_increment(kb, linker, inc) for inc in incs)
        else:
            reconstructed = kb.briefs[key].reconstructed
            body = p(esc(t("week.increments_unknown" if reconstructed else "week.no_increments")), "kb-empty")
        items.append(blocks(brief_link(kb, linker, key), body))
    return ul(items)


def _increment(kb: KnowledgeBase, linker: Linker, wi: WeekIncrement) -> Html:
    """The increment's title as written (its arXiv ids and papers linked), its status and a link to
    its part of the brief."""
    inc = wi.increment
    text, unnamed = links.named(kb, linker, inc.title, inc.papers)
    also = "、".join(paper_link(kb, linker, pid) for pid in unnamed)
    return t_html(
        "week.increment",
        title=text + (f"（{also}）" if also else ""),
        status=esc(STATUS_LABELS[inc.status]),
        part=brief_link(kb, linker, wi.brief, t("week.increment_part"), anchor=f"inc-{wi.index}"),
    )


def _claims(kb: KnowledgeBase, linker: Linker, tw: TopicWeek) -> Html:
    if not (tw.resolved or tw.dropped or tw.raised):
        return p(esc(t("week.no_claims")), "kb-empty")
    out = []
    for key, closed in (("week.resolved", tw.resolved), ("week.dropped", tw.dropped)):
        if closed:
            out += [p(esc(t(key))), ul(_closed(kb, linker, c) for c in closed)]
    if tw.raised:
        raised = [
            t_html(
                "week.claim_raised",
                title=links.text(kb, linker, s.claim.title),
                brief=brief_link(kb, linker, s.brief, anchor=f"claim-{s.index}"),
            )
            for s in tw.raised
        ]
        out += [p(esc(t("week.raised"))), ul(raised)]
    return blocks(*out)


def _closed(kb: KnowledgeBase, linker: Linker, c: ClaimClosed) -> Html:
    note = c.event.update.note
    return t_html(
        "week.claim_closed",
        title=links.text(kb, linker, c.state.claim.title),
        brief=brief_link(kb, linker, c.event.brief, anchor="claim-updates"),
        note="：" + links.text(kb, linker, note) if note else "",
    )


def index(kb: KnowledgeBase) -> Html:
    """Every week, newest first, under its ISO year (the headings of the table of contents), each
    with its news line; the feed."""
    linker = Linker(INDEX)
    by_year: dict[int, list[Html]] = {}
    for w in reversed(weeks(kb)):
        item = t_html("week.index_item", link=linker.link(title(w), page_of(w.id)), news=esc(news(w)))
        by_year.setdefault(w.monday.isocalendar().year, []).append(item)
    out = [
        heading(1, esc(t("week.index_title")), TITLE_ANCHOR),
        p(esc(t("week.index_intro"))),
        p(feed_links(linker)) if by_year else p(esc(t("week.none")), "kb-empty"),  # no brief, no feed
    ]
    for year, items in by_year.items():
        out += [heading(2, esc(t("week.year", year=year)), f"y{year}"), ul(items)]
    return blocks(*out) + "\n"


def latest(kb: KnowledgeBase, page: str, limit: int = 1) -> Html:
    """The latest weeks for the home page (the ``latest_weeks`` macro): each linked, with its news
    and its topics' lines; then the index of weeks and the feed."""
    linker = Linker(page)
    items = [
        blocks(
            f"{linker.link(title(w), page_of(w.id))}：{esc(news(w))}",
            ul(_topic_news(kb, linker, tw, page_of(w.id)) for tw in w.topics),
        )
        for w in list(reversed(weeks(kb)))[:limit]
    ]
    feed = f" · {feed_links(linker)}" if items else ""  # no brief, no feed (kb.render.weekfeed)
    more = p(f"{linker.link(t('week.home_all'), INDEX)}{feed}")
    return blocks(ul(items) or p(esc(t("week.none")), "kb-empty"), more)
