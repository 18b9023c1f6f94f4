"""Markdown shapes that Python-Markdown converts in more than linear time, refused before rendering.

Found by measuring (``scripts/bench_shapes.py``; results in docs/performance.md).  Each rule
bounds a count, so what passes converts in time linear in the page's size:

- **Long paragraphs.**  Each inline element found in a paragraph (an escape ``\\*``, a code
  span, a link) is put back by copying the paragraph's text: many of them in a long paragraph
  cost the square of its length.  A paragraph (text between blank lines) has at most
  :data:`MAX_PARAGRAPH` characters.
- **Unclosed openers in one paragraph.**  For each ``[`` Python-Markdown looks for the matching
  ``]``, for each ``](`` for the matching ``)``, through the rest of the paragraph's text, and
  for each ``<`` that starts a tag
  or an autolink (``<a``, ``<http:``) it searches on for a ``>``: a run of openers that never
  close costs the square of the paragraph's length.  At most :data:`MAX_UNCLOSED` of each in a
  paragraph (text between blank lines, outside fenced code).
- **Headings with the same anchor.**  The table of contents gives the n-th heading with the
  same id the suffix ``_n`` by trying ``_1``, ``_2``, ... in turn: at most :data:`MAX_SAME_ID`.
- **Abbreviations.**  Each definition (``*[NET-new]: ...``) is one more alternative of a pattern
  matched over all the page's text: at most :data:`MAX_ABBREVIATIONS`.
- **Nested Markdown-in-HTML.**  Each ``<div markdown>`` inside another is a recursion of the
  parser (a deep one crashes it): at most :data:`MAX_HTML_NESTING` levels.

Pure: no MkDocs import (the heading rule reads ``markdown``'s own slugify).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from kb.data.diagnostics import Diagnostic, line_col

MAX_PARAGRAPH = 16 * 1024  # characters
MAX_UNCLOSED = 32  # per paragraph, of each opener
MAX_SAME_ID = 64
MAX_ABBREVIATIONS = 200
MAX_HTML_NESTING = 16

_LINK = re.compile(r"\]\(|[()]")  # a link's address opens at "](" (and nests parentheses)
_BRACKET = re.compile(r"[\[\]]")
_ANGLE = re.compile(r"(<(?=[A-Za-z/]))|[<>]")
_HEADING = re.compile(r"^#{1,6}([^\n]*)$|^(?=[^\n]*\S)([^\n]+)\n(?:=+|-+)[ \t]*$", re.M)
_SUFFIX = re.compile(r"_\d+$")
_ABBR = re.compile(r"^\*\[", re.M)
_HTML_OPEN = re.compile(r"^[ \t]*<[A-Za-z][\w-]*\b([^>\n]*)>", re.M)
_HTML_CLOSE = re.compile(r"^[ \t]*</[A-Za-z][\w-]*\s*>", re.M)


def _paragraphs(text: str, start: int) -> Iterator[tuple[int, int]]:
    """(start, end) offsets of the runs of non-blank lines of ``text[start:]`` (as Markdown splits
    blocks: at lines of spaces and tabs only; fenced code is counted like text)."""
    begin = -1
    pos = start
    for line in text[start:].split("\n"):
        if line.strip(" \t\r"):
            if begin < 0:
                begin = pos
        elif begin >= 0:
            yield begin, pos
            begin = -1
        pos += len(line) + 1
    if begin >= 0:
        yield begin, len(text)


def _unclosed(text: str, begin: int, end: int, pattern: re.Pattern[str], opener: str, closer: str) -> Iterator[int]:
    """Offsets of the ``opener`` in ``text[begin:end]`` that no ``closer`` closes (``pattern``'s
    other matches open too: they nest)."""
    waiting: list[int] = []
    for m in pattern.finditer(text, begin, end):
        if m.group() != closer:
            waiting.append(m.start())
        elif waiting:
            waiting.pop()
    return (offset for offset in waiting if text.startswith(opener, offset))


def _unclosed_tags(text: str, begin: int, end: int) -> Iterator[int]:
    """Offsets of the ``<`` starting a tag or autolink in ``text[begin:end]`` that no ``>`` closes
    before the next ``<``."""
    pending = -1
    for m in _ANGLE.finditer(text, begin, end):
        if m.group() == ">":
            pending = -1
            continue
        if pending >= 0:
            yield pending
        pending = m.start() if m.group(1) else -1
    if pending >= 0:
        yield pending


def _too_many(offsets: Iterator[int]) -> int | None:
    for i, offset in enumerate(offsets):
        if i == MAX_UNCLOSED:
            return offset
    return None


def _same_ids(text: str, start: int) -> Iterator[tuple[int, str]]:
    from markdown.extensions.toc import slugify

    seen: Counter[str] = Counter()
    for m in _HEADING.finditer(text, start):
        title = (m.group(1) if m.group(1) is not None else m.group(2)).strip(" \t#")
        if title.endswith("}") and "{" in title:  # attributes: { #id .class }
            title = title[: title.rfind("{")]
        slug = _SUFFIX.sub("", slugify(title, "-"))
        seen[slug] += 1
        if seen[slug] == MAX_SAME_ID + 1:
            yield m.start(), slug


def shape_diagnostics(text: str, start: int, shown: str) -> list[Diagnostic]:
    """Located errors for the shapes of the page ``text`` (Markdown from ``start``) that
    Python-Markdown would convert in more than linear time."""
    out: list[Diagnostic] = []

    def add(offset: int, what: str, how: str, why: str = "Markdown takes quadratic time on it") -> None:
        line, col = line_col(text, offset)
        out.append(Diagnostic(shown, line, col, f"{what}: {why}; {how}", code="markdown"))

    for begin, end in _paragraphs(text, start):
        if end - begin > MAX_PARAGRAPH:
            add(
                begin,
                f"a paragraph (or table, list, code block) of {end - begin} characters without a blank line; "
                f"the limit is {MAX_PARAGRAPH}",
                "split it with blank lines",
            )
            continue
        if (at := _too_many(_unclosed(text, begin, end, _LINK, "](", ")"))) is not None:
            add(
                at,
                f"more than {MAX_UNCLOSED} links in this paragraph whose '](' no ')' closes",
                "close each link's address with ')', or write a bracket that starts no link as \\[ or \\]",
            )
        if (at := _too_many(_unclosed(text, begin, end, _BRACKET, "[", "]"))) is not None:
            add(
                at,
                f"more than {MAX_UNCLOSED} '[' in this paragraph that no ']' closes",
                "close each link's text with ']', or write a bracket that starts no link as \\[",
            )
        if (at := _too_many(_unclosed_tags(text, begin, end))) is not None:
            add(
                at,
                f"more than {MAX_UNCLOSED} '<' in this paragraph that start a tag no '>' closes",
                "write a '<' that starts no tag as &lt;",
            )
    for offset, slug in _same_ids(text, start):
        add(offset, f"more than {MAX_SAME_ID} headings with the anchor '{slug}'", "give the headings distinct titles")
    abbreviations = list(_ABBR.finditer(text, start))
    if len(abbreviations) > MAX_ABBREVIATIONS:
        add(
            abbreviations[MAX_ABBREVIATIONS].start(),
            f"more than {MAX_ABBREVIATIONS} abbreviation definitions ('*[…]:') in one page",
            "keep the terms in the glossary (src/kb/messages/__init__.py GLOSSARY)",
        )
    depth = 0
    opens = [(m.start(), 1) for m in _HTML_OPEN.finditer(text, start) if "markdown" in m.group(1)]
    for offset, step in sorted(opens + [(m.start(), -1) for m in _HTML_CLOSE.finditer(text, start)]):
        depth = max(depth + step, 0)
        if depth > MAX_HTML_NESTING:
            what = f"HTML blocks with 'markdown' nested more than {MAX_HTML_NESTING} deep"
            add(offset, what, "nest fewer blocks", "each level is a recursion of Markdown's parser")
            break
    return out
