"""The subscribe section the theme writes at the end of the home page and the briefs index
(``overrides/main.html``, from the feeds the plugin gives every page): which pages have it, and its
entry in their table of contents, which MkDocs made from the page's own headings before the theme
added this one."""

from __future__ import annotations

from collections.abc import Callable, Sized

from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

__all__ = ["ANCHOR", "META", "add"]

ANCHOR = "kb-subscribe"  # the section heading's id (overrides/main.html)
META = "kb_subscribe"  # set in the page's meta when the theme is to write the section
PAGES = ("briefs/index.md",)  # besides the home page


def add(page: Page, title: str, feeds: Callable[[], Sized]) -> None:
    """Mark ``page`` for the section and list it last in its table of contents (under the page's
    title when that heads the table, as Material shows it), once; not when there is no feed
    (``feeds()``, asked only of these pages), as the theme then writes no section."""
    if not (page.is_homepage or page.file.src_uri in PAGES) or page.meta.get(META) or not feeds():
        return
    page.meta[META] = True
    items = page.toc.items
    under = items[0].children if len(items) == 1 and items[0].level == 1 else items
    under.append(AnchorLink(title, ANCHOR, 2))
