"""The kernel demos a page embeds when the build has them on (``plugins.kb.demos``)."""

from __future__ import annotations

import posixpath

from kb.demos import SITE_DIR, for_paper, for_section
from kb.demos.render import demo_section
from kb.site.pages.base import Site


def asset_base(page_src: str) -> str:
    """URL of the demo assets relative to the page built from ``page_src`` (directory URLs)."""
    stem = page_src[:-3] if page_src.endswith(".md") else page_src
    parts = stem.split("/")
    depth = len(parts) - (1 if parts[-1] == "index" else 0)
    return posixpath.join(*([".."] * depth + [SITE_DIR])) if depth else SITE_DIR


def demos_html(site: Site, page_src: str, paper: str | None = None, section: str | None = None) -> str:
    """Demo blocks for a paper or a section, or "" when demos are off or none are declared."""
    if not site.options.demos:
        return ""
    demos = list(site.kb.demos.values())
    chosen = for_paper(demos, paper) if paper else for_section(demos, section or "")
    return demo_section(chosen, asset_base(page_src)) if chosen else ""
