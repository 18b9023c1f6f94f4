"""The macros of template pages, registered with mkdocs-macros by ``hooks/macros.py``.

Every macro is a one-line call into a renderer.  The site (the knowledge base
of this build) is the ``kb`` plugin's; a macro never loads anything itself.
"""

from __future__ import annotations

from typing import Any, Callable

from kb.render import brief as brief_render
from kb.render import indexes, living
from kb.site.layout import Site, demos_html

MACROS: tuple[str, ...] = ("brief", "section", "section_heading", "anchored_papers", "unsectioned",
                           "update_labels", "citation_count", "section_outline", "latest_briefs")


def register(env: Any) -> None:
    """Register every macro with the mkdocs-macros environment ``env``."""

    def site() -> Site:
        return env.conf.plugins["kb"].site

    def page() -> str:
        return env.page.file.src_uri

    def topic(name: str | None) -> str:
        return name or site().default_topic

    def macro(fn: Callable[..., str]) -> Callable[..., str]:
        env.macro(fn)
        return fn

    @macro
    def brief(key: str) -> str:
        """The whole page of one brief, e.g. ``brief("inference/2026-09-03-e1")``."""
        if key not in site().kb.briefs:
            raise KeyError(f"unknown brief {key!r}")
        return brief_render.markdown(site().kb, key, page())

    @macro
    def section(section_id: str, topic_id: str | None = None) -> str:
        """Heading with a stable anchor, summary, anchored papers and pending items of a section."""
        return living.section(site().kb, topic(topic_id), section_id, page(),
                              demos=demos_html(site(), page(), section=section_id))

    @macro
    def section_heading(section_id: str, topic_id: str | None = None) -> str:
        return living.heading(site().kb, topic(topic_id), section_id)

    @macro
    def anchored_papers(section_id: str | None = None, topic_id: str | None = None) -> str:
        return living.papers_in(site().kb, topic(topic_id), section_id, page())

    @macro
    def unsectioned(topic_id: str | None = None) -> str:
        """Papers anchored in the document without a recorded section."""
        return living.unsectioned(site().kb, topic(topic_id), page())

    @macro
    def update_labels(topic_id: str | None = None) -> str:
        return living.update_labels(site().kb, topic(topic_id), page())

    @macro
    def citation_count(topic_id: str | None = None) -> str:
        return living.citation_count(site().kb, topic(topic_id))

    @macro
    def section_outline(topic_id: str | None = None) -> str:
        return living.toc(site().kb, topic(topic_id), page())

    @macro
    def latest_briefs(limit: int = 5) -> str:
        return indexes.latest_briefs(site().kb, page(), limit)
