"""The text of an HTML page or fragment, walked once, with the one policy on which text is not prose.

Every place that adds to a page's text (arXiv ids linked, :mod:`kb.render.autolink`; glossary
terms explained, :mod:`kb.render.glossary`; hidden search words, :mod:`kb.site.search_words`)
and every place that reads a page's elements (search marks, :func:`kb.site.search.mark`; headings
and anchors, :mod:`kb.site.htmlpage`) walks the page with :func:`tokens`: its tags, its text runs
(with their offsets and the elements open around them) and its other markup, in order.  Each
text run carries how far it is protected (:data:`POLICY`): the open element that protects it
most decides; a reader skips the runs at or above its own bar.

The page is tokenized as HTML's tokenizer does, by regular expressions, in one pass: tags with
their attributes (a ``>`` inside a quoted value is the value's), comments (``<!-->`` too, and
``--!>`` ends one), ``<![CDATA[…]]>`` (in SVG and MathML; elsewhere a bogus comment up to the
first ``>``), doctypes and ``<?…>``, and the raw text of ``<script>``, ``<style>``,
``<textarea>``, ``<title>`` and their kind, which runs to its own end tag (a ``</div>`` in a
script's string is text).  A character reference (``&lt;``) is markup too: no text run holds
part of one, so nothing found in text splits one.  Two simplifications, both of which only a
hand-broken page meets: a self-closing tag (``<a/>``) opens nothing (as in SVG; an HTML element
other than a raw-text one would open in a browser), and an end tag closes the nearest open
element of its name (a stray one, ``</pre>`` inside ``<code>``, closes nothing), with none of
HTML's implied ends.  Pure: offsets in, edits out (:func:`splice`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, NamedTuple, TypeVar

__all__ = ["CODE", "CONTROL", "END", "LABEL", "MARKUP", "POLICY", "PROSE", "START", "TEXT"]
__all__ += ["Edit", "Places", "Reader", "Token", "attributes", "edit", "splice", "tokens"]

# How far a text run is protected, lowest first; a reader leaves the runs at or above its bar.
PROSE = 0  # text a reader reads: search words are added here (and in links, headings, ...)
LABEL = 1  # text that names something: no tooltip (the glossary's bar)
CONTROL = 2  # text inside something a reader clicks: no link or other control inside it (autolink's bar)
CODE = 3  # not prose at all: nothing is added (every reader's bar)

# The one skip policy: the elements that protect their text, each with its reason.
POLICY: dict[str, int] = {
    # not prose: machine text, copied or run as it is, or not text at all
    "code": CODE,  # code: copied as written (a BibTeX entry's copy button copies its <pre><code>)
    "pre": CODE,  # preformatted: code blocks, program output
    "kbd": CODE,  # keys and commands a reader types
    "samp": CODE,  # a program's output
    "var": CODE,  # a variable's name in code or a formula
    "script": CODE,  # a program: an added element breaks it
    "style": CODE,  # a stylesheet
    "template": CODE,  # inert markup, not shown
    "textarea": CODE,  # raw text a reader edits
    "title": CODE,  # the document's title: text only, no elements
    "noscript": CODE,  # raw text where scripts run (every reader's browser)
    "iframe": CODE,  # raw text (fallback content is never shown)
    "svg": CODE,  # drawings: their text is placed by coordinates, an HTML element in them is not shown
    "math": CODE,  # formulas: MathML, not prose
    # controls: a link or a focusable tooltip may not be put inside them
    "a": CONTROL,  # a link in a link is not allowed (and the inner one would win the click)
    "button": CONTROL,  # a button's content is its label: no interactive content inside
    "summary": CONTROL,  # clicking it opens its <details>: a link inside would take the click
    "select": CONTROL,  # a control's options are text only
    "label": CONTROL,  # clicking it focuses its control
    # labels: what they say is a name, explained elsewhere; a tooltip there repeats on every use
    "abbr": LABEL,  # explained already, by its own title
    "dfn": LABEL,  # the defining use of a term
    "h1": LABEL,  # a heading names a section; its text is the table of contents' entry and the page's title
    "h2": LABEL,
    "h3": LABEL,
    "h4": LABEL,
    "h5": LABEL,
    "h6": LABEL,
}

TEXT, START, END, MARKUP = range(4)  # the kinds of token


class Token(NamedTuple):
    kind: int  # TEXT, START (a start tag), END (an end tag) or MARKUP (comment, doctype, CDATA, reference)
    start: int  # offsets in the page: page[start:end] is the token as written
    end: int
    name: str  # a tag's element name, lower case ("" for the other kinds)
    level: int  # how far text here is protected (POLICY): the highest of the open elements
    stack: tuple[str, ...]  # the names of the open elements, outermost first (a start tag's: with its own)


Edit = tuple[int, int, str]  # page[start:end] becomes the string
T = TypeVar("T")

# Elements whose content is raw text, up to their own end tag (HTML's RAWTEXT and RCDATA elements)
_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript"})
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source"}
    | {"track", "wbr"}
)
_FOREIGN = frozenset({"svg", "math"})  # where <![CDATA[ opens a CDATA section
_REFERENCE = r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);"
# An attribute as HTML's tokenizer reads it: a name, then optionally = and a value, quoted or
# unquoted up to a space or ">".  Every quantifier is possessive: the scan is linear.
_ATTRIBUTE = r"""[^\s/>][^\s/>=]*+(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>]*+))?+"""
_TOKEN = re.compile(
    # text: up to a "<" that starts markup or a character reference
    r"((?:[^<&]++|&(?!" + _REFERENCE[1:] + r")|<(?![A-Za-z/!?]))++)"
    # a tag: its name, its attributes (spaces or slashes between them), "/" before ">" if self-closing
    r"|<(/?+)([A-Za-z][^\s/>]*+)((?:[\s/]*+" + _ATTRIBUTE + r")*+)[\s/]*+>"
    r"|" + _REFERENCE + r"|<!--(?:-?>|.*?(?:--!?>|\Z))"  # a comment ("<!-->" is one)
    r"|<(?:!|\?|/(?![A-Za-z]))[^>]*+(?:>|\Z)"  # a doctype, <?…>, </ and no letter: bogus comments
    r"|.++",  # a tag the page's end cuts: a browser drops it
    re.DOTALL,
)
_ATTRIBUTES = re.compile(r"""([^\s/>][^\s/>=]*+)(?:\s*+=\s*+("[^"]*+"|'[^']*+'|[^\s>]*+))?+""")
_CDATA = re.compile(r"<!\[CDATA\[.*?(?:\]\]>|\Z)", re.DOTALL)
_RAW_END = {n: re.compile(r"</" + n + r"(?=[\s/>])|\Z", re.IGNORECASE) for n in _RAW}


