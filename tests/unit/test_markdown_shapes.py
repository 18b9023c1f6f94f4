"""Markdown shapes Python-Markdown converts in more than linear time are refused before rendering
(kb.data.shapes), located at the opener that passes the bound; ordinary pages are not refused.
The build refuses the same (tests/hostile/test_pages.py, md-* cases); the times are
scripts/bench_shapes.py's."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.data.pages import check_page
from kb.data.shapes import (
    MAX_ABBREVIATIONS,
    MAX_HTML_NESTING,
    MAX_PARAGRAPH,
    MAX_SAME_ID,
    MAX_UNCLOSED,
    shape_diagnostics,
)
from sitebuild import ROOT

N = MAX_UNCLOSED


def located(text: str) -> list[str]:
    return [d.text() for d in check_page("x.md", text, "docs/x.md", frozenset()) if d.code == "markdown"]


# shape: (page with one opener too many, where the refusal points, what it says)
REFUSED = {
    "long-paragraph": ("x\n" + "\\" * MAX_PARAGRAPH, "1:1:", f"without a blank line; the limit is {MAX_PARAGRAPH}"),
    "link-open": ("[a](" * (N + 1), "1:131:", "links in this paragraph whose '](' no ')' closes"),
    "link-paren": ("[a](b(" * (N + 1), "1:195:", "whose '](' no ')' closes"),
    "link-nested": ("[[a](b)" * (N + 1), "1:225:", "'[' in this paragraph that no ']' closes"),
    "tag-open": ("<a " * (N + 1), "1:97:", "'<' in this paragraph that start a tag no '>' closes"),
    "autolink-open": ("<http://a" * (N + 1), "1:289:", "start a tag no '>' closes"),
    "heading-same": ("#a\n" * (MAX_SAME_ID + 1), f"{MAX_SAME_ID + 1}:1:", "headings with the anchor 'a'"),
    "setext-same": ("a!\n==\n" * (MAX_SAME_ID + 1), f"{2 * MAX_SAME_ID + 1}:1:", "headings with the anchor 'a'"),
    "heading-suffix": ("".join(f"# a_{i}\n" for i in range(MAX_SAME_ID + 1)), f"{MAX_SAME_ID + 1}:1:", "'a'"),
    "abbreviations": (
        "".join(f"*[W{i}]: t\n" for i in range(MAX_ABBREVIATIONS + 1)),
        f"{MAX_ABBREVIATIONS + 1}:1:",
        "abbreviation definitions",
    ),
    "html-nesting": ('<div markdown="1">\n' * (MAX_HTML_NESTING + 1), f"{MAX_HTML_NESTING + 1}:1:", "nested"),
}


@pytest.mark.parametrize("shape", sorted(REFUSED))
def test_a_slow_shape_is_refused_where_it_passes_the_bound(shape):
    text, where, what = REFUSED[shape]
    [message] = located("---\ntitle: t\n---\n" + text)
    line, col = where.split(":")[:2]
    assert message.startswith(f"docs/x.md:{int(line) + 3}:{col}: "), message
    assert what in message and "; " in message, message  # what, why, how to fix


@pytest.mark.parametrize(
    "text",
    [
        "[a](" * N,  # at the bound
        "\\" * (MAX_PARAGRAPH - 1) + "\n\n" + "\\" * (MAX_PARAGRAPH - 1),
        "\n\n".join(["[a](" * N] * 4),  # the bound is per paragraph
        "[a](b(c)d) " * 500,  # closed links, nested parentheses
        "[a] " * 500 + "[b]: x\n",
        "a <b> c <em>d</em> " * 500,
        "a < b, c <= d " * 500,  # a '<' that starts no tag
        "".join(f"## 第 {i} 节\n\n正文\n\n" for i in range(500)),
        "# a\n" * MAX_SAME_ID,
        '<div markdown="1">\n' * MAX_HTML_NESTING + "</div>\n" * MAX_HTML_NESTING,
    ],
)
def test_ordinary_shapes_pass(text):
    assert located(text) == []


def test_a_line_separator_does_not_split_a_paragraph():
    assert located("[a](\u2028\u2028" * (N + 1))  # Markdown splits lines at "\n" only


def ordinary_pages() -> list[Path]:
    hostile = ROOT / "tests" / "hostile" / "pages"
    pages = [*(ROOT / "docs").rglob("*.md"), *(ROOT / "tests").rglob("*.md")]
    return sorted(p for p in pages if not (p.parent == hostile and p.name.startswith("md-")))


def test_the_project_pages_and_fixtures_are_not_refused():
    pages = ordinary_pages()
    assert len(pages) > 20
    for page in pages:
        text = page.read_text("utf-8", errors="replace")
        assert shape_diagnostics(text, 0, str(page)) == [], page
