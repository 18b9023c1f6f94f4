"""Which generated tables are marked to read as cards on a phone (kb.render.html.table)."""

from __future__ import annotations

from kb.render.html import CARDS_FROM, table


def test_a_table_of_four_columns_or_more_is_marked_and_a_narrower_one_is_not():
    wide = table(["a"] * CARDS_FROM, [["1"] * CARDS_FROM])
    narrow = table(["a"] * (CARDS_FROM - 1), [["1"] * (CARDS_FROM - 1)])
    assert wide.startswith("<table data-kb-cards>\n<thead>") and wide.count("data-kb-cards") == 1
    assert narrow.startswith("<table>\n<thead>") and "data-kb-cards" not in narrow


def test_the_mark_stays_on_the_table_inside_a_marked_box():
    boxed = table(["a", "b", "c", "d"], [], cls="kb-table", data_kb_table="papers")
    assert boxed.startswith('<div class="kb-table" data-kb-table="papers">') and "<table data-kb-cards>" in boxed
