"""Page metadata of hand-written pages in both forms MkDocs reads (kb.data.frontmatter): the
MultiMarkdown-style "key: value" lines are found exactly where MkDocs finds them, checked by the
front-matter allowlist at their lines, and the build lets only allowlisted keys reach the theme."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from mkdocs.utils.meta import get_data

from kb.data.frontmatter import allowed_meta, body_start, front_matter_diagnostics, metadata_lines

# lines that are, continue, end or are not metadata in MkDocs' reading, and front matter
LINES = [
    "title: A",
    "Title:B",
    "   status: new",
    "    status: four spaces",
    "\tmore",
    "    more",
    "subtitle: <img src=x onerror=alert(1)>",
    "a-b_9:  c  ",
    "key :x",
    "",
    "   ",
    "\u3000",
    "# Heading",
    "---",
    "...",
    "text",
    "http://example.org",
    ":",
    "x:",
]


def merged(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for meta in metadata_lines(text)[0]:
        out[meta.key] = f"{out[meta.key]} {meta.value}" if meta.key in out else meta.value
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LINES), max_size=8), st.booleans())
@example(["---", "title: x", "---", "", "# T"], True)
@example(["", "title: x"], False)
def test_the_metadata_lines_and_the_markdown_are_where_mkdocs_finds_them(lines, newline):
    text = "\n".join(lines) + ("\n" if newline else "")
    markdown, data = get_data(text)
    if text[body_start(text) :] != markdown:  # front matter MkDocs shows as text: the page is refused
        assert front_matter_diagnostics(text, "docs/x.md")
    if not text.startswith("---"):
        assert text[body_start(text) :] == markdown
        assert merged(text) == data


def diagnostics(text: str, template_page: bool = False) -> list[tuple[int, int, str, str]]:
    return [(d.line, d.col, d.key, d.code) for d in front_matter_diagnostics(text, "docs/x.md", template_page)]


def test_each_key_is_checked_at_its_line():
    text = "title: Fine\n    on two lines\nSubtitle: <b>x</b>\n  template: redirect.html\nhide: toc\n\n# T\n"
    assert diagnostics(text) == [
        (3, 1, "subtitle", "front-matter"),
        (4, 13, "template", "front-matter"),
        (5, 7, "hide", "front-matter"),  # a list: only in --- front matter
    ]


def test_allowed_keys_pass_and_a_key_given_twice_does_not():
    assert diagnostics("title: A\ndescription: B\ntemplate: main.html\n\n# T") == []
    assert diagnostics("title: A\nTITLE: B\n\n# T") == [(2, 1, "title", "front-matter")]


def test_render_macros_is_for_template_pages_only():
    assert diagnostics("render_macros: true\n\n# T") == [(1, 1, "render_macros", "template")]
    assert diagnostics("render_macros: true\n\n# T", template_page=True) == [(1, 16, "render_macros", "front-matter")]


def test_a_page_starting_with_text_or_a_blank_line_has_no_metadata():
    assert diagnostics("# Note: x\n") == []
    assert diagnostics("\nNote: x\n") == []


def test_empty_front_matter_is_refused():
    # MkDocs reads no metadata from it and shows the --- lines as text
    assert diagnostics("---\n\n---\n# T\n") == [(2, 1, "", "front-matter")]


@pytest.mark.parametrize(
    ("meta", "template_page", "kept"),
    [
        ({"title": "t", "description": "d", "subtitle": "<img>", "status": "new"}, False, {"title", "description"}),
        ({"template": "redirect.html", "location": "javascript:alert(1)"}, False, set()),
        (
            {"template": "main.html", "hide": ["toc"], "search": {"exclude": True}},
            False,
            {"template", "hide", "search"},
        ),
        ({"hide": ["toc", "<script>"], "search": "exclude", "title": {"a": "b"}}, False, set()),
        ({"render_macros": True, "author": "x"}, True, {"render_macros"}),
        ({"render_macros": True}, False, set()),
    ],
)
def test_only_what_the_allowlist_allows_is_kept(meta, template_page, kept):
    dropped = allowed_meta(meta, template_page)
    assert set(meta) == kept and not kept & set(dropped)


def test_a_title_mkdocs_reads_as_a_date_or_a_number_stays_a_title():
    meta = {"title": date(2026, 9, 1), "description": 12}
    assert allowed_meta(meta, False) == [] and meta == {"title": "2026-09-01", "description": "12"}


def test_the_build_lets_only_allowlisted_metadata_reach_the_theme():
    """Whatever the read check misses: after MkDocs has read a page, only allowed keys stay."""
    from kb.site.plugin import KnowledgeBasePlugin

    page = SimpleNamespace(
        file=SimpleNamespace(src_uri="x.md", generated_by=None),
        meta={"title": "<b>t</b>", "status": 'new" autofocus onfocus="alert(1)', "template": "redirect.html"},
    )
    assert KnowledgeBasePlugin().on_page_markdown("# T", page, None, None) == "# T"  # type: ignore[arg-type]
    assert page.meta == {"title": "&lt;b&gt;t&lt;/b&gt;"}


def test_template_syntax_in_a_plain_page_is_said_everywhere_with_a_way_that_works():
    """Each piece of it at once (in a code span too: nothing is exempt), and the hint says how to
    write a brace that is text (a character reference; a code span would be refused as well)."""
    from kb.data.pages import check_page

    text = "# T\n\nA {{ 7*7 }} and `{{ 8*8 }}`\n"
    found = [(d.line, d.col, d.code) for d in check_page("guide.md", text, "docs/guide.md", frozenset())]
    assert found == [(3, 3, "template"), (3, 10, "template"), (3, 18, "template"), (3, 25, "template")]
    message = check_page("guide.md", text, "docs/guide.md", frozenset())[0].message
    assert "&#123;" in message and "code span" not in message
