"""The text of an HTML page or fragment, walked once, with the one policy on which text is not prose.

Every place that adds to a page's text (arXiv ids linked, :mod:`kb.render.autolink`; glossary
terms explained, :mod:`kb.render.glossary`; hidden search words, :mod:`kb.site.search.words`)
and every place that reads a page's elements (search marks, :func:`kb.site.search.mark`; headings
and anchors, :mod:`kb.site.pages.htmlpage`; where a macro call's output lands, :mod:`kb.render.placement`;
an edition's links and text, :mod:`kb.editions.freeze` and :mod:`kb.editions.changes`) walks the page
with :func:`tokens`: its tags, its text runs (with their offsets and the elements open around them)
and its other markup, in order.  Each
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
element of its name and only it, with none of HTML's implied ends (a stray one, ``</pre>`` in
``<code>``, closes nothing; ``</p>`` leaves a ``<code>`` opened in the paragraph open, and a
browser reopens it after the paragraph).

A reader rarely needs every tag, and a walk that stops at each costs a Python step per tag: so
:func:`tokens` with ``names`` stops only at the tags of those elements, of the policy's and of
the raw-text ones, and passes over the rest in one match of a regular expression (a stretch:
text with the other elements' markup in it, and whole policy elements that hold only such, as
most links do).  :class:`Places` hands a reader the places it found in the whole page (ids,
terms) stretch by stretch, and :class:`Cursor` reads each one's level in its stretch; with the
end-tag rule above, it is the level the full walk gives.  Pure: offsets in, edits out
(:func:`splice`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Generic, NamedTuple, TypeVar

__all__ = ["CODE", "CONTROL", "END", "LABEL", "MARKUP", "POLICY", "PROSE", "START", "TEXT"]
__all__ += ["Cursor", "Edit", "Places", "Reader", "Token", "attribute_spans", "attributes", "edit", "splice", "tokens"]

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
    "xmp": CODE,  # raw text, shown as written (obsolete <pre>)
    "noembed": CODE,  # raw text, not shown
    "noframes": CODE,  # raw text, not shown
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
_QUOTED = r"""[^\s/>"'][^\s/>=]*+(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s>"'][^\s>]*+)?+)?+"""  # (_pieces)
_TEXT = r"(?:[^<&]++|&(?!" + _REFERENCE[1:] + r")|<(?![A-Za-z/!?]))++"  # up to markup or a reference
# A tag: its name, its attributes (spaces or slashes between them), "/" before ">" if self-closing
_TAG = r"<(/?+)([A-Za-z][^\s/>]*+)((?:[\s/]*+" + _ATTRIBUTE + r")*+)[\s/]*+>"
_COMMENT = r"<!--(?:-?>|.*?(?:--!?>|\Z))"  # "<!-->" is one
_TOKEN = re.compile(
    _TAG
    + "|"
    + _REFERENCE
    + "|"
    + _COMMENT
    + r"|<(?:!|\?|/(?![A-Za-z]))[^>]*+(?:>|\Z)"  # a doctype, <?…>, </ and no letter: bogus comments
    + r"|.++",  # a tag the page's end cuts: a browser drops it
    re.DOTALL,
)
_ATTRIBUTES = re.compile(r"""([^\s/>][^\s/>=]*+)(?:\s*+=\s*+("[^"]*+"|'[^']*+'|[^\s>]*+))?+""")
_CDATA = re.compile(r"<!\[CDATA\[.*?(?:\]\]>|\Z)", re.DOTALL)
_RAW_END = {n: re.compile(r"</" + n + r"(?=[\s/>])|\Z", re.IGNORECASE) for n in _RAW}
_SEEN = frozenset(POLICY.keys() | _RAW | _FOREIGN)  # the elements whose tags every walk stops at
_LEAVES = frozenset(POLICY.keys() - _RAW - _FOREIGN)  # the ones a stretch may hold whole (:func:`_stretch`)


def _pieces(
    seen: frozenset[str], leaves: frozenset[str], ends: bool, kept: frozenset[str] = frozenset()
) -> tuple[str, str]:
    """The expressions of what a stretch holds: the plain pieces (text, character references,
    comments, bogus comments, the tags of elements not ``seen`` with no attribute ``kept``) and
    a leaf (a whole element of ``leaves`` holding only plain pieces).  ``ends``: a comment the
    page's end cuts is one; else no piece but text matches when a match is cut inside it (a tag's
    quoted values are whole, and a quote starts no name or unquoted value, so a tag cut after a
    ">" in a value is no tag)."""
    end = r"|\Z" if ends else ""
    names = "|".join(sorted(seen, key=len, reverse=True))
    attribute = _ATTRIBUTE if ends else _QUOTED
    if kept:
        attribute = "(?!(?i:" + "|".join(sorted(kept)) + r")[\s=/>])" + attribute
    attrs = r"(?:[\s/]*+" + attribute + r")*+"
    other = r"</?+(?!(?i:" + names + r")[\s/>])[A-Za-z][^\s/>]*+" + attrs + r"[\s/]*+>"
    comment = r"<!--(?:-?>|.*?(?:--!?>" + end + "))"
    bogus = r"<(?:!(?!\[CDATA\[|--)|\?|/(?![A-Za-z]))[^>]*+(?:>" + end + ")"
    plain = f"(?:{_TEXT}|{_REFERENCE}|{comment}|{bogus}|{other})"
    leaf = "|".join(sorted(leaves, key=len, reverse=True))
    return plain, rf"<((?i:{leaf}))(?=[\s/>]){attrs}\s*+>{plain}*+</(?i:\1)(?=[\s/>]){attrs}[\s/]*+>"


@functools.lru_cache(maxsize=16)
def _stretch(names: frozenset[str] | None, kept: frozenset[str] = frozenset()) -> re.Pattern[str]:
    """A stretch of text, and (when ``names`` are given) of the markup in it the walk need not stop
    at: character references, comments, the tags of the elements neither in ``names`` nor in the
    policy nor raw text nor foreign, and whole policy elements that hold nothing else (a link's
    ``<a href="…">text</a>``: most of a page's tags), but a tag holding an attribute ``kept``.
    <![CDATA[ ends one (it may be a section)."""
    if names is None:
        return re.compile(_TEXT)
    plain, leaf = _pieces(names | _SEEN, _LEAVES - names, True, kept)
    return re.compile(f"(?:{plain}|{leaf})++", re.DOTALL)


def tokens(page: str, names: Collection[str] | None = None, attrs: Collection[str] = ()) -> Iterator[Token]:
    """The tokens of ``page`` in order; together they cover it, byte for byte.  With ``names``,
    only the tags of those elements and of the policy's (and raw-text and foreign ones) and the
    start tags holding an attribute of ``attrs`` are tokens, and not all of those: the rest of the
    markup is part of the TEXT tokens around it (:class:`Cursor` reads in one), and the stack
    holds the open elements of those names only."""
    if names is None:
        return _walk(page, 0, len(page), (), [PROSE], _stretch(None), None)
    seen = frozenset(names) | _SEEN
    return _walk(page, 0, len(page), (), [PROSE], _stretch(frozenset(names), frozenset(attrs)), seen)


def _walk(
    page: str,
    pos: int,
    size: int,
    stack: tuple[str, ...],
    levels: list[int],
    stretch: re.Pattern[str],
    seen: frozenset[str] | None,
) -> Iterator[Token]:
    """:func:`tokens` of ``page[pos:size]``, in the open elements ``stack`` (``levels``: the level
    outside them all, then inside each); only the elements ``seen`` (None: all) are put on it."""
    level = levels[-1]
    while pos < size:
        m = stretch.match(page, pos, size)
        if m is not None:
            yield Token(TEXT, pos, m.end(), "", level, stack)
            pos = m.end()
            if pos == size:
                return
        m = _TOKEN.match(page, pos, size)
        assert m is not None  # the last alternative matches anything
        start, pos = pos, m.end()
        name = m.group(2)
        if name is None:
            if page.startswith("<![CDATA[", start) and _FOREIGN.intersection(stack):
                pos = _CDATA.match(page, start, size).end()  # type: ignore[union-attr]  # to the end at most
            yield Token(MARKUP, start, pos, "", level, stack)
            continue
        name = name.lower()
        if m.group(1):  # an end tag: closes the nearest open element of its name, if any, and only it
            at = len(stack) - 1 - stack[::-1].index(name) if name in stack else len(stack)
            yield Token(END, start, pos, name, levels[at + 1] if at < len(stack) else level, stack)
            stack, levels = _close(stack, levels, at)
            level = levels[-1]
            continue
        inner = max(level, POLICY.get(name, PROSE))
        yield Token(START, start, pos, name, inner, (*stack, name))
        if name in _RAW:  # raw text up to its end tag, which is read next
            stop = _RAW_END[name].search(page, pos, size).start()  # type: ignore[union-attr]  # \Z matches
            if stop > pos:
                yield Token(TEXT, pos, stop, "", inner, (*stack, name))
            pos = stop
        elif name in _VOID or page[m.end(3) : pos - 1].endswith("/") or (seen is not None and name not in seen):
            continue  # opens nothing, or nothing the walk follows
        stack, level = (*stack, name), inner
        levels.append(level)


def _close(stack: tuple[str, ...], levels: list[int], at: int) -> tuple[tuple[str, ...], list[int]]:
    """``stack`` without its element at ``at`` (none: ``at`` is its length), and the levels."""
    if at == len(stack):
        return stack, levels
    stack, levels = stack[:at] + stack[at + 1 :], levels[: at + 1]
    for still in stack[at:]:
        levels.append(max(levels[-1], POLICY.get(still, PROSE)))
    return stack, levels


_PLAIN, _LEAF = _pieces(_SEEN, _LEAVES, ends=False)
_REACH = re.compile(f"(?:{_PLAIN}|{_LEAF})*+", re.DOTALL)  # a stretch up to a place, cut there
_REACH_PLAIN = re.compile(f"{_PLAIN}*+", re.DOTALL)
_LEAF_ELEMENT = re.compile(_LEAF, re.DOTALL)
_REFERENCE_AT = re.compile(_REFERENCE)
_OPENS = re.compile(r"[A-Za-z/!?]")  # after "<": markup starts
_LONGEST = 40  # characters: longer than any character reference


def _reach(pattern: re.Pattern[str], page: str, start: int, at: int) -> int:
    """How far ``pattern`` matches from ``start``, cut at ``at`` (a "<" just before ``at`` that
    starts markup there is not text: the cut hid what follows it)."""
    reached = pattern.match(page, start, at).end()  # type: ignore[union-attr]  # it matches ""
    if reached == at > start and page[at - 1] == "<" and _OPENS.match(page, at):
        return at - 1
    return reached


class Cursor:
    """Reads what stands at places of a TEXT token (of a walk with names: markup may be in it), in
    order: each read goes on from where the last stopped, by the expressions the walk matched the
    token with, cut at the place."""

    def __init__(self, page: str, token: Token) -> None:
        self.page, self.token = page, token
        self.raw = bool(token.stack) and token.stack[-1] in _RAW  # raw text (a script's) holds no markup
        self.since = token.start  # where a piece of the token starts, at or before the places read

    def _descend(self, at: int) -> tuple[int, int]:
        """``(at, level)`` when ``at`` is in text, else ``(start of the piece of markup holding it,
        level)``."""
        page, token = self.page, self.token
        reached = _reach(_REACH, page, self.since, at)
        self.since = reached
        leaf = _LEAF_ELEMENT.match(page, reached, token.end) if reached < at else None
        opened = _TOKEN.match(page, reached, token.end) if leaf is not None else None
        if leaf is None or leaf.end() <= at or opened is None or opened.end() > at:
            return reached, token.level  # in text, in a piece of markup, or in a whole element's start tag
        return _reach(_REACH_PLAIN, page, opened.end(), at), max(token.level, POLICY[leaf.group(1).lower()])

    def level(self, start: int, end: int) -> int | None:
        """The level of ``page[start:end]`` when it is text (of one text run: no markup in it, and
        not in a character reference), else None."""
        page = self.page
        if self.raw:
            return self.token.level
        if page.find("<", start, end) >= 0 or page.find("&", start, end) >= 0:
            return None
        at, level = self._descend(start)
        amp = page.rfind("&", max(self.token.start, start - _LONGEST), start)
        if at != start or (amp >= 0 and (ref := _REFERENCE_AT.match(page, amp)) is not None and ref.end() > start):
            return None
        return level


def attribute_spans(tag: str) -> Iterator[tuple[str, int, int]]:
    """A start tag's attributes in order (``tag`` as written, from ``<`` to ``>``): each name in
    lower case, with where its value stands in ``tag`` (inside its quotes; empty at the name's end
    when it has none), as written (references not decoded)."""
    start = len(tag) - len(tag.lstrip("</")) + 1
    while start < len(tag) - 1 and tag[start] not in " \t\n\r\f/":
        start += 1
    for m in _ATTRIBUTES.finditer(tag, start, len(tag) - 1):
        first, last = m.span(2) if m.group(2) else (m.end(), m.end())
        quoted = tag[first : first + 1] in ("'", '"') and last - first > 1
        yield m.group(1).lower(), first + quoted, last - quoted


def attributes(tag: str) -> dict[str, str]:
    """A start tag's attributes (:func:`attribute_spans`), names in lower case, values as written
    (references not decoded); the first of a name counts, as in HTML."""
    out: dict[str, str] = {}
    for name, first, last in attribute_spans(tag):
        out.setdefault(name, tag[first:last])
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

    def before(self, end: int) -> bool:
        """Whether a place not yet handed out starts before ``end`` (else :meth:`within` gives none)."""
        return self._next is not None and self._next[0] < end

    def within(self, page: str, token: Token, below: int) -> list[tuple[int, int, T]]:
        """The places inside the text of ``token`` (:meth:`Cursor.level`) whose level is below ``below``."""
        out = []
        cursor = None
        while self._next is not None and self._next[0] < token.end:
            start, end, _ = self._next
            if start >= token.start and end <= token.end:
                cursor = cursor or Cursor(page, token)
                level = cursor.level(start, end)
                if level is not None and level < below:
                    out.append(self._next)
            self._next = next(self._found, None)
        return out


Reader = Callable[[str, Token], Iterable[Edit]]  # one token's edits (in order, within or at the token)


def edit(page: str, readers: Iterable[Reader], names: Collection[str] = (), attrs: Collection[str] = ()) -> str:
    """``page`` walked once (:func:`tokens` with ``names`` and ``attrs``: the elements and attributes
    the readers look at, beside the policy's), each token given to every reader in turn, with the
    edits they make (where two overlap, the one that starts first is made: at one place, the first
    reader's)."""
    readers = list(readers)
    if not readers:
        return page
    edits: list[tuple[int, int, int, str]] = []
    numbered = list(enumerate(readers))
    for token in tokens(page, names, attrs):
        for i, read in numbered:
            for start, end, new in read(page, token):  # mostly none: no generator made per token
                edits.append((start, end, i, new))
    edits.sort()
    kept: list[Edit] = []
    for start, end, _, new in edits:
        if not kept or start >= kept[-1][1]:
            kept.append((start, end, new))
    return splice(page, kept)
