"""arXiv ids in finished HTML become links, except where the walker's policy protects the text
from a link (:data:`kb.render.htmltext.CONTROL`: links, code, scripts, ...).

Used for hand-written pages (generated pages link ids while rendering).  Every byte but the ids
linked is copied through.
"""

from __future__ import annotations

import html as _html
from collections.abc import Callable, Iterator

from kb.data import arxiv_id
from kb.render import htmltext
from kb.render.html import tooltip

Target = Callable[[arxiv_id.ArxivId], tuple[str, str]]  # id -> (href, title)


def linker(page: str, target: Target) -> htmltext.Reader:
    """The reader (:func:`kb.render.htmltext.edit`) that links the ids in ``page``'s text."""
    places = htmltext.Places((m.start, m.end, m) for m in arxiv_id.find_ids(page))

    def read(page: str, token: htmltext.Token) -> Iterator[htmltext.Edit]:
        if token.kind != htmltext.TEXT or token.level >= htmltext.CONTROL:
            return
        for start, end, m in places.within(page, token, htmltext.CONTROL):
            href, title = target(m.id)
            yield (
                start,
                end,
                f'<a class="kb-arxiv" href="{_html.escape(href, quote=True)}" '
                f'title="{_html.escape(tooltip(title), quote=True)}">{m.text}</a>',  # a paper's title
            )

    return read


def autolink(html_text: str, target: Target) -> str:
    return htmltext.edit(html_text, [linker(html_text, target)])
