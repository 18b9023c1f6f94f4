"""What MkDocs learns of a page whose HTML the kb plugin made (part of the MkDocs adapter).

A generated page skips the Markdown step (:mod:`kb.site.plugin`), so the page's table of
contents, the anchors it holds, the anchors it links to and its title are set here from its
HTML (:mod:`kb.site.pages.htmlpage`), or from what the render cache kept of it
(:class:`kb.site.pages.rendercache.Finished`): either way MkDocs validates the links to anchors,
builds the table of contents and titles the page as it does for a Markdown page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from kb.data import arxiv_id
from kb.knowledge.index import paper_page
from kb.site.pages.htmlpage import Links, Outline
from kb.site.pages.rendercache import Finished

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase


def learn(page: Page, finished: Finished, files: Mapping[str, File]) -> None:
    """Set on ``page`` what MkDocs would have learnt from its Markdown."""
    page.toc = get_toc(finished.toc)
    page.present_anchor_ids = set(finished.anchor_ids)
    links = page.links_to_anchors or {}
    for target, anchors in finished.anchors.items():
        dest = files.get(target)  # a normalized source path already (kb.site.pages.htmlpage.resolver)
        if dest is not None:
            links.setdefault(dest, {}).update(anchors)
    page.links_to_anchors = links  # MkDocs checks them once every page is built
    for key in ("title", "description"):  # escaped when they were made (kb.site.plugin)
        value = getattr(finished, key)
        if value and key not in page.meta:
            page.meta[key] = value


def without_markdown(page: Page) -> Callable[[MkDocsConfig, Files], None]:
    """A generated page's render step: its content is its placeholder as it is.  MkDocs has no
    event to skip Python-Markdown for a page whose HTML is made already; setting up a Markdown
    converter with every extension, only to convert one word, costs about a millisecond a page."""

    def render(config: MkDocsConfig, files: Files) -> None:
        page.content = page.markdown

    return render


def read(page_html: str, outline: Outline, found: Links, titled: bool) -> Finished:
    """What MkDocs learns of a page from its HTML (``outline``: what a walk of it found;
    ``found``: what resolving its links found; ``titled``: the first heading is the page's title)."""
    heading = outline.title if titled else None
    anchors = {target: dict(a) for target, a in found.anchors.items()}
    return Finished(page_html, outline.toc(), frozenset(outline.ids), anchors, frozenset(found.targets), heading, None)


def arxiv_target(kb: KnowledgeBase, page: Page, files: Files) -> Callable[[arxiv_id.ArxivId], tuple[str, str]]:
    """Where an arXiv id in a hand-written page links: its paper's page, else arXiv (and the title shown)."""

    def target(ident: arxiv_id.ArxivId) -> tuple[str, str]:
        pid = kb.by_arxiv.get(ident.base)
        dest = files.get_file_from_path(paper_page(pid)) if pid else None
        if pid is None or dest is None:
            return ident.abs_url, f"arXiv {ident}"
        return dest.url_relative_to(page.file), kb.papers[pid].display_title

    return target
