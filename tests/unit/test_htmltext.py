"""The one HTML text walker (kb.render.htmltext): its tokens cover the page, markup is never text,
and the policy says once how far each element protects its text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.render.autolink import autolink
from kb.render.glossary import explain_first_uses
from kb.render.htmltext import (
    CODE,
    CONTROL,
    LABEL,
    MARKUP,
    POLICY,
    PROSE,
    START,
    TEXT,
    Cursor,
    attributes,
    edit,
    tokens,
)
from kb.site.search import words as search_words


def texts(page: str) -> list[tuple[str, int]]:
    """Each text run as written, with its level."""
    return [(page[t.start : t.end], t.level) for t in tokens(page) if t.kind == TEXT]


def test_the_tokens_cover_the_page_in_order():
    page = '<!doctype html><p class="a">x &amp; y<br/><!-- c --></p><?pi?>&#x41;<'
    found = list(tokens(page))
    assert "".join(page[t.start : t.end] for t in found) == page
    assert all(a.end == b.start for a, b in zip(found, found[1:], strict=False))


def test_text_runs_carry_the_open_elements_and_the_highest_level():
    page = "<div><p>a<a href='x'>b<code>c</code></a><h2>d</h2></p></div>e"
    assert texts(page) == [("a", PROSE), ("b", CONTROL), ("c", CODE), ("d", LABEL), ("e", PROSE)]
    stacks = [t.stack for t in tokens(page) if t.kind == TEXT]
    assert stacks[2] == ("div", "p", "a", "code") and stacks[-1] == ()


def test_nested_skipped_elements_close_in_order():
    page = "<pre><code>a</code>b</pre>c<svg><svg></svg>d</svg>e"
    assert texts(page) == [("a", CODE), ("b", CODE), ("c", PROSE), ("d", CODE), ("e", PROSE)]


def test_a_stray_end_tag_closes_nothing_and_an_unclosed_element_runs_to_the_end():
    assert texts("<code></pre>a</code>b") == [("a", CODE), ("b", PROSE)]
    assert texts("<a href=x>a <b>b") == [("a ", CONTROL), ("b", CONTROL)]


def test_comments_are_not_text():
    page = "a<!-- <p>b</p> -->c<!-->d<!--->e<!-- f --!>g<!-- h"
    assert texts(page) == [("a", 0), ("c", 0), ("d", 0), ("e", 0), ("g", 0)]


def test_a_script_is_raw_text_to_its_own_end_tag():
    page = "<script>var a = '</div>', b = \"<a href=x>\" + '</scr' + 'ipt>';</script>x<style>p>a{}</style>y"
    assert texts(page) == [
        ("var a = '</div>', b = \"<a href=x>\" + '</scr' + 'ipt>';", CODE),
        ("x", PROSE),
        ("p>a{}", CODE),
        ("y", PROSE),
    ]
    assert texts("<SCRIPT>a</Script >b") == [("a", CODE), ("b", PROSE)]
    assert texts("<textarea><b>a</textarea>b<title>&amp;</title>") == [("<b>a", CODE), ("b", PROSE), ("&amp;", CODE)]


def test_cdata_is_a_section_in_svg_and_a_bogus_comment_elsewhere():
    assert texts("<svg><![CDATA[ </svg> a ]]></svg>b") == [("b", PROSE)]
    assert texts("<![CDATA[a>b]]>") == [("b]]>", PROSE)]


def test_a_greater_than_sign_in_an_attribute_is_the_value_s():
    page = """<a title="x > y" data-a='>' href=x>a</a><img alt=">">b<p title="a"b>c</p>"""
    assert texts(page) == [("a", CONTROL), ("b", PROSE), ("c", PROSE)]
    assert attributes('<a title="x > y" data-a=\'>\' HREF=x id="a" id="b" hidden>') == {
        "title": "x > y",
        "data-a": ">",
        "href": "x",
        "id": "a",
        "hidden": "",
    }


def test_character_references_are_not_text_but_a_lone_ampersand_or_less_than_is():
    page = "<p>&lt;2505.02922&gt; AT&T 1 < 2 &#x41;&#65;</p>"
    assert texts(page) == [("2505.02922", PROSE), (" AT&T 1 < 2 ", PROSE)]
    assert [page[t.start : t.end] for t in tokens(page) if t.kind == MARKUP] == ["&lt;", "&gt;", "&#x41;", "&#65;"]


def test_self_closing_and_void_elements_open_nothing():
    assert texts("<a/>a<br>b<img src=x>c<svg><path d='M0'/></svg>d") == [
        ("a", PROSE),
        ("b", PROSE),
        ("c", PROSE),
        ("d", PROSE),
    ]
    assert texts("<a href=x/>a</a>") == [("a", CONTROL)]  # the slash is the unquoted value's


def test_an_unclosed_tag_at_the_end_is_markup():
    assert [t.kind for t in tokens("a<p class='x")] == [TEXT, MARKUP]


def test_the_policy_orders_readers_bars():
    assert PROSE < LABEL < CONTROL < CODE
    assert {t for t, level in POLICY.items() if level == CODE} >= {"code", "pre", "kbd", "samp", "script", "style"}
    assert POLICY["a"] == CONTROL and POLICY["h2"] == LABEL


def test_edits_of_several_readers_are_made_in_one_pass():
    def upper(page, token):  # a walk's TEXT token holds the elements it need not stop at (level_at)
        if token.kind == TEXT and Cursor(page, token).level(token.start, token.end) == PROSE:
            yield token.start, token.end, page[token.start : token.end].upper()

    def mark_p(page, token):
        if token.kind == START and token.name == "p":
            yield token.end - 1, token.end - 1, " data-x"

    assert edit("<p>a<a href=x>b</a></p>", [upper, mark_p], {"p", "a"}) == "<p data-x>A<a href=x>b</a></p>"


def test_overlapping_edits_keep_the_first():
    def whole(page, token):
        if token.kind == TEXT:
            yield token.start, token.end, "W"

    def part(page, token):
        if token.kind == TEXT:
            yield token.start + 1, token.end, "P"

    assert edit("<p>abc</p>", [part, whole], {"p"}) == "<p>W</p>"


_PIECES = ["<p>", "</p>", "<code>", "</code>", "<a href='>'>", "</a>", "<!--", "-->", "<script>", "</script>"]
_PIECES += ["x", " ", "&amp;", "&", "<", ">", '"', "<br/>", "<![CDATA[", "]]>", "<svg>", "</svg>"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=25).map("".join))
def test_any_page_is_covered_and_no_text_run_holds_a_tag_or_a_reference(page):
    found = list(tokens(page))
    assert "".join(page[t.start : t.end] for t in found) == page
    for t in found:
        if t.kind == TEXT and t.level < CODE:
            assert "&amp;" not in page[t.start : t.end]
            assert "<p>" not in page[t.start : t.end] and "<a " not in page[t.start : t.end]


@pytest.mark.parametrize("tag", [*sorted(POLICY), "p", "em", "span", "li", "td", "details", "blockquote"])
def test_every_user_leaves_the_same_text_as_the_policy_says(tag):
    """An arXiv id, a glossary term and a synonym's name in each element: linked where the policy
    allows a control (below CONTROL), explained where it allows a tooltip (below LABEL), given a
    search word where it allows anything (below CODE), and the same, nested in a link and in code."""
    level = POLICY.get(tag, PROSE)
    fragment = f"<{tag}>2505.02922 NET-new KV Cache</{tag}>"
    linked = autolink(fragment, lambda ident: (ident.abs_url, str(ident)))
    explained = explain_first_uses(fragment, {"NET-new": "new"})
    worded = search_words.mark(fragment)
    assert ("kb-arxiv" in linked, 'title="new"' in explained, "<i hidden>" in worded) == (
        level < CONTROL,
        level < LABEL,
        level < CODE,
    )
    for outer, inner_level in (("a", CONTROL), ("code", CODE)):
        nested = f"<{outer}>{fragment}</{outer}>"
        assert ("<i hidden>" in search_words.mark(nested)) == (max(level, inner_level) < CODE)
        assert autolink(nested, lambda ident: (ident.abs_url, str(ident))) == nested


def test_an_id_in_kbd_gets_neither_a_link_nor_a_search_word():
    fragment = "<p>run <kbd>kb show 2505.02922</kbd></p>"
    assert autolink(fragment, lambda ident: (ident.abs_url, str(ident))) == fragment
    assert search_words.mark(fragment) == fragment


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.sampled_from([*_PIECES, "<i>", "</i>", "<h2 id='h'>", "</h2>", "<div title='<p>'>", "<abbr>"]), max_size=25
    )
)
def test_a_walk_that_names_few_elements_reads_the_same_levels(pieces):
    """A walk that tokenizes only the policy's elements (and the ones it names) leaves the rest of
    the markup in its TEXT tokens; read in one (Cursor), every character has the level
    the full walk gives it, and the markup is markup; a tag holding an attribute asked for is a token."""
    page = "".join(pieces)
    full: dict[int, int | None] = {}
    for t in tokens(page):
        for at in range(t.start, t.end):
            full[at] = t.level if t.kind == TEXT and page[at] not in "<&" else None
    starts = {(t.start, t.end) for t in tokens(page) if t.kind == START and "id=" in page[t.start : t.end]}
    for names in ((), ("i",)):
        for t in tokens(page, names, ("id",)):
            if t.kind == START:
                starts.discard((t.start, t.end))
            if t.kind != TEXT:
                continue
            cursor = Cursor(page, t)  # reads on from its last place
            for at in range(t.start, t.end):
                if page[at] not in "<&":
                    assert cursor.level(at, at + 1) == full[at], (names, at)
        assert not starts  # each tag holding an id is a token
