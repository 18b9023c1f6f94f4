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

Ids inside code (a BibTeX entry, which its copy button copies), scripts, typed keys and the
rest the walker's policy protects from anything (:data:`kb.render.htmltext.CODE`), and in
attributes (a link's address), are left as they are.  The id is found the way the rest of the knowledge base finds it
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
from kb.render import htmltext

__all__ = ["PREFIX", "TERM_PREFIX", "hidden_word", "mark", "term_word", "word", "words"]

PREFIX = "arxiv"  # kb-search-results.js builds the same word (its ID_WORD)
TERM_PREFIX = "kbsyn"  # and the term's word (its TERM_WORD)
_NOT_WORD = re.compile(r"[^0-9a-z]")


def word(ident: arxiv_id.ArxivId) -> str:
    """The one index word of an id, any version: the letters and digits of its base as arXiv
    writes it (an old-style id without its subject class), lower case."""
    return PREFIX + _NOT_WORD.sub("", arxiv_id.canonical(ident.base).lower())


def hidden_word(word: str) -> str:
    """A word for the index alone: in a hidden element (the shortest: ``<i>``, inline as the text
    around it, so the blanks keep it a word of its own; it is in pages thousands of times)."""
    return f"<i hidden> {word} </i>"


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
# Each name's first letter, looked ahead for: the engine then tries the names only where one may
# start, which takes a fifth of the time.  There a Latin letter or digit starts a name only at a
# word's start (each such name's own head, :func:`_name_pattern`), checked before the names: most
# of a page's Latin letters are inside words and markup, which takes a third of the time again.
_FIRST = "".join(sorted({name[0] for group in SYNONYMS for name in group}))
_OTHER = "".join(c for c in _FIRST if not (c.isascii() and c.isalnum()))  # no head
_NAMES = re.compile(
    f"(?=[{re.escape(_FIRST)}])(?:(?<![0-9A-Za-z])|(?=[{re.escape(_OTHER)}]))(?:"
    + "|".join(f"(?P<t{i}>{'|'.join(map(_name_pattern, group))})" for i, group in enumerate(SYNONYMS))
    + ")",
    re.IGNORECASE,
)


def words(page: str) -> htmltext.Reader:
    """The reader (:func:`kb.render.htmltext.edit`) that puts a hidden word after every arXiv id and
    every name of a term written in ``page``'s text: everywhere but where the walker's policy
    protects the text from anything (:data:`kb.render.htmltext.CODE`)."""
    found = [(m.start, m.end, word(m.id)) for m in arxiv_id.find_ids(page)]
    found += [(m.start(), m.end(), _TERMS[int((m.lastgroup or "t0")[1:])]) for m in _NAMES.finditer(page)]
    places = htmltext.Places(sorted(found))
    taken = [0]  # where the last place given a word ends: a place overlapping it gets none

    def read(page: str, token: htmltext.Token) -> list[htmltext.Edit]:
        if token.kind != htmltext.TEXT or token.level >= htmltext.CODE or not places.before(token.end):
            return []
        out = []
        for start, end, hidden in places.within(page, token, htmltext.CODE):
            if start >= taken[0]:
                taken[0] = end
                out.append((end, end, hidden_word(hidden)))
        return out

    return read


def mark(html: str) -> str:
    """``html`` with a hidden word after every arXiv id and every name of a term written in its text."""
    return htmltext.edit(html, [words(html)])
