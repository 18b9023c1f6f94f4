"""kb.render.html: which generated tables are marked to read as cards on a phone (``table``), and
how contributed text is escaped (``esc``, ``attr``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kb.render.html import CARDS_FROM, attr, esc, table


def test_a_table_of_four_columns_or_more_is_marked_and_a_narrower_one_is_not():
    wide = table(["a"] * CARDS_FROM, [["1"] * CARDS_FROM])
    narrow = table(["a"] * (CARDS_FROM - 1), [["1"] * (CARDS_FROM - 1)])
    assert wide.startswith("<table data-kb-cards>\n<thead>") and wide.count("data-kb-cards") == 1
    assert narrow.startswith("<table>\n<thead>") and "data-kb-cards" not in narrow


def test_the_mark_stays_on_the_table_inside_a_marked_box():
    boxed = table(["a", "b", "c", "d"], [], cls="kb-table", data_kb_table="papers")
    assert boxed.startswith('<div class="kb-table" data-kb-table="papers">') and "<table data-kb-cards>" in boxed


def test_the_whitespace_esc_folds_is_the_same_by_split_and_by_regex():
    """esc folds runs of whitespace with str.split; the regex \\s it replaced matched exactly the same
    characters (every code point checked)."""
    import re
    import sys

    by_regex = {chr(i) for i in range(sys.maxunicode + 1) if re.match(r"\s", chr(i))}
    assert by_regex == {chr(i) for i in range(sys.maxunicode + 1) if chr(i).isspace()}


SPACES_AND_SPECIALS = st.sampled_from(" \t\n\r\x0b\x0c\x1c\x85\xa0\u3000\u2028<>&\"'")


@given(st.text(alphabet=st.characters(codec="utf-8") | SPACES_AND_SPECIALS))
def test_esc_is_the_text_with_whitespace_folded_and_specials_as_entities(text):
    import html
    import re

    assert esc(text) == html.escape(re.sub(r"\s+", " ", text).strip(), quote=True)
    assert esc(text, strip=False) == html.escape(re.sub(r"\s+", " ", text), quote=True)


@given(st.text(alphabet=st.characters(codec="utf-8") | SPACES_AND_SPECIALS))
def test_an_attribute_value_is_the_text_with_specials_as_entities(text):
    import html

    assert attr(text) == html.escape(text, quote=True)
