"""Where a template page's macro call may stand: only where text goes.

The plugin replaces each call by a placeholder (:class:`Placeholders`), lets
Markdown convert the page and the sanitizer clean it, then puts the macro's HTML where the
placeholder is.  A placeholder that Markdown or the page put inside a tag (an attribute value,
e.g. ``<a title="{{ … }}">``, a link's address, the ``id`` the table of contents makes from a
heading) would put that HTML inside the tag; one in a comment or a removed element is lost.
So after cleaning, each placeholder must be found exactly once, in the text of an element:
:func:`misplaced` says where else it is, :func:`diagnostics` locates it at the call.  The build
(``on_page_content``) checks the page it converted; ``kb validate`` converts the page the same
way (:func:`page_diagnostics`) and runs the same check.  Pure: no MkDocs import.
"""

from __future__ import annotations

import html
import re
import secrets
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from kb.data.diagnostics import Diagnostic, line_col
from kb.data.template import Call, substitute
from kb.render import htmltext

_BLOCK = re.compile(r"\s*<(h[1-6]|p|div|ul|ol|table|details|section|pre|figure|nav|blockquote|hr)[\s>]", re.IGNORECASE)


class Placeholders:
    """Stand-ins for HTML that must not go through Markdown: a token Markdown leaves alone
    (letters and digits only, unguessable so contributed text cannot forge it), swapped for
    the HTML after conversion.  Block-level HTML alone in a paragraph takes the paragraph's
    place; anything else (text, inline markup) stands where the token stood."""

    def __init__(self, nonce: str) -> None:
        self._nonce = nonce
        self._html: list[str] = []

    def add(self, fragment: str) -> str:
        self._html.append(fragment)
        return f"{self._nonce}x{len(self._html) - 1}x"

    def __bool__(self) -> bool:
        return bool(self._html)

    @property
    def pattern(self) -> re.Pattern[str]:
        """A placeholder in converted text; group 1 is its number."""
        return re.compile(re.escape(self._nonce) + r"x(\d+)x")

    def end(self, token: str) -> str:
        """The token that ends what follows the placeholder ``token`` until :meth:`collapse`."""
        return token[:-1] + "e"

    def collapse(self, converted: str) -> str:
        """The converted page with everything from a placeholder to its :meth:`end` left out (what
        was written there for Markdown's sake only), the placeholder kept."""
        nonce = re.escape(self._nonce)
        return re.sub(nonce + r"x(\d+)x.*?" + nonce + r"x\1e", self._nonce + r"x\1x", converted, flags=re.S)

    def swap(self, converted: str) -> str:
        """The converted page with each placeholder replaced by its HTML."""
        for i, fragment in enumerate(self._html):
            token = f"{self._nonce}x{i}x"
            block = f"<p>{token}</p>"
            if block in converted and _BLOCK.match(fragment):
                converted = converted.replace(block, fragment)
            else:
                converted = converted.replace(token, fragment)
        return converted


HOW = (
    "a macro call may stand only where text goes: write it on a line of its own, outside HTML tags, links and comments"
)


def _places(page: str, token: re.Pattern[str]) -> tuple[Counter[int], dict[int, str]]:
    """How many times each placeholder stands in text, and where the others stand first."""
    text: Counter[int] = Counter()
    elsewhere: dict[int, str] = {}

    def see(value: str, place: str | None) -> None:
        for m in token.finditer(value):
            if place is None:
                text[int(m.group(1))] += 1
            else:
                elsewhere.setdefault(int(m.group(1)), place)

    for found in htmltext.tokens(page):
        written = page[found.start : found.end]
        if found.kind in (htmltext.START, htmltext.END):
            see(found.name, "in an HTML tag's name")
        if found.kind == htmltext.START:
            for name, first, last in htmltext.attribute_spans(written):
                see(name, f"in an attribute name of <{found.name}>")
                see(html.unescape(written[first:last]), f"in the attribute '{name}' of <{found.name}>")
        elif found.kind == htmltext.TEXT or written.startswith("&"):  # text, or a character reference
            raw = found.stack[-1] if found.stack and found.stack[-1] in ("script", "style") else None
            see(written, f"in a <{raw}> element" if raw else None)
        elif found.kind == htmltext.MARKUP:
            see(written, next(place for at, place in _MARKUP if written.lower().startswith(at)))
    return text, elsewhere


_MARKUP = (  # what markup other than a tag is, by how it starts (HTML's tokenizer: "<!" and "</" are comments)
    ("<?", "in an HTML processing instruction"),
    ("<![cdata[", "in an HTML declaration"),
    ("<!doctype", "in an HTML declaration"),
    ("<!", "in an HTML comment"),
    ("</", "in an HTML comment"),
    ("", "in an HTML tag the page's end cuts"),
)


def misplaced(converted: str, slots: Placeholders, count: int) -> dict[int, str]:
    """Placeholder number -> where it is instead of once in text, for each of the first ``count``
    placeholders of ``slots`` in the converted and cleaned page ``converted``."""
    text, elsewhere = _places(converted, slots.pattern)
    out = {}
    for i in range(count):
        if i in elsewhere:
            out[i] = elsewhere[i]
        elif text[i] == 0:
            out[i] = "nowhere in the converted page (a comment, a link's address or a removed element took it)"
        elif text[i] > 1:
            out[i] = f"{text[i]} times in the converted page"
    return out


def diagnostics(text: str, shown: str, calls: list[Call], wrong: Mapping[int, str]) -> list[Diagnostic]:
    """``wrong`` (from :func:`misplaced`) located at the calls of ``text``."""
    out = []
    for i, why in sorted(wrong.items()):
        call = calls[i]
        line, col = line_col(text, call.start)
        out.append(
            Diagnostic(
                shown, line, col, f"{call.render()}: its output would land {why}; {HOW}", key=call.name, code="template"
            )
        )
    return out


def page_diagnostics(text: str, start: int, shown: str, calls: list[Call], mkdocs_yml: Path | None) -> list[Diagnostic]:
    """``kb validate``: the template page ``text`` converted as the build converts it (a
    placeholder for each call, Markdown with mkdocs.yml's extensions, the sanitizer), then checked."""
    from kb.render.sanitize import clean, render_markdown

    slots = Placeholders("kbcall" + secrets.token_hex(8))
    body = substitute(text, calls, lambda _call: slots.add(""), start)
    return diagnostics(text, shown, calls, misplaced(clean(render_markdown(body, mkdocs_yml)), slots, len(calls)))
