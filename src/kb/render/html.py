"""The one gate between contributed text and a generated page: HTML, built here.

Generated pages (briefs, papers, indexes, the living document's sections) are HTML
made by the renderers and handed to MkDocs after its Markdown step: no Markdown pass
runs on them (see :mod:`kb.site.plugin`).  Contributed text enters a page only as
:func:`esc` (text) or through :func:`a` (a checked URL); every other function here
joins markup that already passed that gate, so a renderer never writes ``<`` or an
attribute by hand.

Links to other pages are written with their docs-relative source path
(``../papers/ssr.md#notes``, from :class:`kb.render.links.Linker`): the MkDocs
adapter resolves each one to the built URL and validates the page and the anchor,
as it does for a Markdown link.  Headings carry their anchor and the permalink the
``toc`` extension gives hand-written headings; the adapter builds the page's table
of contents and its title from them.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Iterable, Sequence
from urllib.parse import quote

from kb.messages import UI

Html = str  # markup made by this module (contributed text inside it is escaped)

_SPACE = re.compile(r"\s+")
_SPECIAL = re.compile(r"[&<>\"']")
_URL_OK = re.compile(r"^(https?://|\.{0,2}/|[\w\-./#]+$)")
PERMALINK = "¶"
PERMALINK_TITLE = UI["page.permalink"]  # the toc extension writes it on hand-written headings too (kb.site.plugin)
BR = "<br>"


def esc(text: object, strip: bool = True) -> Html:
    """Contributed (or any) text as HTML text: special characters become entities and
    whitespace, newlines included, folds to single spaces."""
    s = str(text)
    # str.split's whitespace is exactly the regex's \s, and the join is several times faster
    return _escape(" ".join(s.split()) if strip else _SPACE.sub(" ", s))


def t_html(key: str, **markup: str) -> Html:
    """The interface message ``key`` as HTML: its own text escaped, ``markup`` (HTML already made:
    escaped text, links) put in as it is."""
    return esc(UI[key], strip=False).format(**markup)


def attr(value: object) -> str:
    """An attribute value (without the quotes)."""
    return _escape(str(value))


def _escape(s: str) -> str:
    """``html.escape(s, quote=True)``; most text has none of the characters it replaces, and one
    search for them takes half as long as its five replacements (a build escapes text about
    200 times a page)."""
    return _html.escape(s, quote=True) if _SPECIAL.search(s) else s


# Material's content.tooltips builds a tooltip from an element's title with innerHTML: the title's
# text is read as HTML.  A title holding contributed text keeps it with these full-width look-alikes.
_MARKUP = str.maketrans({"<": "\uff1c", ">": "\uff1e", "&": "\uff06", '"': "\uff02", "'": "\uff07"})


def tooltip(text: str) -> str:
    """``text`` for a ``title`` attribute (before it is escaped): without the characters of markup
    (``< > & " '``), each replaced by its full-width look-alike, so a tooltip made from it is text."""
    return text.translate(_MARKUP)


def url(value: str) -> str:
    """A link destination: only http(s), site-relative or a plain relative path; spaces and
    parentheses percent-encoded.  Anything else (``javascript:``, ``data:``, ``//host``) is refused."""
    if not _URL_OK.match(value) or value.startswith("//"):
        raise ValueError(f"refusing URL {value!r}")
    return quote(value, safe="/:?#[]@!$&'*+,;=%~-._")


def _attrs(cls: str | None, attrs: dict[str, object]) -> str:
    out = f' class="{attr(cls)}"' if cls else ""
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = key.rstrip("_").replace("_", "-")
        out += f" {name}" if value is True else f' {name}="{attr(value)}"'
    return out


def el(tag: str, inner: Html = "", cls: str | None = None, **attrs: object) -> Html:
    """``<tag class=… key="value">inner</tag>``; ``data_x=`` becomes ``data-x``, ``True`` a bare attribute."""
    return f"<{tag}{_attrs(cls, attrs)}>{inner}</{tag}>"


def a(inner: Html, href: str, cls: str | None = None, **attrs: object) -> Html:
    return el("a", inner, cls, href=url(href), **attrs)


def link(text: object, href: str) -> Html:
    """A link whose text is ``text`` (escaped)."""
    return a(esc(text), href)


def strong(inner: Html) -> Html:
    return f"<strong>{inner}</strong>"


def code(text: object) -> Html:
    return f"<code>{esc(text)}</code>"


def p(inner: Html, cls: str | None = None, **attrs: object) -> Html:
    return el("p", inner, cls, **attrs)


def div(inner: Html, cls: str | None = None, **attrs: object) -> Html:
    return el("div", f"\n{inner}\n", cls, **attrs)


def span(inner: Html, cls: str | None = None, **attrs: object) -> Html:
    return el("span", inner, cls, **attrs)


def ranked(inner: Html, rank: int) -> Html:
    """``inner`` sorted in a sortable table (``assets/kb-tables.js``) by ``rank``, not by its text."""
    return f'<span data-kb-sort="{int(rank)}">{inner}</span>'


def heading(level: int, inner: Html, anchor: str, toc: str | None = None) -> Html:
    """A heading with its anchor and permalink (what the toc extension makes of ``## t { #anchor }``);
    ``toc``: its shorter name in the table of contents (``data-toc-label``, as the toc extension reads
    it), where the heading holds more than its name (a whole headline, a badge, an English subtitle)."""
    ident = attr(anchor)
    label = f' data-toc-label="{attr(toc)}"' if toc else ""
    link_ = f'<a class="headerlink" href="#{ident}" title="{PERMALINK_TITLE}">{PERMALINK}</a>'
    return f'<h{level} id="{ident}"{label}>{inner}{link_}</h{level}>'


def ul(items: Iterable[Html], cls: str | None = None) -> Html:
    """A list, or "" when there is no item."""
    body = "\n".join(f"<li>{item}</li>" for item in items)
    return f"<ul{_attrs(cls, {})}>\n{body}\n</ul>" if body else ""


def ol(items: Iterable[Html], cls: str | None = None) -> Html:
    body = "\n".join(f"<li>{item}</li>" for item in items)
    return f"<ol{_attrs(cls, {})}>\n{body}\n</ol>" if body else ""


# A table this wide does not fit a phone's column: it is marked (``data-kb-cards``) to read as one
# card per row there, each cell under its column's name (kb.css, labels by assets/kb-tables.js).
CARDS_FROM = 4


def table(head: Sequence[Html], rows: Iterable[Sequence[Html]], cls: str | None = None, **attrs: object) -> Html:
    """A table with a header row; with ``cls`` or attributes it is wrapped in a ``<div>`` carrying them
    (the way the pages mark tables for ``assets/kb-tables.js``).  One of :data:`CARDS_FROM` columns or
    more is marked to be read as cards on a phone."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "\n".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    mark = " data-kb-cards" if len(head) >= CARDS_FROM else ""
    out = f"<table{mark}>\n<thead>\n<tr>{th}</tr>\n</thead>\n<tbody>\n{body}\n</tbody>\n</table>"
    return div(out, cls, **attrs) if cls or attrs else out


def details(summary: Html, body: Html, cls: str | None = None, open_: bool = False) -> Html:
    return el("details", f"\n<summary>{summary}</summary>\n{body}\n", cls, open=open_)


def admonition(kind: str, title: Html, body: Html) -> Html:
    """A Material admonition box (what ``!!! kind "title"`` makes)."""
    return div(f'<p class="admonition-title">{title}</p>\n{body}', f"admonition {kind}")


def blocks(*parts: Html) -> Html:
    """Block-level parts one after another, the empty ones left out."""
    return "\n".join(x for x in parts if x)
