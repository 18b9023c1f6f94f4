"""The first use of each glossary term on a page, explained in place (pure).

:func:`explain_first_uses` wraps the first occurrence of each term of
:data:`kb.messages.GLOSSARY` in the page's text in ``<abbr title="…">`` (Material's
``content.tooltips`` shows the title; the 术语 page explains each term at length).  Only
the text the walker's policy leaves to a tooltip is looked at (:data:`kb.render.htmltext.LABEL`:
not in headings, abbreviations, links, code, scripts, ...), so no markup or attribute changes.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Iterator

from kb.messages import GLOSSARY
from kb.render import htmltext


def _pattern(terms: list[str]) -> re.Pattern[str]:
    """Any of ``terms``, the longest first; a term of one character (⭐) with the run it is in
    (⭐⭐⭐⭐ is one use, explained whole)."""
    return re.compile(
        "|".join(re.escape(t) + ("+" if len(t) == 1 else "") for t in sorted(terms, key=len, reverse=True))
    )


_TERMS = _pattern(list(GLOSSARY))


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


def explainer(page: str, glossary: dict[str, str] | None = None) -> htmltext.Reader:
    """The reader (:func:`kb.render.htmltext.edit`) that wraps the first use of each term in
    ``page``'s text in an ``<abbr>`` with its explanation."""
    terms = GLOSSARY if glossary is None else glossary
    pattern, groups = (_TERMS, _GROUPS) if glossary is None else (_pattern(list(terms)), _groups(terms))
    seen: set[str] = set()
    done: set[str] = set()  # the used groups (_groups): their later places go unread
    found = ((m.start(), m.end(), m) for m in _matches(page, pattern, terms, done) if _term(m, terms) not in seen)
    places = htmltext.Places(found)

    def read(page: str, token: htmltext.Token) -> Iterator[htmltext.Edit]:
        if token.kind != htmltext.TEXT or token.level >= htmltext.LABEL or len(seen) == len(terms):
            return
        for start, end, m in places.within(page, token, htmltext.LABEL):
            term = _term(m, terms)
            if term in seen:
                continue
            seen.add(term)
            if groups[term] <= seen:
                done.update(groups[term])
            yield start, end, f'<abbr title="{html.escape(terms[term], quote=True)}" tabindex="0">{m.group(0)}</abbr>'

    return read


def _term(m: re.Match[str], terms: dict[str, str]) -> str:
    """The term a match is a use of (a run of a one-character term: that term)."""
    return m.group(0) if m.group(0) in terms else m.group(0)[0]


def explain_first_uses(html_text: str, glossary: dict[str, str] | None = None) -> str:
    """``html_text`` with the first use of each term wrapped in an ``<abbr>`` with its explanation."""
    return htmltext.edit(html_text, [explainer(html_text, glossary)])


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
