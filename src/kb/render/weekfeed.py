"""The feed of the weeks (Atom and RSS, ``all.weeks.atom.xml``): one entry a week across topics,
newest first, titled by the week's dates, summarised by its counts (:func:`kb.render.weeks.news`),
its body each topic's line with the papers anchored that week linked; dated by the week's last
brief, so every build of the same data gives the same bytes.  Made beside the topics' feeds
(:mod:`kb.render.feeds`, whose links and escaping it shares)."""

from __future__ import annotations

import html
from collections.abc import Callable

from feedgen.feed import FeedGenerator

from kb.knowledge.index import KnowledgeBase, paper_page
from kb.knowledge.week import weeks
from kb.messages import UI
from kb.render import weeks as week_pages
from kb.render.checks import at_least
from kb.render.feeds import LENGTH, FeedLinker, FeedPaths, anchor

ALL = "all"  # the weeks' feed belongs to every topic: feeds/all.weeks.*


def week_feed(kb: KnowledgeBase) -> FeedPaths | None:
    """The feed of the weeks (one entry a week, across topics), when there is a brief."""
    return FeedPaths(ALL, UI["feeds.weeks_title"], weeks=True) if kb.briefs else None


def _generator(kb: KnowledgeBase, paths: FeedPaths, link: FeedLinker, self_path: str, rss: bool) -> FeedGenerator:
    """Every week, newest first: titled by its dates, summarised by its counts, its body the line of
    each topic (the papers anchored, linked); dated by the last brief of the week."""
    fg = FeedGenerator()
    fg.id(link.site(self_path) if link.base else "urn:kb:feed:weeks")
    fg.title(paths.title)
    fg.subtitle(UI["week.index_intro"])
    fg.language("zh")
    fg.link(href=link.site(self_path), rel="self", type="application/rss+xml" if rss else "application/atom+xml")
    fg.link(href=link.site(link.page_url(week_pages.INDEX)), rel="alternate")  # last: feedgen's RSS <link>
    latest = max(b.dated_at for b in kb.briefs.values())
    fg.updated(latest)
    fg.lastBuildDate(latest)
    fg.generator("kb (python-feedgen)")
    for w in weeks(kb)[-LENGTH:]:  # oldest first; feedgen prepends, so the newest comes first
        href = link.site(link.page_url(week_pages.page_of(w.id)))
        dated = max(kb.briefs[key].dated_at for tw in w.topics for key in tw.briefs)
        fe = fg.add_entry()
        fe.id(href if link.base else f"urn:kb:week:{w.id}")
        fe.guid(href if link.base else f"urn:kb:week:{w.id}", permalink=bool(link.base))
        fe.title(week_pages.title(w))
        fe.link(href=href, rel="alternate")
        fe.published(dated)
        fe.updated(dated)
        fe.summary(week_pages.news(w))
        lines = []
        for tw in w.topics:
            papers = "、".join(
                anchor(link.site(link.page_url(paper_page(r.paper))), kb.papers[r.paper].short)
                for r in tw.anchorings
                if r.paper in kb.papers
            )
            counts = UI["week.topic_news"].format(
                link="",
                briefs=len(tw.briefs),
                increments=at_least(len(tw.increments), tw.partial),
                anchorings=len(tw.anchorings),
                papers="",
            )
            topic = anchor(f"{href}#{tw.topic}", kb.topic_title(tw.topic))
            lines.append(f"<li>{topic}{html.escape(counts)}{f'（{papers}）' if papers else ''}</li>")
        fe.content(f"<p>{html.escape(week_pages.news(w))}</p><ul>{''.join(lines)}</ul>", type="html")
    return fg


def feed_files(kb: KnowledgeBase, site_url: str, page_url: Callable[[str], str]) -> dict[str, bytes]:
    """The weeks' feed files by their path in the site (none without a brief)."""
    paths = week_feed(kb)
    if paths is None:
        return {}
    link = FeedLinker(site_url, page_url)
    return {
        paths.atom: _generator(kb, paths, link, paths.atom, rss=False).atom_str(pretty=True),
        paths.rss: _generator(kb, paths, link, paths.rss, rss=True).rss_str(pretty=True),
    }
