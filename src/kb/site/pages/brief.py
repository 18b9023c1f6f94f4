"""A brief's page (``briefs/<topic>/<date>-<round>.md``): the whole brief as the author stated it,
with what the knowledge base computes beside it (:mod:`kb.render.brief`)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from kb.knowledge.index import KnowledgeBase, brief_page
from kb.render.links import brief_title
from kb.render.meta import brief_description
from kb.site import search
from kb.site.pages.base import Edition, Inputs, Llms, PageType, Site

PREFIX = "briefs/"


def key_of(page: str) -> str:
    return page[len(PREFIX) : -len(".md")]


def paths(kb: KnowledgeBase) -> list[str]:
    return [brief_page(key) for key in kb.briefs]


def make(site: Site, page: str) -> str:
    """A template page calling the ``brief`` macro: the brief is rendered as MkDocs renders the page
    (one brief's HTML at a time in memory), by the same macro a hand-written page may call."""
    site.template_pages.add(page)
    return f'---\nrender_macros: true\n---\n\n{{{{ brief("{key_of(page)}") }}}}\n'


def inputs(kb: KnowledgeBase) -> Inputs:
    named = _named(kb)
    return {brief_page(key): _inputs(kb, key, named) for key in kb.briefs}


def _named(kb: KnowledgeBase) -> dict[str, set[str]]:
    """Brief key -> the papers its page names: those its parts mention, and the computed
    carried-over and net-new ones (their names and links are on its page)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in kb.mentions:
        if m.place.brief and m.paper:
            out[m.place.brief].add(m.paper)
    for key, fig in kb.figures.items():
        out[key].update(c.paper for c in fig.carried)
        out[key].update(fig.net_new_papers)
    return out


def _inputs(kb: KnowledgeBase, key: str, named: dict[str, set[str]]) -> tuple[object, ...]:
    brief = kb.briefs[key]
    prev, nxt = kb.previous(key), kb.next(key)
    # the claims it raises and updates, each with its whole history
    claims = [kb.claims.get(brief.topic, c.id) for c in brief.claims]
    claims += [kb.claims.get(brief.topic, u.claim) for u in brief.claim_updates]
    papers = sorted(pid for pid in named.get(key, ()) if pid in kb.papers)
    linked = [nxt] + [ev.brief for state in claims if state for ev in state.events]  # named by their titles
    return (
        brief,
        kb.figures.get(key),
        kb.findings("brief", key),
        prev,
        kb.briefs[prev] if prev else None,
        kb.figures.get(prev) if prev else None,
        nxt,
        claims,
        [
            (pid, kb.papers[pid], kb.history.first_seen(pid), kb.history.anchors.get(pid), kb.findings("paper", pid))
            for pid in papers
        ],
        titles(kb, linked),
    )


def titles(kb: KnowledgeBase, keys: Iterable[str | None]) -> list[tuple[str, str | None]]:
    """The titles of the briefs a page links to by their name (kb.render.links.brief_title)."""
    return [(k, kb.briefs[k].title) for k in sorted({k for k in keys if k and k in kb.briefs})]


def facts(kb: KnowledgeBase, page: str) -> search.Facts:
    brief = kb.briefs[key_of(page)]
    topic = kb.topics.get(brief.topic)
    return search.Facts(search.BRIEF, (topic.title,) if topic else (), brief.date.isoformat())


def llms(kb: KnowledgeBase) -> list[Llms]:
    out = []
    for tid, topic in kb.topics.items():
        keys = kb.by_topic.get(tid, [])
        if keys:
            entries = []
            for key in reversed(keys):
                b = kb.briefs[key]
                entries.append((brief_title(kb, key), brief_page(key), b.character.title if b.character else ""))
            out.append(Llms(f"{topic.title_en or topic.title}: briefs, newest first", entries))
    return out


TYPE = PageType(
    name="brief",
    paths=paths,
    make=make,
    inputs=inputs,
    kept=True,
    facts=facts,
    edition=Edition.RECORD,
    describe=lambda kb, page: brief_description(kb, key_of(page)),
    parent="briefs/index.md",
    llms=llms,
)
