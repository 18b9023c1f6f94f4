"""Index pages: briefs per topic by month, and all papers.  These go in the nav;
the thousands of pages they list do not.

Each brief is shown by its news (the headline as written, the titles of its main
increments) before its counts; a count the brief states is shown as stated with
the computed one beside it when they differ.
"""

from __future__ import annotations

from kb.data.models import STATUS_LABELS, Brief
from kb.knowledge.backlog import pending_items
from kb.knowledge.figures import BriefFigures, agrees
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.views import overall_status
from kb.messages import t
from kb.render.checks import at_least
from kb.render.html import BR, Html, blocks, esc, heading, link, p, ranked, strong, t_html, table, ul
from kb.render.links import SIGHTING_LABELS, Linker, arxiv_out, brief_link, paper_link, section_label

BRIEFS = "briefs/index.md"
PAPERS = "papers/index.md"
BIB = "references.bib"  # the library's BibTeX (kb.site.pages.files.BIB_FILE), linked from the papers index
# the index pages' titles keep the anchor the toc extension gave them (a Chinese title leaves nothing to slug)
TITLE_ANCHOR = "_1"

PAPER_STATUS_LABELS = {
    "net-new": "NET-new",
    "pending": t("index.pending"),
    "anchored": t("index.anchored"),
    "unseen": t("index.unseen"),
}


def _figure(stated: int | None, computed: int, partial: bool, told: int | None = None) -> str:
    """A count: as stated, with the computed one beside it when they differ; else computed (of a
    reconstructed brief a lower bound, and "unknown" where the record holds none, as its page says:
    "≥0" says nothing); or, for a reconstructed brief, what the next brief states of it (``told``)."""
    if stated is None and partial and told is not None:  # and what the data lists, as the page says it
        return t("index.told", n=told) if told == computed else t("index.told_known", n=told, known=computed)
    shown = at_least(computed, partial)
    if stated is None:
        return shown
    if agrees(stated, computed, partial):  # as the brief's page (checks.figure)
        return str(stated)
    return t("index.stated_computed", stated=stated, computed=shown)


def counts(b: Brief, f: BriefFigures) -> str:
    s = b.stated
    return t(
        "index.counts",
        increments=_figure(s.increments, f.increments, f.partial, f.told.get("increments")),
        net_new=_figure(s.net_new, f.net_new, f.partial),
        adjacent=_figure(s.adjacent, f.adjacent, f.partial, f.told.get("adjacent")),
        arxiv=_figure(s.arxiv_net_new, len(f.net_new_ids), f.partial),
        carried=_figure(s.carried_over, len(f.carried), f.partial),
    )


def _checks(kb: KnowledgeBase, key: str) -> str:
    noted = kb.findings("brief", key)
    open_ = sum(1 for n in noted if not n.acknowledged)
    acked = len(noted) - open_
    if not noted:
        return "—"
    parts = ([t("index.checks_open", n=open_)] if open_ else []) + (
        [t("index.checks_acknowledged", n=acked)] if acked else []
    )
    return "；".join(parts)


def _news(kb: KnowledgeBase, linker: Linker, key: str) -> Html:
    """The headline as written, then one line per main increment (its title, linked), for a table cell."""
    b = kb.briefs[key]
    lines = [strong(esc(b.character.title))] if b.character else []
    for i, inc in enumerate(b.increments, 1):
        lines.append(
            f"{i}. {brief_link(kb, linker, key, inc.title, anchor=f'inc-{i}')}（{esc(STATUS_LABELS[inc.status])}）"
        )
    return BR.join(lines) or "—"


def briefs(kb: KnowledgeBase) -> Html:
    linker = Linker(BRIEFS)
    out = [heading(1, esc(t("index.briefs")), TITLE_ANCHOR), p(esc(t("index.briefs_intro")))]
    heads = [esc(t(f"index.th_{k}")) for k in ("date", "brief", "news", "counts", "checks")]
    for topic, keys in kb.by_topic.items():
        out.append(heading(2, esc(kb.topic_title(topic)), f"topic-{topic}"))
        months: dict[str, list[str]] = {}
        for key in reversed(keys):
            months.setdefault(kb.briefs[key].date.strftime("%Y-%m"), []).append(key)
        for month, month_keys in months.items():
            out.append(heading(3, esc(month), f"topic-{topic}-{month}"))
            rows = []
            for key in month_keys:
                b, f = kb.briefs[key], kb.figures[key]
                label = f"{b.round} · {b.instance}" + (t("index.reconstructed") if b.reconstructed else "")
                row = [b.date.isoformat(), brief_link(kb, linker, key, label), _news(kb, linker, key)]
                rows.append([*row, esc(counts(b, f)), esc(_checks(kb, key))])
            out.append(table(heads, rows, cls="kb-table", data_kb_table="briefs"))
    return blocks(*out) + "\n"


