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

import re
import secrets
from collections import Counter
from collections.abc import Callable, Mapping
from html.parser import HTMLParser
from pathlib import Path

from kb.data.diagnostics import Diagnostic, line_col
from kb.data.template import Call, substitute

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

    def swap(self, converted: str, finish: Callable[[str], str] = lambda fragment: fragment) -> str:
        """The converted page with each placeholder replaced by ``finish(its HTML)``."""
        for i, fragment in enumerate(self._html):
            token = f"{self._nonce}x{i}x"
            block = f"<p>{token}</p>"
            fragment = finish(fragment)
            if block in converted and _BLOCK.match(fragment):
                converted = converted.replace(block, fragment)
            else:
                converted = converted.replace(token, fragment)
        return converted


HOW = (
    "a macro call may stand only where text goes: write it on a line of its own, outside HTML tags, links and comments"
)


class _Places(HTMLParser):
    def __init__(self, token: re.Pattern[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.token = token
        self.text: Counter[int] = Counter()
        self.elsewhere: dict[int, str] = {}
        self.raw: str | None = None  # inside <script> or <style>: their text is not text

    def _see(self, value: str | None, place: str | None) -> None:
        for m in self.token.finditer(value or ""):
            if place is None:
                self.text[int(m.group(1))] += 1
            else:
                self.elsewhere.setdefault(int(m.group(1)), place)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._see(tag, "in an HTML tag's name")
        for name, value in attrs:
            self._see(name, f"in an attribute name of <{tag}>")
            self._see(value, f"in the attribute '{name}' of <{tag}>")
        if tag in self.CDATA_CONTENT_ELEMENTS:
            self.raw = tag

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.raw = None

    def handle_endtag(self, tag: str) -> None:
        self._see(tag, "in an HTML tag's name")
        self.raw = None

    def handle_data(self, data: str) -> None:
        self._see(data, f"in a <{self.raw}> element" if self.raw else None)

    def handle_comment(self, data: str) -> None:
        self._see(data, "in an HTML comment")

    def handle_decl(self, decl: str) -> None:
        self._see(decl, "in an HTML declaration")

    def handle_pi(self, data: str) -> None:
        self._see(data, "in an HTML processing instruction")

    def unknown_decl(self, data: str) -> None:
        self._see(data, "in an HTML declaration")


def misplaced(converted: str, slots: Placeholders, count: int) -> dict[int, str]:
    """Placeholder number -> where it is instead of once in text, for each of the first ``count``
    placeholders of ``slots`` in the converted and cleaned page ``converted``."""
    found = _Places(slots.pattern)
    found.feed(converted)
    found.close()
    out = {}
    for i in range(count):
        if i in found.elsewhere:
            out[i] = found.elsewhere[i]
        elif found.text[i] == 0:
            out[i] = "nowhere in the converted page (a comment, a link's address or a removed element took it)"
        elif found.text[i] > 1:
            out[i] = f"{found.text[i]} times in the converted page"
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
