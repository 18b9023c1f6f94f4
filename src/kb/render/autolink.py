"""arXiv ids in finished HTML become links, except inside links, code and scripts.

Used for hand-written pages (generated pages link ids while rendering).  The
HTML is scanned with the standard library's parser only to find the offsets of
text nodes; everything else is copied through byte for byte.
"""

from __future__ import annotations

import html as _html
from collections.abc import Callable
from html.parser import HTMLParser

from kb.data import arxiv_id
from kb.render.html import tooltip

SKIP = {"a", "code", "pre", "script", "style", "textarea", "kbd", "samp", "title", "svg", "button"}
Target = Callable[[arxiv_id.ArxivId], tuple[str, str]]  # id -> (href, title)


class _Scanner(HTMLParser):
    def __init__(self, source: str):
        super().__init__(convert_charrefs=False)
        self.source = source
        self.line_starts = [0]
        for i, ch in enumerate(source):
            if ch == "\n":
                self.line_starts.append(i + 1)
        self.stack: list[str] = []
        self.texts: list[tuple[int, str]] = []  # (offset, raw text) outside SKIP elements

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP and tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self.stack and data.strip():
            self.texts.append((self._offset(), data))


def autolink(html_text: str, target: Target) -> str:
    scanner = _Scanner(html_text)
    scanner.feed(html_text)
    scanner.close()
    out = []
    pos = 0
    for offset, data in scanner.texts:
        mentions = arxiv_id.find_ids(data)
        if not mentions:
            continue
        for m in mentions:
            start = offset + m.start
            out.append(html_text[pos:start])
            href, title = target(m.id)
            out.append(
                f'<a class="kb-arxiv" href="{_html.escape(href, quote=True)}" '
                f'title="{_html.escape(tooltip(title), quote=True)}">{m.text}</a>'  # a paper's title
            )
            pos = offset + m.end
    out.append(html_text[pos:])
    return "".join(out)