def _anchored(kb: KnowledgeBase, pid: str) -> str:
    parts = []
    for tid in kb.topics:
        rec = kb.history.anchor(pid, tid)
        if rec is None:
            continue
        where = " + ".join(section_label(kb, tid, s) for s in rec.sections) or t("status.unsectioned")
        when = rec.since.isoformat() if rec.since else t("index.latest_by", date=rec.recorded_on.isoformat())
        parts.append(f"{where} · {when}")
    return "；".join(parts)


def papers(kb: KnowledgeBase) -> Html:
    from kb.render.paper import backlink_places

    linker = Linker(PAPERS)
    intro = t_html("index.papers_intro", n=str(len(kb.papers)), bib=link(t("index.bib_link"), linker.href(BIB)))
    out = [heading(1, esc(t("index.papers")), TITLE_ANCHOR), p(intro)]
    heads = ("paper", "arxiv", "venue", "credibility", "category", "status", "first_seen", "mentions")
    rows = []
    for pid, paper in sorted(kb.papers.items(), key=lambda kv: kv[1].short.lower()):
        ident = arxiv_out(paper.arxiv_base) if paper.arxiv_base else "—"
        status = PAPER_STATUS_LABELS[overall_status(kb, pid)]
        anchored = _anchored(kb, pid)
        first = kb.history.first_seen(pid)
        seen = (
            brief_link(kb, linker, first.brief, first.date.isoformat())
            + f" · {esc(SIGHTING_LABELS.get(first.kind, first.kind))}"
            if first
            else "—"
        )
        rows.append(
            [
                paper_link(kb, linker, pid),
                ident,
                esc(paper.venue.name) if paper.venue else "—",
                ranked(esc(paper.credibility.label), paper.credibility.rank) if paper.credibility else "—",
                esc(kb.topic_title(paper.category.primary)) if paper.category else "—",
                esc(status + ("（" + anchored + "）" if anchored else "")),
                seen,
                str(len(backlink_places(kb, paper))),
            ]
        )
    out.append(table([esc(t(f"index.th_{k}")) for k in heads], rows, cls="kb-table", data_kb_table="papers"))
    return blocks(*out) + "\n"


def latest_briefs(kb: KnowledgeBase, page: str, limit: int = 5) -> Html:
    """The latest briefs for the home page: each with its headline and the titles of its main increments."""
    linker = Linker(page)
    keys = sorted(kb.briefs, key=lambda k: kb.history.order.get(k, 0), reverse=True)[:limit]
    items = []
    for key in keys:
        b = kb.briefs[key]
        head = f"：{esc(b.character.title)}" if b.character else ""
        incs = [
            f"{brief_link(kb, linker, key, inc.title, anchor=f'inc-{i}')}（{esc(STATUS_LABELS[inc.status])}）"
            for i, inc in enumerate(b.increments, 1)
        ]
        none = t("index.increments_unknown" if b.reconstructed else "index.no_increments")  # unknown is not none
        items.append(f"{brief_link(kb, linker, key)}{head}\n" + ul(incs or [esc(none)]))
    return ul(items) or p(esc(t("index.no_briefs")))


def topics(kb: KnowledgeBase, page: str) -> Html:
    """Every topic of the site, in the order of its files: its title linked to its living document,
    its newest brief (date and headline, linked), then the pages that show that topic alone: its
    briefs, its pending items on the backlog, its section timelines and its feed.  A reader of one
    topic among many starts here."""
    from kb.render import backlog, feeds, timeline

    linker = Linker(page)
    items = []
    for tid, topic in kb.topics.items():
        keys = kb.by_topic.get(tid, [])
        title = p(strong(linker.link(topic.title, topic.page)), "kb-topic-title")
        if keys:
            b = kb.briefs[keys[-1]]
            headline = b.character.title if b.character else f"{b.round} · {b.instance}"  # as the index names it
            news = brief_link(kb, linker, keys[-1], headline)
            latest = p(t_html("topics.latest", date=b.date.isoformat(), headline=news))
        else:
            latest = p(esc(t("topics.no_briefs")))
        links = [linker.link(t("topics.briefs"), BRIEFS, f"topic-{tid}")] if keys else []
        links.append(linker.link(t("topics.backlog", n=len(pending_items(kb, tid))), backlog.PAGE, f"pending-{tid}"))
        links.append(linker.link(t("topics.timeline"), timeline.page_of(tid)))
        links += [linker.link(t("topics.feed"), f.atom) for f in feeds.feeds_for(kb) if f.topic == tid and not f.papers]
        items.append(blocks(title, latest, p(" · ".join(links), "kb-topic-links")))
    return ul(items, "kb-topics")
