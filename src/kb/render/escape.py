"""Escaping contributed text where it enters a page.

Generated pages are Markdown (so MkDocs validates every link and anchor).
Contributed text enters them only through these functions:

* :func:`md` — text for a Markdown inline context (paragraph, list item,
  heading, table cell, link text): HTML special characters become entities and
  every character Markdown or its extensions give meaning to is backslash-escaped,
  so the reader sees exactly the text that was written (``a<b``, ``{{BERT}}``,
  ``C++``, ``__init__``) and nothing in it becomes markup, a link or an attribute.
* :func:`url` — an http(s) URL (already checked by the models) made safe for a
  Markdown link destination.
"""

from __future__ import annotations

import html as _html
import re
from urllib.parse import quote

# Python-Markdown's escapable characters (with the tables extension) plus '&' handling
# via entities; '<' and '>' become entities so no raw HTML can start.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~^=:$@])")
_SPACE = re.compile(r"\s+")


def md(text: object, strip: bool = True) -> str:
    """Escape text for any Markdown inline context; newlines fold to spaces."""
    s = _SPACE.sub(" ", str(text))
    s = s.strip() if strip else s
    s = _html.escape(s, quote=True)
    # '&' was turned into '&amp;' (an entity Markdown leaves alone); protect '#'/';'
    # of entities from the backslash pass by escaping only the listed characters.
    return _MD_SPECIAL.sub(
        lambda m: "&#" + str(ord(m.group(1))) + ";" if m.group(1) in "~^=:$@" else "\\" + m.group(1), s
    )


def url(value: str) -> str:
    """A Markdown link destination: only http(s) or site-relative; parentheses and spaces encoded."""
    if (
        not re.match(r"^(https?://|\.{0,2}/|[\w\-./#]+$)", value)
        or value.startswith("//")
        or value.lower().startswith(("javascript:", "data:", "vbscript:"))
    ):
        raise ValueError(f"refusing URL {value!r}")
    return quote(value, safe="/:?#[]@!$&'*+,;=%~-._")


def md_link(text: object, target: str) -> str:
    """``[text](target)`` with escaped text and a safe destination.  No link title:
    Markdown titles are not escapable inside table cells (a ``|`` would end the cell)."""
    return f"[{md(text)}]({url(target)})"
