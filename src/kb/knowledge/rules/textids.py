"""arXiv ids written in text that are no arXiv ids: ``arXiv:2505.2922`` in a brief's prose links
nowhere (the site links only real ids) and names no paper, so the mistake would pass unseen.

The files' text is searched as written (one regular expression over each file, not every string
of every record): a YAML key (``arxiv: 2505.02922``, with its space) and comments are not prose.
A malformed id is a warning, located where it is written, saying what is wrong with it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from kb.data import arxiv_id
from kb.data.diagnostics import Diagnostic, Severity, line_col

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

# "arXiv:" (any case, a space after it or not) then what looks like a new-style id (YYMM.N…, any
# number of digits, a version or not).  The search starts at the literal "rXiv:"/"rxiv:"/"RXIV:" (a
# literal search is an order of magnitude faster than a case-blind pattern that starts with a
# look-behind); the letters around are checked apart.  Possessive: the digits are not given back,
# so an id at the end of a sentence ("… arXiv:2505.2922.") is still found.
_ID = r":\s?(\d{4}\.\d++(?:[vV]\d++)?)"
_WRITTEN = re.compile(r"(?:rXiv|rxiv)" + _ID)  # two literal starts keep the fast search; a third loses it
_CAPITALS = re.compile(r"RXIV" + _ID)  # searched only in a text that holds "RXIV:"


def _written(text: str) -> Iterator[re.Match[str]]:
    yield from _WRITTEN.finditer(text)
    if "RXIV:" in text:
        yield from _CAPITALS.finditer(text)


def _ascii_word(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


def _standalone(text: str, r: int, end: int) -> bool:
    """Whether the "rxiv…" at ``r`` ending at ``end`` is an "arXiv:" id of its own: an "a" before it
    that starts a word (Chinese may stand right beside it: "见arXiv:…的"), nothing glued after it."""
    if r < 1 or text[r - 1] not in "aA":
        return False
    before = text[r - 2] if r >= 2 else " "
    after = text[end : end + 2]
    if _ascii_word(before) or before == "/":
        return False
    return not (after[:1] and _ascii_word(after[0])) and not (after[:1] == "." and after[1:2].isdigit())


def _in_comment(text: str, at: int) -> bool:
    """Whether ``at`` is in a YAML comment: a line that starts with "#", or after " #" on its line."""
    line = text[text.rfind("\n", 0, at) + 1 : at]
    return line.lstrip().startswith("#") or " #" in line


def check(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    for src in kb.sources.values():
        text = src.located.text
        for m in _written(text):
            start = m.start() - 1  # the "a"
            if arxiv_id.parse(m.group(1)) is not None or not _standalone(text, m.start(), m.end()):
                continue  # an id (nearly every one), or part of something else
            why = arxiv_id.why_not(m.group(1))
            if not why or _in_comment(text, start):
                continue
            line, col = line_col(text, start)
            written = text[start : m.end()]
            out.append(
                Diagnostic(
                    src.path,
                    line,
                    col,
                    f"'{written}' is no arXiv id: {why}; correct it (the site shows it as text and links it "
                    "nowhere), or leave out 'arXiv:' where a wrong id is quoted as it was written",
                    severity=Severity.WARNING,
                    code="malformed-arxiv-id",
                )
            )
    return out
