"""A page's table of contents where the theme shows more or less than the page's own headings:
the subscribe section the theme writes at the end of the home page and the briefs index (the
theme's ``main.html``, listed last in the table by ``partials/kb-toc.html``), and no empty sidebar
for a page in the nav without sections (the papers index: its wide table takes the room), nor a
navigation sidebar that would list one entry: on a page that is a tab of its own (the backlog's
tables take the room on a desktop), and on a page outside the nav (a brief or a paper page, under
its index: the sidebar would hold that index's title alone; the day's news takes the room).  On a
phone Material's drawer still holds the whole navigation.  All of it is said in the page's
metadata, which the theme reads (Material's ``hide``; ``kb_subscribe``)."""

from __future__ import annotations

from collections.abc import Collection, Sized

from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink, TableOfContents

__all__ = ["META", "adjust"]

META = "kb_subscribe"  # set in the page's meta when the theme is to write the section
PAGES = ("briefs/index.md",)  # besides the home page


def adjust(page: Page, feeds: Sized, in_nav: Collection[str]) -> None:
    """The subscribe section (:func:`_subscribe`), then the sidebars that would be empty or list one
    entry hidden.  A page outside the nav (``in_nav``, source paths) keeps its table of contents
    whatever it holds: such pages share one rendered frame per kind of page (:mod:`kb.site.plugin.frame`),
    which the sidebars are part of; each loses the navigation sidebar alike."""
    _subscribe(page, feeds)
    if page.file.src_uri not in in_nav:
        _hide(page, "navigation")
        return
    if not _headings(page.toc) and not page.meta.get(META):
        _hide(page, "toc")
    if page.parent is None:  # a tab of its own: the navigation sidebar would list this page alone
        _hide(page, "navigation")


def _hide(page: Page, part: str) -> None:
    hide = page.meta.setdefault("hide", [])
    if isinstance(hide, list) and part not in hide:
        hide.append(part)


def _subscribe(page: Page, feeds: Sized) -> None:
    """Mark ``page`` for the section; not when there is no feed (``feeds``), as the theme then
    writes no section."""
    if (page.is_homepage or page.file.src_uri in PAGES) and len(feeds):
        page.meta[META] = True


def _headings(toc: TableOfContents) -> list[AnchorLink]:
    """The entries of the table of contents Material lists: under the page's title when that heads it."""
    items = toc.items
    return items[0].children if len(items) == 1 and items[0].level == 1 else items
