"""arXiv ids written in text that are no arXiv ids: ``arXiv:2505.2922`` in a brief's prose links
nowhere (the site links only real ids) and names no paper, so the mistake would pass unseen.

The files' text is searched as written (one regular expression over each file, not every string
of every record): a YAML key (``arxiv: 2505.02922``, with its space) and comments are not prose.
A malformed id is a warning, located where it is written, saying what is wrong with it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from kb.data import arxiv_id
from kb.data.diagnostics import Diagnostic, Severity, line_col

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

# "arXiv:" (or arxiv:) then what looks like a new-style id (YYMM.N…, any number of digits, a version
# or not).  The search starts at the literal "rXiv:"/"rxiv:" (a year of data in 0.01 s, against 0.2 s
# for a case-blind pattern that starts with a look-behind); the letter before is checked apart.
_WRITTEN = re.compile(r"(?:rXiv|rxiv):(\d{4}\.\d+(?:v\d+)?)(?![\w.])")


def _starts_a_word(text: str, r: int) -> bool:
    """Whether the "rxiv" at ``r`` follows an "a" that starts a word (not "…/arxiv:", "xarxiv:")."""
    if r < 1 or text[r - 1] not in "aA":
        return False
    before = text[r - 2] if r >= 2 else " "
    return not (before.isalnum() or before in "_/")


def check(kb: KnowledgeBase) -> list[Diagnostic]:
    out = []
    for src in kb.sources.values():
        text = src.located.text
        for m in _WRITTEN.finditer(text):
            start = m.start() - 1  # the "a"
            if not _starts_a_word(text, m.start()):
                continue
            line_start = text.rfind("\n", 0, start) + 1
            if text[line_start:start].lstrip().startswith("#"):
                continue  # a comment
            why = arxiv_id.why_not(m.group(1))
            if not why:
                continue
            line, col = line_col(text, start)
            written = text[start : m.end()]
            out.append(
                Diagnostic(
                    src.path,
                    line,
                    col,
                    f"'{written}' is no arXiv id: {why}; the site would show it as text and link it nowhere",
                    severity=Severity.WARNING,
                    code="malformed-arxiv-id",
                )
            )
    return out
