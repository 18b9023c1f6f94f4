"""What the arXiv tools promise never to change in a paper file: everything but its ``arxiv_meta``
block, found as :mod:`kb.data.paperfile` finds it when it writes the block."""

from __future__ import annotations

from kb.data.paperfile import BOM, _layout, _line_end


def without_block(text: str) -> str:
    """``text`` minus its arxiv_meta block."""
    body = text[1:] if text.startswith(BOM) else text
    layout = _layout(body)
    if layout.owned is None:
        return text
    start, end = layout.owned
    return text[: len(text) - len(body)] + body[:start] + body[_line_end(body, end) :]
