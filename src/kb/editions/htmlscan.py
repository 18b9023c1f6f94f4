"""What the edition tool reads from a built page, with the standard library's HTML parser.

- :func:`scan` finds every URL a page refers to (``href``, ``src``, ``srcset``, …
  on any tag, and the search worker named in Material's ``__config`` script)
  with its position in the text, the page's ``<title>``, where its ``<article>``
  starts, and its stylesheet links.
- :func:`rewrite` replaces attribute values at those positions, leaving every
  other byte of the page as it was.
- :func:`blocks` reads the text of the article as a list of blocks (headings,
  paragraphs, list items, table rows, code blocks), the unit of the diff between
  two editions.

The pages come from a build that ran contributor content, so nothing here
trusts them: the parser only reads, and a reference is only ever replaced by a
value the caller computed and :func:`html.escape` quoted.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

__all__ = ["Ref", "Scan", "scan", "rewrite", "blocks"]

# Attributes whose value is one URL, and the one whose value is a list of them.
URL_ATTRS = frozenset({"href", "src", "poster", "action", "data", "cite", "formaction", "xlink:href"})
SRCSET = "srcset"
_ATTR = re.compile(r"""([^\s"'>/=]+)\s*=\s*("[^"]*"|'[^']*'|[^\s"'=<>`]+)""")


@dataclass(frozen=True)
class Ref:
    """One URL in a page: ``start``/``end`` delimit the attribute value in the page's text
    (``None`` for URLs that are not in an attribute, such as the search worker)."""

    url: str
    start: int | None = None
    end: int | None = None
    quote: str = '"'
    srcset: bool = False


@dataclass
class Scan:
    refs: list[Ref] = field(default_factory=list)
    title: str = ""
    article_start: int | None = None  # just after the <article> start tag
    stylesheets: list[str] = field(default_factory=list)


class _Scanner(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.text = text
        self.lines = [0]
        for m in re.finditer("\n", text):
            self.lines.append(m.end())
        self.out = Scan()
        self._in_title = False
        self._config = False

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self._offset()
        raw = self.get_starttag_text() or ""
        names = {name for name, _ in attrs}
        if names & URL_ATTRS or SRCSET in names:
            for m in _ATTR.finditer(raw, len(tag) + 1):
                name = m.group(1).lower()
                if name not in URL_ATTRS and name != SRCSET:
                    continue
                value = m.group(2)
                quote = value[0] if value[0] in "\"'" else ""
                inner = value[1:-1] if quote else value
                vstart = start + m.start(2) + (1 if quote else 0)
                self.out.refs.append(
                    Ref(html.unescape(inner), vstart, vstart + len(inner), quote or '"', name == SRCSET)
                )
        a = dict(attrs)
        if tag == "title":
            self._in_title = True
        elif tag == "article" and self.out.article_start is None:
            self.out.article_start = start + len(raw)
        elif tag == "link" and (a.get("rel") or "").lower() == "stylesheet" and a.get("href"):
            self.out.stylesheets.append(a["href"] or "")
        elif tag == "script" and a.get("id") == "__config":
            self._config = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "script":
            self._config = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.out.title += data
        elif self._config:
            try:
                worker = json.loads(data).get("search")
            except (ValueError, AttributeError):
                worker = None
            if isinstance(worker, str) and worker:
                self.out.refs.append(Ref(worker))


def scan(text: str) -> Scan:
    s = _Scanner(text)
    s.feed(text)
    s.close()
    s.out.title = " ".join(s.out.title.split())
    return s.out


def srcset_urls(value: str) -> list[str]:
    """The URLs of a ``srcset`` value (``a.png 1x, b.png 2x``)."""
    return [part.split()[0] for part in value.split(",") if part.split()]


def rewrite(text: str, replacements: dict[Ref, str]) -> str:
    """``text`` with each attribute value located by a :class:`Ref` replaced (escaped for its quote)."""
    out, pos = [], 0
    for ref in sorted((r for r in replacements if r.start is not None), key=lambda r: r.start or 0):
        assert ref.start is not None and ref.end is not None and ref.start >= pos
        out.append(text[pos : ref.start])
        out.append(html.escape(replacements[ref], quote=True))
        pos = ref.end
    out.append(text[pos:])
    return "".join(out)


# --------------------------------------------------------------------------- article text

_BLOCKS = frozenset(
    {
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "p",
        "li",
        "dt",
        "dd",
        "pre",
        "tr",
        "figcaption",
        "blockquote",
        "summary",
        "div",
        "section",
        "details",
        "ul",
        "ol",
        "table",
        "thead",
        "tbody",
    }
)
_CELLS = frozenset({"td", "th"})
_SKIP = frozenset({"script", "style", "svg", "button"})
SKIP_CLASSES = frozenset({"headerlink", "kb-edition"})  # permalinks and the edition banner are not content
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)


class _Blocks(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside <article> when > 0
        self.skip = 0
        self.stack: list[bool] = []  # per open element inside the article: is it skipped text?
        self.buf: list[str] = []
        self.kind = "p"
        self.out: list[tuple[str, str]] = []

    def flush(self) -> None:
        text = " ".join("".join(self.buf).split())
        if text:
            self.out.append((self.kind, text))
        self.buf = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
            return
        if not self.depth or tag in _VOID:
            return
        classes = (dict(attrs).get("class") or "").split()
        skipped = tag in _SKIP or bool(SKIP_CLASSES.intersection(classes))
        self.stack.append(skipped)
        self.skip += skipped
        if tag in _BLOCKS:
            self.flush()
            self.kind = tag if tag in ("h1", "h2", "h3", "h4", "h5", "h6", "pre", "tr") else self.kind
        elif tag in _CELLS and self.buf:
            self.buf.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.flush()
            self.depth = max(0, self.depth - 1)
            return
        if not self.depth or tag in _VOID or not self.stack:
            return
        self.skip -= self.stack.pop()
        if tag in _BLOCKS:
            self.flush()
            self.kind = "p"

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            self.buf.append(data)


def blocks(text: str) -> list[tuple[str, str]]:
    """The article's text as ``(kind, text)`` blocks; kind is ``h1``…``h6``, ``pre``, ``tr`` or ``p``."""
    b = _Blocks()
    b.feed(text)
    b.close()
    b.flush()
    return b.out
