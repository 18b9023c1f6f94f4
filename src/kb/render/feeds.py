"""Atom and RSS 2.0 feeds of the briefs of each topic, and of its new papers (pure; uses feedgen).

One entry per brief, newest first (the newest :data:`LENGTH`: a reader's feed is the news, the
site keeps every brief), dated by the brief's own ``generated_at``
(never by file or git times, so every build of the same data gives the same
bytes).  The entry's title is the brief's day and headline, its summary the headline and the
computed counts, its body the main increments as written, each linked to its part of the brief
and its papers' pages.
Contributed text goes into the XML as text nodes: the XML library escapes it.

Links point to the brief pages: absolute when the site has a ``site_url``,
otherwise relative to the feed file (``briefs/…``), which a reader resolves
against the feed's own address wherever the site is hosted.

The feed files sit at the site root: Material fetches ``sitemap.xml`` beside the
target of every ``<link rel="alternate">`` of a page, and the root has one.
"""

from __future__ import annotations

import html
import posixpath
from collections.abc import Callable
from dataclasses import dataclass

from feedgen.feed import FeedGenerator

from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.messages import UI
from kb.render.links import brief_title

DIR = "."  # the site root (see above)
LENGTH = 50  # entries of a feed: the newest (a topic's feeds with every brief ever would grow each year)


@dataclass(frozen=True)
class FeedPaths:
    topic: str
    title: str
    papers: bool = False  # the topic's new papers, not its briefs
    weeks: bool = False  # the weeks of every topic (kb.render.weeks), not one topic's

    @property
    def _stem(self) -> str:
        return f"{DIR}/{self.topic}{'.papers' if self.papers else '.weeks' if self.weeks else ''}"

    @property
    def atom(self) -> str:
        return posixpath.normpath(f"{self._stem}.atom.xml")

    @property
    def rss(self) -> str:
        return posixpath.normpath(f"{self._stem}.rss.xml")


def feeds_for(kb: KnowledgeBase) -> list[FeedPaths]:
    """The feeds the site has: for each topic with at least one brief, its briefs and its new papers."""
    out = []
    for topic in kb.by_topic:
        title = kb.topic_title(topic)
        out.append(FeedPaths(topic, UI["feeds.title"].format(topic=title)))
        out.append(FeedPaths(topic, UI["feeds.papers_title"].format(topic=title), papers=True))
    return out


def new_papers(kb: KnowledgeBase, topic: str) -> list[tuple[str, str]]:
    """(paper id, brief key) of the papers a brief of ``topic`` was the first to name, oldest first."""
    briefs = set(kb.by_topic.get(topic, []))
    found = [(kb.history.order[s.brief], pid, s.brief) for pid in kb.papers if (s := kb.history.first_seen(pid))]
    return [(pid, key) for _, pid, key in sorted(found) if key in briefs]


def summary(kb: KnowledgeBase, key: str) -> str:
    """The brief's headline as written, then its computed counts (a reader app shows this line)."""
    f = kb.figures[key]
    brief = kb.briefs[key]
    out = UI["feeds.headline"].format(title=brief.character.title) if brief.character else ""
    out += UI["feeds.counts"].format(
        increments=f.increments, net_new=f.net_new, adjacent=f.adjacent, arxiv=len(f.net_new_ids)
    )
    out += UI["feeds.computed_partial" if f.partial else "feeds.computed"]
    return " ".join(out.split())


def content(kb: KnowledgeBase, key: str, link: FeedLinker) -> str:
    """The entry's body (HTML): the headline, then each main increment as written, linked to its
    part of the brief and to its papers' pages, then the counts."""
    brief = kb.briefs[key]
    page = link.brief(key)
    out = [f"<p>{html.escape(brief.character.title)}</p>"] if brief.character else []
    items = []
    for i, inc in enumerate(brief.increments, 1):
        papers = [
            anchor(link.site(link.page_url(paper_page(p))), kb.papers[p].short) for p in inc.papers if p in kb.papers
        ]
        also = f"（{'、'.join(papers)}）" if papers else ""
        items.append(f"<li>{anchor(f'{page}#inc-{i}', inc.label)}：{html.escape(inc.title)}{also}</li>")
    if items:
        out.append(f"<ol>{''.join(items)}</ol>")
    out.append(f"<p>{html.escape(summary(kb, key))}</p>")
    return "".join(out)


def anchor(href: str, text: str) -> str:
    return f'<a href="{html.escape(href)}">{html.escape(text)}</a>'


def entry_title(kb: KnowledgeBase, key: str) -> str:
    """The brief's day and its headline (what a reader app lists), else its title."""
    brief = kb.briefs[key]
    if brief.character:
        return UI["feeds.entry_title"].format(date=brief.date.isoformat(), headline=brief.character.title)
    return brief_title(kb, key)


