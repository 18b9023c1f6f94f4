"""The first use of each glossary term on a page is explained in place, and only in text
(kb.render.glossary.explain_first_uses)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.render import glossary
from kb.render.glossary import explain_first_uses

TERMS = {"NET-new": "new to the document", "锚入": "anchored"}


def abbr(term: str) -> str:
    return f'<abbr title="{TERMS[term]}" tabindex="0">{term}</abbr>'


def test_only_the_first_use_in_text_is_wrapped():
    page = "<p>NET-new 与锚入</p><p>NET-new 再次锚入</p>"
    assert explain_first_uses(page, TERMS) == f"<p>{abbr('NET-new')} 与{abbr('锚入')}</p><p>NET-new 再次锚入</p>"


def test_links_headings_code_and_nested_skipped_elements_are_left_alone():
    page = (
        '<h2 id="x">NET-new</h2><a href="#x">NET-new <code>锚入</code></a>'
        "<pre><code>锚入</code> 锚入</pre><p>NET-new 锚入</p>"
    )
    out = explain_first_uses(page, TERMS)
    assert out.endswith(f"<p>{abbr('NET-new')} {abbr('锚入')}</p>")
    assert out.count("<abbr") == 2


def test_attributes_and_comments_are_not_text():
    page = '<p title="NET-new"><!-- 锚入 -->x</p><img alt="锚入"/><p>锚入 NET-new</p>'
    out = explain_first_uses(page, TERMS)
    assert out == f'<p title="NET-new"><!-- 锚入 -->x</p><img alt="锚入"/><p>{abbr("锚入")} {abbr("NET-new")}</p>'


def test_an_unclosed_skipped_element_hides_the_rest_and_self_closing_ones_hide_nothing():
    assert explain_first_uses("<a href='x'>NET-new 锚入", TERMS) == "<a href='x'>NET-new 锚入"
    assert explain_first_uses("<a/>锚入", TERMS) == f"<a/>{abbr('锚入')}"


def test_case_of_tag_names_does_not_matter():
    assert explain_first_uses("<A HREF='x'>锚入</A>锚入", TERMS) == f"<A HREF='x'>锚入</A>{abbr('锚入')}"


def test_an_element_inside_one_of_its_own_name_is_walked_tag_by_tag():
    page = "<svg><svg></svg>锚入</svg>锚入"
    assert explain_first_uses(page, TERMS) == f"<svg><svg></svg>锚入</svg>{abbr('锚入')}"


def test_a_tag_written_in_a_script_opens_nothing():
    page = "<script>var a = '<a href=x>';</script>锚入"
    assert explain_first_uses(page, TERMS) == f"<script>var a = '<a href=x>';</script>{abbr('锚入')}"


def test_every_page_of_the_fixture_site_is_explained_only_in_its_prose(site):
    """On every built page, each ``<abbr>`` the glossary adds stands in a text run the walker's
    policy leaves to tooltips, and removing them gives the page back."""
    from kb import messages
    from kb.render.htmltext import LABEL, TEXT, tokens

    for path in site.rglob("*.html"):
        page = path.read_text("utf-8")
        out = explain_first_uses(page, messages.GLOSSARY)
        added = out.count('tabindex="0">') - page.count('tabindex="0">')
        runs = [(t.start, t.end) for t in tokens(page) if t.kind == TEXT and t.level < LABEL]
        found = [m for m in glossary._TERMS.finditer(page) if any(a <= m.start() and m.end() <= b for a, b in runs)]
        assert added == len({m.group(0) if m.group(0) in messages.GLOSSARY else m.group(0)[0] for m in found})


def test_a_run_of_a_one_character_term_is_explained_whole():
    terms = {"⭐": "value", "锚入": "anchored"}
    page = "<p>⭐⭐⭐⭐ 锚入 ⭐⭐</p>"
    assert (
        explain_first_uses(page, terms) == '<p><abbr title="value" tabindex="0">⭐⭐⭐⭐</abbr> '
        '<abbr title="anchored" tabindex="0">锚入</abbr> ⭐⭐</p>'
    )


# ------------------------------------------------------------------ found without the regex scan

_TEXT = st.text(alphabet="ab⭐<>/ ", max_size=40)
_TERMS = st.lists(st.text(alphabet="ab⭐", min_size=1, max_size=3), min_size=1, max_size=4, unique=True)


@given(_TEXT, _TERMS)
@settings(max_examples=400, deadline=None)
def test_terms_are_found_where_the_regex_scan_finds_them(text, terms):
    """Overlapping terms included (``ab`` and ``ba`` in ``aba``, ``a`` inside ``aa``, runs of a
    one-character term): the places found by substring search are the regex engine's."""
    pattern = glossary._pattern(terms)
    found = [m.span() for m in glossary._matches(text, pattern, terms, set())]
    assert found == [m.span() for m in pattern.finditer(text)]


@given(_TEXT, _TERMS)
@settings(max_examples=400, deadline=None)
def test_passing_over_used_groups_changes_no_page(text, terms):
    """Leaving out the places of a group of terms all used changes nothing: the page is the one
    made when every place of every term is looked at."""
    given_terms = {t: f"t{i}" for i, t in enumerate(terms)}
    page = glossary.explain_first_uses(text, given_terms)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(glossary, "_groups", lambda ts: dict.fromkeys(ts, frozenset(ts)))  # one group: none left out
        assert glossary.explain_first_uses(text, given_terms) == page


def test_an_empty_term_is_never_a_use():
    assert explain_first_uses("<p>bbb 锚入</p>", {"": "nothing", "锚入": "anchored"}) == (
        '<p>bbb <abbr title="anchored" tabindex="0">锚入</abbr></p>'
    )
