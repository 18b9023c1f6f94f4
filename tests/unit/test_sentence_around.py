"""The sentence a backlink quotes around a mention (kb.knowledge.mentions.sentence_around)."""

from __future__ import annotations

from kb.knowledge.mentions import sentence_around


def test_the_sentence_around_a_mention_ends_at_a_full_stop_not_at_a_semicolon():
    """A backlink quotes the sentence a paper is named in: its full stop is quoted, the semicolon
    that ends only its clause is not (the quote would end mid-sentence with it)."""
    text = "前一句。与 FlexLLM 同属调度方向；复现要自己做。后一句"
    at = text.index("FlexLLM")
    assert sentence_around(text, at, at + 7) == "与 FlexLLM 同属调度方向"
    at = text.index("复现")
    assert sentence_around(text, at, at + 2) == "复现要自己做。"
