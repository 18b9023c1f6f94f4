"""Text from outside (arXiv answers, BibTeX files) made fit for a data file.

Both the arXiv reader (:mod:`kb.arxiv.feed`) and the paper-file writers
(:mod:`kb.data.paperfile`, ``kb bib import``) use it, so it lives in the data
layer, below both.
"""

from __future__ import annotations

import re
import unicodedata

from kb.data import yamlstrict

# The schema's limits (kb.data.models): one line, a text, an abstract.
LINE_MAX, TEXT_MAX, ABSTRACT_MAX = 400, 4000, 8000

# Words a citation key or a paper id never starts with (the title's first significant word is taken).
STOPWORDS = frozenset(
    "a an the on of to toward towards in for with and or is are do does can how why what when where "
    "via by at from into we our you your it its this that not no".split()
)


def slugify(text: str, limit: int) -> str:
    """``text`` as a slug: ASCII letters and digits joined by ``-``, at most ``limit`` characters."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:limit].rstrip("-")


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
