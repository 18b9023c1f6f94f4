"""The first use of each glossary term on a page, explained in place (pure).

:func:`explain_first_uses` wraps the first occurrence of each term of
:data:`kb.render.messages.GLOSSARY` in the page's text in ``<abbr title="…">`` (Material's
``content.tooltips`` shows the title; the 术语 page explains each term at length).  Only
text between tags is looked at, never inside links, code, headings, abbreviations, scripts,
styles or SVG, so no markup or attribute changes.
"""

from __future__ import annotations

import html
import re

from kb.render.messages import GLOSSARY

_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.S)
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
    return re.compile("|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)))


_TERMS = _pattern(list(GLOSSARY))


def explain_first_uses(html_text: str, glossary: dict[str, str] | None = None) -> str:
    """``html_text`` with the first use of each term wrapped in an ``<abbr>`` with its explanation."""
    terms = GLOSSARY if glossary is None else glossary
    pattern = _TERMS if glossary is None else _pattern(list(terms))
    seen: set[str] = set()
    depth = 0
    out: list[str] = []

    def wrap(m: re.Match[str]) -> str:
        term = m.group(0)
        if term in seen:
            return term
        seen.add(term)
        return f'<abbr title="{html.escape(terms[term], quote=True)}">{term}</abbr>'

    pos = 0
    for tag in _TAG.finditer(html_text):
        text = html_text[pos : tag.start()]
        out.append(pattern.sub(wrap, text) if depth == 0 and len(seen) < len(terms) else text)
        markup = tag.group(0)
        name = _NAME.match(markup)
        if name and name.group(1).lower() in SKIP and not markup.endswith("/>"):
            depth += -1 if markup.startswith("</") else 1
            depth = max(depth, 0)
        out.append(markup)
        pos = tag.end()
    tail = html_text[pos:]
    out.append(pattern.sub(wrap, tail) if depth == 0 else tail)
    return "".join(out)