def tokens(page: str) -> Iterator[Token]:
    """The tokens of ``page`` in order; together they cover it, byte for byte."""
    stack: tuple[str, ...] = ()
    levels = [PROSE]  # the level inside each open element (and outside all)
    level, pos, size, match = PROSE, 0, len(page), _TOKEN.match
    while pos < size:
        m = match(page, pos)
        assert m is not None  # the last alternative matches anything
        start, pos = pos, m.end()
        name = m.group(3)
        if name is None:
            if m.lastindex == 1:
                yield Token(TEXT, start, pos, "", level, stack)
            elif page.startswith("<![CDATA[", start) and _FOREIGN.intersection(stack):
                pos = _CDATA.match(page, start).end()  # type: ignore[union-attr]  # it matches to the end at most
                yield Token(MARKUP, start, pos, "", level, stack)
            else:
                yield Token(MARKUP, start, pos, "", level, stack)
            continue
        name = name.lower()
        if m.group(2):  # an end tag: closes the nearest open element of its name, if any
            if name in stack:
                at = len(stack) - 1 - stack[::-1].index(name)
                yield Token(END, start, pos, name, levels[at + 1], stack)
                stack, levels = stack[:at], levels[: at + 1]
                level = levels[-1]
            else:
                yield Token(END, start, pos, name, level, stack)
            continue
        inner = max(level, POLICY.get(name, PROSE))
        yield Token(START, start, pos, name, inner, (*stack, name))
        if name in _RAW:  # raw text up to its end tag, which is read next
            stop = _RAW_END[name].search(page, pos).start()  # type: ignore[union-attr]  # \Z matches
            if stop > pos:
                yield Token(TEXT, pos, stop, "", inner, (*stack, name))
            pos = stop
        elif name in _VOID or page[m.end(4) : pos - 1].endswith("/"):  # opens nothing
            continue
        stack, level = (*stack, name), inner
        levels.append(level)


def attributes(tag: str) -> dict[str, str]:
    """A start tag's attributes (``tag`` as written, from ``<`` to ``>``), names in lower case,
    values as written (references not decoded); the first of a name counts, as in HTML."""
    out: dict[str, str] = {}
    body = tag[1:-1]
    start = len(body) - len(body.lstrip("/")) + 1
    while start < len(body) and body[start] not in " \t\n\r\f/":
        start += 1
    for m in _ATTRIBUTES.finditer(body, start):
        value = m.group(2) or ""
        out.setdefault(m.group(1).lower(), value[1:-1] if value[:1] in "\"'" and len(value) > 1 else value)
    return out


def splice(page: str, edits: Iterable[Edit]) -> str:
    """``page`` with each edit made; the edits in order of their place, none overlapping."""
    out: list[str] = []
    pos = 0
    for start, end, new in edits:
        out.append(page[pos:start])
        out.append(new)
        pos = end
    if not out:
        return page
    out.append(page[pos:])
    return "".join(out)


class Places(Generic[T]):
    """Places found in the whole page (``(start, end, what)``, in order, pulled as they are asked
    for), handed to a reader run by run: :meth:`within` gives those inside a run, and passes over
    those before it (in markup, or in text the reader leaves)."""

    def __init__(self, found: Iterable[tuple[int, int, T]]) -> None:
        self._found = iter(found)
        self._next = next(self._found, None)

    def within(self, token: Token) -> list[tuple[int, int, T]]:
        out = []
        while self._next is not None and self._next[0] < token.end:
            if self._next[0] >= token.start and self._next[1] <= token.end:
                out.append(self._next)
            self._next = next(self._found, None)
        return out


Reader = Callable[[str, Token], Iterable[Edit]]  # one token's edits (in order, within or at the token)


def edit(page: str, readers: Iterable[Reader]) -> str:
    """``page`` walked once, each token given to every reader in turn, with the edits they make
    (where two overlap, the one that starts first is made: at one place, the first reader's)."""
    readers = list(readers)
    if not readers:
        return page
    edits: list[tuple[int, int, int, str]] = []
    for token in tokens(page):
        for i, read in enumerate(readers):
            edits.extend((start, end, i, new) for start, end, new in read(page, token))
    edits.sort()
    kept: list[Edit] = []
    for start, end, _, new in edits:
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, new))
    return splice(page, kept)
