"""Mentions in a hand-written page's Markdown: the front matter is no prose, in every form MkDocs reads."""

from __future__ import annotations

import pytest

from kb.knowledge.pagescan import scan_page


@pytest.mark.parametrize("close", ["---", "...", "---  "])
def test_front_matter_is_not_scanned_for_ids(sample_kb, close):
    text = f"---\ndescription: arXiv:2608.20359\n{close}\n\n# 页\n\nSSR（arXiv:2608.20359）也在这一路。\n"
    assert [m.context for m in scan_page(sample_kb, "x.md", text)] == ["SSR（arXiv:2608.20359）也在这一路。"]
