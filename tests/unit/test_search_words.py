"""arXiv ids as one search word each (kb.site.search.words): the word, and where a page gets it."""

from __future__ import annotations

import pytest

from kb.data.arxiv_id import parse
from kb.site.search.words import mark, word


@pytest.mark.parametrize(
    "ident, expected",
    [
        ("2512.08093", "arxiv251208093"),
        ("2512.08093v2", "arxiv251208093"),  # any version: one word
        ("0704.0001", "arxiv07040001"),
        ("hep-th/9901001", "arxivhepth9901001"),
        ("math.GT/0309136", "arxivmath0309136"),  # as arXiv writes it: without the subject class
        ("math/0309136", "arxivmath0309136"),
    ],
)
def test_the_word_of_an_id(ident, expected):
    parsed = parse(ident)
    assert parsed is not None
    assert word(parsed) == expected


def test_an_id_in_text_gets_its_word_hidden_after_it():
    html = '<p>见 <a href="../p/">arXiv:2512.08093v2</a>、hep-th/9901001。</p>'
    assert mark(html) == (
        '<p>见 <a href="../p/">arXiv:2512.08093v2<i hidden> arxiv251208093 </i></a>、'
        "hep-th/9901001<i hidden> arxivhepth9901001 </i>。</p>"
    )


def test_ids_in_attributes_and_code_get_none():
    html = (
        '<a href="https://arxiv.org/abs/2512.08093" title="arXiv 2512.08093">abs</a>'
        "<pre><code>eprint = {2512.08093}</code></pre><code>2512.08094</code>"
        "<script>var a = '2512.08095';</script><textarea>2512.08096</textarea>"
        "<style>/* 2512.08097 */</style><PRE>2512.08098</PRE>"
    )
    assert mark(html) == html


def test_text_after_code_still_gets_words():
    html = "<pre><code>2512.08093</code></pre> 2512.08094 <code>x</code> 2512.08095"
    marked = mark(html)
    assert "arxiv251208093" not in marked
    assert "2512.08094<i hidden> arxiv251208094 </i>" in marked
    assert "2512.08095<i hidden> arxiv251208095 </i>" in marked


def test_an_unclosed_code_element_holds_the_rest():
    assert mark("2512.08093 <pre>2512.08094") == "2512.08093<i hidden> arxiv251208093 </i> <pre>2512.08094"


def test_text_without_ids_is_unchanged():
    html = "<p>推理调度 1.2345 v2.57 1016-1031</p>"
    assert mark(html) == html


def test_a_name_of_a_term_gets_the_terms_word_after_it_in_text_only():
    html = (
        "<h2>KV Cache</h2><p>把 kv cache、KV缓存 和 键值缓存 当作向量（英伟达）</p>"
        '<a title="KV Cache" href="x">NVIDIA</a><code>KV Cache</code><p>KVCaches 不算</p>'
    )
    out = mark(html)
    assert out.count("<i hidden> kbsynkvcache </i>") == 4  # the heading's, and three ways to write it
    assert out.count("<i hidden> kbsynnvidia </i>") == 2  # 英伟达 and the link's text
    assert 'title="KV Cache"' in out and "<code>KV Cache</code>" in out  # attributes and code as they were
    assert "KVCaches<span" not in out  # a longer word is not the name


def test_ids_and_names_in_typed_keys_output_svg_and_titles_get_none():
    """The walker's policy (kb.render.htmltext.CODE): what a reader types or a program prints is
    not prose, and an element inside SVG text or a title is not shown (it was written as text)."""
    html = (
        "<kbd>2512.08093</kbd><samp>KV Cache</samp><var>2512.08094</var>"
        '<svg><text x="1">KV Cache</text><title>2512.08095</title></svg><math><mi>HF</mi></math>'
    )
    assert mark(html) == html


def test_a_latin_name_counts_only_at_a_words_start():
    out = mark("<p>preserving、2serving 不算；_serving、用serving、(Serving) 与 长上下文算</p>")
    assert out.count("<i hidden> kbsynserving </i>") == 3  # after "_", a Chinese letter and a bracket
    assert "preserving<i" not in out and "2serving<i" not in out
    assert out.count("<i hidden> kbsynlongcontext </i>") == 1  # a Chinese name: no start needed
