"""mkdocs-macros module: registers the macros.  Each is a one-line call into a
tested renderer; contributed data is escaped there and never evaluated here."""

from __future__ import annotations

from kb.render import brief as brief_render
from kb.render import indexes, living
from kb.site import current, demos_html


def define_env(env):
    def page() -> str:
        return env.page.file.src_uri

    @env.macro
    def brief(key: str) -> str:
        """The whole page of one brief, e.g. ``brief("inference/2026-09-03-e1")``."""
        site = current()
        if key not in site.kb.briefs:
            raise KeyError(f"unknown brief {key!r}")
        return brief_render.markdown(site.kb, key, page())

    @env.macro
    def section(section_id: str, topic: str = "inference") -> str:
        """Heading with a stable anchor, summary, anchored papers and pending items of a section."""
        site = current()
        return living.section(site.kb, topic, section_id, page(), demos=demos_html(site, page(), section=section_id))

    @env.macro
    def section_heading(section_id: str, topic: str = "inference") -> str:
        return living.heading(current().kb, topic, section_id)

    @env.macro
    def anchored_papers(section_id: str | None = None, topic: str = "inference") -> str:
        return living.papers_in(current().kb, topic, section_id, page())

    @env.macro
    def unsectioned(topic: str = "inference") -> str:
        """Papers anchored in the document without a recorded section."""
        return living.unsectioned(current().kb, topic, page())

    @env.macro
    def update_labels(topic: str = "inference") -> str:
        return living.update_labels(current().kb, topic, page())

    @env.macro
    def citation_count(topic: str = "inference") -> str:
        return living.citation_count(current().kb, topic)

    @env.macro
    def section_outline(topic: str = "inference") -> str:
        return living.toc(current().kb, topic, page())

    @env.macro
    def latest_briefs(limit: int = 5) -> str:
        return indexes.latest_briefs(current().kb, page(), limit)
