"""A paper's page (``papers/<id>.md``): its card, where briefs saw it, its anchors, findings,
backlinks and BibTeX (:mod:`kb.render.paper`)."""

from __future__ import annotations

from kb import bib
from kb.knowledge.figures import paper_status
from kb.knowledge.index import KnowledgeBase, paper_page
from kb.render import paper as paper_render
from kb.render import related
from kb.render.meta import paper_description
from kb.site import search
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site, Stage
from kb.site.pages.brief import titles
from kb.site.pages.demos import demos_html

PREFIX = "papers/"


def id_of(page: str) -> str:
    return page[len(PREFIX) : -len(".md")]


def make(site: Site, page: str) -> str:
    kb, pid = site.kb, id_of(page)
    return paper_render.page(kb, pid, bibtex=bib.entry_for(kb.papers[pid], kb), demos=demos_html(site, page, paper=pid))


def inputs(kb: KnowledgeBase) -> Inputs:
    return {paper_page(pid): _inputs(kb, pid) for pid in kb.papers}


def _inputs(kb: KnowledgeBase, pid: str) -> tuple[object, ...]:
    seen = kb.history.by_paper.get(pid, [])
    topics = sorted({kb.briefs[s.brief].topic for s in seen if s.brief in kb.briefs} & set(kb.by_topic))
    # the status as of each topic's latest brief (not that brief: its page does not name it)
    latest = [(t, paper_status(kb.history, pid, kb.by_topic[t][-1], t)) for t in topics]
    anchors = kb.history.anchors.get(pid, [])
    return (
        kb.papers[pid],
        kb.mentions_of(pid),
        seen,
        anchors,
        kb.findings("paper", pid),
        latest,
        titles(kb, [s.brief for s in seen] + [a.brief for a in anchors]),
        related.made_from(kb, pid),  # from other papers' briefs too
        bib.entry_for(kb.papers[pid], kb),
    )


def topics(kb: KnowledgeBase, pid: str) -> set[str]:
    """The topics a paper is in: those whose briefs mention it, its primary and adjacent topics.
    A reader filtering search by one finds it; its page's head links their feeds."""
    paper = kb.papers[pid]
    found = {m.place.brief.split("/", 1)[0] for m in kb.mentions_of(pid) if m.place.brief}
    if paper.category:
        found.update([paper.category.primary, *paper.category.adjacent])
    return found


def facts(kb: KnowledgeBase, page: str) -> search.Facts:
    paper = kb.papers[id_of(page)]
    names = tuple(kb.topics[t].title for t in kb.topics if t in topics(kb, paper.id))
    # the date its page gives first (发表), else the first version's
    date = str(paper.published) if paper.published else (paper.submitted.isoformat() if paper.submitted else None)
    said = tuple(dict.fromkeys(m.context for m in kb.mentions_of(paper.id) if m.explicit and m.place.brief))
    return search.Facts(search.PAPER, names, date, search.WEIGHTS[search.PAPER], identity=search.HEADINGS, said=said)


def llms(kb: KnowledgeBase) -> list[Llms]:
    entries = []
    for pid, paper in kb.papers.items():
        note = f"arXiv:{paper.arxiv_base}" if paper.arxiv_base else ""
        short, title = paper.short, paper.display_title
        entries.append((title if title.startswith(short) else f"{short}: {title}", paper_page(pid), note))
    return [Llms("Papers", entries)]


TYPE = PageType(
    name="paper",
    paths=lambda kb: [paper_page(pid) for pid in kb.papers],
    make=make,
    stage=Stage.PAGES,  # its backlinks include hand-written pages' mentions
    inputs=inputs,
    kept=True,
    facts=facts,
    edition=Edition.RECORD,
    describe=lambda kb, page: paper_description(kb, id_of(page)),
    parent="papers/index.md",
    llms=llms,
)