class FeedLinker:
    def __init__(self, site_url: str, page_url: Callable[[str], str]):
        self.base = site_url.rstrip("/") + "/" if site_url else ""
        self.page_url = page_url

    def site(self, path: str) -> str:
        """``path`` (site-relative) as a link usable inside a feed file."""
        if self.base:
            return self.base + path.lstrip("/")
        rel = posixpath.relpath(path or ".", DIR)
        return rel + "/" if path.endswith("/") and not rel.endswith("/") else rel

    def brief(self, key: str) -> str:
        return self.site(self.page_url(brief_page(key)))


def _generator(
    kb: KnowledgeBase, topic: str, paths: FeedPaths, link: FeedLinker, self_path: str, rss: bool
) -> FeedGenerator:
    keys = kb.by_topic[topic]
    latest = kb.briefs[keys[-1]].dated_at
    fg = FeedGenerator()
    fg.id(link.site(self_path) if link.base else f"urn:kb:feed:{topic}")
    fg.title(paths.title)
    fg.subtitle(kb.topics[topic].description if topic in kb.topics and kb.topics[topic].description else paths.title)
    fg.language("zh")
    fg.link(href=link.site(self_path), rel="self", type="application/rss+xml" if rss else "application/atom+xml")
    fg.link(href=link.site(link.page_url("briefs/index.md")), rel="alternate")  # last: feedgen's RSS <link>
    fg.updated(latest)
    fg.lastBuildDate(latest)
    fg.generator("kb (python-feedgen)")
    for key in keys[-LENGTH:]:  # oldest first; feedgen prepends, so the newest comes first
        brief = kb.briefs[key]
        href = link.brief(key)
        fe = fg.add_entry()
        fe.id(href if link.base else f"urn:kb:brief:{key}")
        fe.guid(href if link.base else f"urn:kb:brief:{key}", permalink=bool(link.base))
        fe.title(entry_title(kb, key))
        fe.link(href=href, rel="alternate")
        fe.author(name=brief.instance)
        fe.published(brief.dated_at)
        fe.updated(brief.dated_at)
        fe.summary(summary(kb, key))
        fe.content(content(kb, key, link), type="html")
    return fg


def _papers_generator(
    kb: KnowledgeBase, topic: str, paths: FeedPaths, link: FeedLinker, self_path: str, rss: bool
) -> FeedGenerator:
    """The topic's new papers, newest first: each dated by the brief that first named it."""
    found = new_papers(kb, topic)
    fg = FeedGenerator()
    fg.id(link.site(self_path) if link.base else f"urn:kb:feed:{topic}:papers")
    fg.title(paths.title)
    fg.subtitle(paths.title)
    fg.language("zh")
    fg.link(href=link.site(self_path), rel="self", type="application/rss+xml" if rss else "application/atom+xml")
    fg.link(href=link.site(link.page_url("papers/index.md")), rel="alternate")  # last: feedgen's RSS <link>
    latest = max((kb.briefs[key].dated_at for _, key in found), default=kb.briefs[kb.by_topic[topic][-1]].dated_at)
    fg.updated(latest)
    fg.lastBuildDate(latest)
    fg.generator("kb (python-feedgen)")
    for pid, key in found[-LENGTH:]:  # oldest first; feedgen prepends, so the newest comes first
        paper, brief = kb.papers[pid], kb.briefs[key]
        href = link.site(link.page_url(paper_page(pid)))
        fe = fg.add_entry()
        fe.id(href if link.base else f"urn:kb:paper:{pid}")
        fe.guid(href if link.base else f"urn:kb:paper:{pid}", permalink=bool(link.base))
        title = paper.display_title
        fe.title(title if title == paper.short else f"{paper.short}：{title}")
        fe.link(href=href, rel="alternate")
        fe.author(name=brief.instance)
        fe.published(brief.dated_at)
        fe.updated(brief.dated_at)
        facts = [UI["feeds.paper_first"].format(date=brief.date.isoformat(), brief=brief_title(kb, key))]
        if paper.venue:
            facts.append(paper.venue.name)
        if paper.credibility:
            facts.append(UI["feeds.paper_credibility"].format(label=paper.credibility.label))
        fe.summary(" · ".join(facts))
        body = [anchor(href, paper.short), html.escape(title), anchor(link.brief(key), brief_title(kb, key))]
        fe.content("<p>" + "</p><p>".join(body) + "</p>", type="html")
    return fg


def feed_files(kb: KnowledgeBase, site_url: str, page_url: Callable[[str], str]) -> dict[str, bytes]:
    """Every feed file by its path in the site.  ``page_url(src)`` is the built URL of a page
    (e.g. ``briefs/inference/2026-09-03-e1/``), relative to the site root."""
    link = FeedLinker(site_url, page_url)
    out: dict[str, bytes] = {}
    for paths in feeds_for(kb):
        make = _papers_generator if paths.papers else _generator
        out[paths.atom] = make(kb, paths.topic, paths, link, paths.atom, rss=False).atom_str(pretty=True)
        out[paths.rss] = make(kb, paths.topic, paths, link, paths.rss, rss=True).rss_str(pretty=True)
    return out
