"""The hand-written pages of ``docs/`` the site knows by their part: the home page, each topic's
living document, the glossary, the performance document; any other is a page about the site
(:data:`ABOUT`).  Their content is the contributor's; the registry gives their search facts,
edition policy and ``llms.txt`` entries."""

from __future__ import annotations

from kb.knowledge.index import KnowledgeBase
from kb.site import search
from kb.site.pages.base import Edition, Llms, PageType


def _topic_of(kb: KnowledgeBase, page: str) -> str:
    return next(tid for tid, topic in kb.topics.items() if topic.page == page)


def _living_facts(kb: KnowledgeBase, page: str) -> search.Facts:
    topic = kb.topics[_topic_of(kb, page)]
    date = topic.updates[-1].date.isoformat() if topic.updates else None
    return search.Facts(search.LIVING, (topic.title,), date, search.WEIGHTS[search.LIVING], headings=search.HEADINGS)


def _living_llms(kb: KnowledgeBase) -> list[Llms]:
    return [
        Llms(f"{t.title_en or t.title}: living document", [(t.title, t.page, t.description or "")])
        for t in kb.topics.values()
    ]


LIVING = PageType(
    name="living",
    paths=lambda kb: [topic.page for topic in kb.topics.values()],
    facts=_living_facts,
    edition=Edition.FROZEN,  # the survey as it stood that month
    llms=_living_llms,
)

HOME = PageType(
    name="home",
    paths=lambda kb: ["index.md"],
    facts=lambda kb, page: search.Facts(search.HOME, weight=search.WEIGHTS[search.INDEX]),
    edition=Edition.FROZEN,
)

# The glossary defines each term in its table's first column: weighted as headings are, and the page
# as a brief (it quotes no queries), so a term finds it among the first results, where the header
# search puts it first (kb-search.js: the message catalogue's terms).
GLOSSARY = PageType(
    name="glossary",
    paths=lambda kb: ["glossary.md"],
    facts=lambda kb, page: search.Facts(search.ABOUT, weight=search.WEIGHTS[search.BRIEF], terms=search.HEADINGS),
    edition=Edition.FROZEN,
)

# The performance document: the project's measurements, for whoever maintains it.  It quotes ids,
# queries and test strings as examples, which a reader's search found there beside the pages that
# say them: a page of the site (under 关于), not of its search.
PROJECT = PageType(name="project", paths=lambda kb: ["performance.md"], facts=None, edition=Edition.FROZEN)

# Any other hand-written page: about the site (the guide, ...); ranked below the knowledge base's
# pages, which answer queries the guide quotes as examples.
ABOUT = PageType(
    name="about",
    paths=lambda kb: [],
    facts=lambda kb, page: search.Facts(search.ABOUT, weight=search.WEIGHTS[search.ABOUT]),
    edition=Edition.FROZEN,
)
