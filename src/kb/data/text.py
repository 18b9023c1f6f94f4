"""Text from outside (arXiv answers, BibTeX files) made fit for a data file.

Both the arXiv reader (:mod:`kb.arxiv.feed`) and the paper-file writers
(:mod:`kb.data.paperfile`, ``kb bib import``) use it, so it lives in the data
layer, below both.
"""

from __future__ import annotations

import unicodedata

from kb.data import yamlstrict

# The schema's limits (kb.data.models): one line, a text, an abstract.
LINE_MAX, TEXT_MAX, ABSTRACT_MAX = 400, 4000, 8000


def clean(text: str | None, limit: int | None = None) -> str | None:
    """One line of printable text, or None when nothing is left: whitespace runs become one
    space, control characters and those the strict reader refuses go, and text longer than
    ``limit`` is cut with an ellipsis."""
    if text is None:
        return None
    out = " ".join(text.split())
    out = "".join(ch for ch in out if unicodedata.category(ch) not in ("Cc", "Cs", "Zl", "Zp"))
    out = yamlstrict.strip_refused(out).strip()
    if limit and len(out) > limit:
        out = out[: limit - 1].rstrip() + "…"
    return out or None
