"""The first use of each glossary term on a page, explained in place (pure).

:func:`explain_first_uses` wraps the first occurrence of each term of
:data:`kb.messages.GLOSSARY` in the page's text in ``<abbr title="…">`` (Material's
``content.tooltips`` shows the title; the 术语 page explains each term at length).  Only
text between tags is looked at, never inside links, code, headings, abbreviations, scripts,
styles or SVG, so no markup or attribute changes.
"""

from __future__ import annotations

import bisect
import html
import re
from collections.abc import Iterable, Iterator

from kb.messages import GLOSSARY

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


def _in_markup(html_text: str, pos: int, comments: bool = True) -> bool:
    """Whether ``pos`` is inside a tag or a comment (``comments``: the page may hold one)."""
    if html_text.rfind("<", 0, pos) > html_text.rfind(">", 0, pos):
        return True
    return comments and html_text.rfind("<!--", 0, pos) > html_text.rfind("-->", 0, pos)


def _groups(terms: Iterable[str]) -> dict[str, frozenset[str]]:
    """Each term with the terms that overlap it, directly or through others: written inside it, or
    ending with its start, or starting with its end.  Once all of a group are used, its places can
    be passed over: they cover no other term's."""
    groups = {t: {t} for t in terms}

    def overlaps(a: str, b: str) -> bool:  # b inside a, or a ending with b's start
        return b in a or any(a.endswith(b[:k]) for k in range(1, len(b)))

    for t in groups:
        for u in groups:
            if groups[t] is not groups[u] and (overlaps(t, u) or overlaps(u, t)):
                merged = groups[t] | groups[u]
                for v in merged:
                    groups[v] = merged
    return {t: frozenset(group) for t, group in groups.items()}


_GROUPS = _groups(GLOSSARY)


def explain_first_uses(html_text: str, glossary: dict[str, str] | None = None) -> str:
    """``html_text`` with the first use of each term wrapped in an ``<abbr>`` with its explanation."""
    terms = GLOSSARY if glossary is None else glossary
    pattern, groups = (_TERMS, _GROUPS) if glossary is None else (_pattern(list(terms)), _groups(terms))
    skipped: list[tuple[int, int]] = []  # the spans up to the last candidate, found as candidates need them
    spans: Iterator[tuple[int, int]] | None = None
    seen: set[str] = set()
    done: set[str] = set()  # the used groups (_groups): their later places go unread
    comments = "<!--" in html_text  # else a place's look back for one would read the page up to it
    out: list[str] = []
    pos = 0
    for m in _matches(html_text, pattern, terms, done):
        term = m.group(0) if m.group(0) in terms else m.group(0)[0]  # a run of a one-character term: that term
        if term in seen or _in_markup(html_text, m.start(), comments):
            continue
        spans = spans or iter(_skipped_spans(html_text))
        while (not skipped or skipped[-1][0] <= m.start()) and (span := next(spans, None)) is not None:
            skipped.append(span)
        i = bisect.bisect_right(skipped, (m.start(), len(html_text) + 1)) - 1
        if i >= 0 and skipped[i][0] <= m.start() < skipped[i][1]:
            continue
        seen.add(term)
        if groups[term] <= seen:
            done |= groups[term]
        out.append(html_text[pos : m.start()])
        out.append(f'<abbr title="{html.escape(terms[term], quote=True)}" tabindex="0">{m.group(0)}</abbr>')
        pos = m.end()
        if len(seen) == len(terms):
            break
    out.append(html_text[pos:])
    return "".join(out)


def _matches(text: str, pattern: re.Pattern[str], terms: Iterable[str], done: set[str]) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` (``pattern`` is :func:`_pattern` of ``terms``): the matches the
    regex engine finds left to right, each from where the last ended; but none at the places of the
    terms in ``done``, which the caller adds to as it goes: whole groups of :func:`_groups`, so
    leaving them out changes no other match.

    A match starts where a term is written, so it is tried only there: each term's next place is
    found by ``str.find`` (a fast substring search) and the pattern is matched at the nearest.  The
    regex engine scanning the page for any of the terms takes about ten times as long: it tests each
    character against the terms' first ones."""
    # each term's next place at or after where the scan stands (an empty term is never a use)
    ahead = {t: at for t in terms if t and (at := text.find(t)) >= 0}
    while ahead:
        m = pattern.match(text, min(ahead.values()))
        assert m is not None  # a term is written there
        yield m
        end = m.end()
        for t, at in list(ahead.items()):
            if t in done:
                del ahead[t]
            elif at < end:
                at = text.find(t, end)
                if at < 0:
                    del ahead[t]
                else:
                    ahead[t] = at
