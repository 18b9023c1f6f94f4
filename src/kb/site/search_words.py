"""arXiv ids as one search word each: what a page adds to its text for the index.

Pagefind's Chinese segmentation cuts ``2512.08093`` at the dot, so the index holds the id as two
words, ``2512`` (which every id of that month shares: one of the largest entries of the index) and
``08093``.  A query for an id then downloads the index chunks of both, and the month's chunk is
large.  So after each id a page writes as text, :func:`mark` adds the id as one word
(:func:`word`: ``arxiv251208093``; ``hep-th/9901001``: ``arxivhepth9901001``; ``math.GT/0309136``:
``arxivmath0309136``, as arXiv writes it) in a hidden element:
nothing a reader sees, copies or hears.  The header search (``assets/kb-search-results.js``, its
``idWord``) turns an id typed into the box into the same word, searches for that one word, and
shows the id as written where Pagefind's excerpt quotes the word.

Ids inside code (a BibTeX entry, which its copy button copies), scripts and attributes (a link's
address) are left as they are.  The id is found the way the rest of the knowledge base finds it
(:func:`kb.data.arxiv_id.find_ids`).

The same goes for a term with other names (:data:`kb.messages.SYNONYMS`: ``KV Cache`` /
``KV 缓存`` / ``键值缓存``): after each name a page writes, one hidden word for the term
(:func:`term_word`: ``kbsynkvcache``), so a search for any of its names asks for that word too
(kb-search.js) and finds the pages that write another name, ranked as the name ranks them there;
the word is left out of what a result shows.  Pure text in, text out.
"""

from __future__ import annotations

import re

from kb.data import arxiv_id
from kb.messages import SYNONYMS
from kb.site.htmlpage import outer_spans

__all__ = ["PREFIX", "TERM_PREFIX", "mark", "term_word", "word"]

PREFIX = "arxiv"  # kb-search-results.js builds the same word (its ID_WORD)
TERM_PREFIX = "kbsyn"  # and the term's word (its TERM_WORD)
_NOT_WORD = re.compile(r"[^0-9a-z]")
# Elements whose text is not prose: an id there gets no word (the span would be copied with a
# BibTeX entry, or break a script).
_RAW = ("pre", "code", "script", "style", "textarea")


def _either_case(name: str) -> str:
    return "".join(f"[{c}{c.upper()}]" for c in name)


# Each name in either case, letter by letter: the matches of re.IGNORECASE, found in less than two
# thirds of the time (the engine looks for "<", then at the first letter, then at the name's)
_FIRST = "".join(sorted({c for n in _RAW for c in n[0] + n[0].upper()}))
_OPEN = re.compile(r"<(/?)(?=[" + _FIRST + "])(" + "|".join(map(_either_case, _RAW)) + r")\b")


def word(ident: arxiv_id.ArxivId) -> str:
    """The one index word of an id, any version: the letters and digits of its base as arXiv
    writes it (an old-style id without its subject class), lower case."""
    return PREFIX + _NOT_WORD.sub("", arxiv_id.canonical(ident.base).lower())


def term_word(group: tuple[str, ...]) -> str:
    """The one index word of a term with other names: its first name's letters and digits."""
    return TERM_PREFIX + _NOT_WORD.sub("", group[0].lower())


def _name_pattern(name: str) -> str:
    """A name as a page may write it: a space inside it optional, Latin letters whole words."""
    body = r"\s*".join(re.escape(part) for part in name.split())
    head = r"(?<![0-9A-Za-z])" if name[0].isascii() and name[0].isalnum() else ""
    tail = r"(?![0-9A-Za-z])" if name[-1].isascii() and name[-1].isalnum() else ""
    return head + body + tail


_TERMS = [term_word(group) for group in SYNONYMS]
_NAMES = re.compile(
    "|".join(f"(?P<t{i}>{'|'.join(map(_name_pattern, group))})" for i, group in enumerate(SYNONYMS)),
    re.IGNORECASE,
)


def mark(html: str) -> str:
    """``html`` with a hidden word after every arXiv id and every name of a term written in its text."""
    found = [(m.start, m.end, word(m.id)) for m in arxiv_id.find_ids(html)]
    found += [(m.start(), m.end(), _TERMS[int((m.lastgroup or "t0")[1:])]) for m in _NAMES.finditer(html)]
    if not found:
        return html
    raw = _raw_spans(html)
    out: list[str] = []
    pos = 0
    for start, end, hidden in sorted(found):
        if start < pos or _in_tag(html, start) or any(a <= start < b for a, b in raw):
            continue
        out.append(html[pos:end])
        out.append(f"<span hidden> {hidden} </span>")
        pos = end
    out.append(html[pos:])
    return "".join(out)


def _in_tag(html: str, at: int) -> bool:
    """Whether ``at`` is inside a tag (an attribute's value) rather than in text."""
    return html.rfind("<", 0, at) > html.rfind(">", 0, at)


def _raw_spans(html: str) -> list[tuple[int, int]]:
    """Where the :data:`_RAW` elements are: (start of the outermost opening tag, its closing tag)."""
    return outer_spans(_OPEN, html)
