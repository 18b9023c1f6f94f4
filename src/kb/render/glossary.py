"""The first use of each glossary term on a page, explained in place (pure).

:func:`explain_first_uses` wraps the first occurrence of each term of
:data:`kb.render.messages.GLOSSARY` in the page's text in ``<abbr title="…">`` (Material's
``content.tooltips`` shows the title; the 术语 page explains each term at length).  Only
text between tags is looked at, never inside links, code, headings, abbreviations, scripts,
styles or SVG, so no markup or attribute changes.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterator

from kb.render.messages import GLOSSARY

_NAME = re.compile(r"</?\s*([a-zA-Z][a-zA-Z0-9]*)")
SKIP = frozenset(
    {
        "a",
        "abbr",
        "code",
        "pre",
        "kbd",
        "samp",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "script",
        "style",
        "svg",
        "title",
        "textarea",
        "button",
        "summary",
    }
)


def _pattern(terms: list[str]) -> re.Pattern[str]:
    """Any of ``terms``, the longest first; a term of one character (⭐) with the run it is in
    (⭐⭐⭐⭐ is one use, explained whole)."""
    return re.compile(
        "|".join(re.escape(t) + ("+" if len(t) == 1 else "") for t in sorted(terms, key=len, reverse=True))
    )


_TERMS = _pattern(list(GLOSSARY))
# Where text is not looked at: inside a tag or a comment, and inside the skipped elements.
_NAMES = "|".join(sorted(SKIP, key=len, reverse=True))
_SKIPPED = re.compile(r"<(/?)(" + _NAMES + r")(?=[\s>/])", re.IGNORECASE)
# A skipped element whole, in one match: self-closing, or to its end tag (or the page's end when it
# has none), or flagged when an element of its own name opens inside it before its end tag.  The
# quantifiers are possessive: nothing matched is tried again.
_ELEMENT = re.compile(
    r"<(" + _NAMES + r")(?=[\s>/])[^>]*+"
    r"(?:(?<=/)>|>(?:[^<]++|<(?!/?\1[\s>/]))*+(?:</\1(?=[\s>/])|\Z|(?P<nested>)))",
    re.IGNORECASE | re.DOTALL,
)


def _skipped_spans(html_text: str) -> Iterator[tuple[int, int]]:
    """The spans of the page inside skipped elements (outermost ones; unclosed: to the end), in
    order, found as they are asked for.

    Each element is one match of :data:`_ELEMENT`, found in the regex engine: an element holding
    another of its own name (``<svg>`` in ``<svg>``) is what it cannot pair, and from there the tags
    are walked one by one (:func:`_walked_spans`)."""
    for m in _ELEMENT.finditer(html_text):
        if m.group("nested") is not None:
            yield from (span for span in _walked_spans(html_text) if span[0] >= m.start())
            return
        yield m.span()


def _walked_spans(html_text: str) -> list[tuple[int, int]]:
    """:func:`_skipped_spans` tag by tag, counting how deep in skipped elements each tag is."""
    spans, depth, start = [], 0, 0
    for m in _SKIPPED.finditer(html_text):
        end_tag = html_text.find(">", m.end())
        if not m.group(1) and end_tag > 0 and html_text[end_tag - 1] == "/":
            continue  # self-closing
        if m.group(1):
            depth -= 1
            if depth == 0:
                spans.append((start, m.end()))
            depth = max(depth, 0)
        else:
            if depth == 0:
                start = m.start()
            depth += 1
    if depth:
        spans.append((start, len(html_text)))
    return spans


def _in_markup(html_text: str, pos: int) -> bool:
    """Whether ``pos`` is inside a tag or a comment."""
    if html_text.rfind("<", 0, pos) > html_text.rfind(">", 0, pos):
        return True
    return html_text.rfind("<!--", 0, pos) > html_text.rfind("-->", 0, pos)


def explain_first_uses(html_text: str, glossary: dict[str, str] | None = None) -> str:
    """``html_text`` with the first use of each term wrapped in an ``<abbr>`` with its explanation."""
    terms = GLOSSARY if glossary is None else glossary
    pattern = _TERMS if glossary is None else _pattern(list(terms))
    skipped: list[tuple[int, int]] = []  # the spans up to the last candidate, found as candidates need them
    spans: Iterator[tuple[int, int]] | None = None
    seen: set[str] = set()
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(html_text):
        term = m.group(0) if m.group(0) in terms else m.group(0)[0]  # a run of a one-character term: that term
        if term in seen or _in_markup(html_text, m.start()):
            continue
        spans = spans or iter(_skipped_spans(html_text))
        while (not skipped or skipped[-1][0] <= m.start()) and (span := next(spans, None)) is not None:
            skipped.append(span)
        i = bisect.bisect_right(skipped, (m.start(), len(html_text) + 1)) - 1
        if i >= 0 and skipped[i][0] <= m.start() < skipped[i][1]:
            continue
        seen.add(term)
        out.append(html_text[pos : m.start()])
        out.append(f'<abbr title="{html.escape(terms[term], quote=True)}">{m.group(0)}</abbr>')
        pos = m.end()
        if len(seen) == len(terms):
            break
    out.append(html_text[pos:])
    return "".join(out)
