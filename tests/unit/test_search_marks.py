"""What a built page tells the search index (kb.site.search.mark), and which pages are indexed."""

from __future__ import annotations

import pytest

from kb.render import htmltext
from kb.site import search
from kb.site.search import Facts, words

PAGE = (
    '<html><head><title>t</title></head><body><nav><h2 id="n">nav</h2></nav>'
    '<article class="md-content__inner md-typeset"><h1 id="a">A</h1><h2 id="b">B</h2><p>x</p></article>'
    "<footer><h3>f</h3></footer></body></html>"
)


def test_the_article_is_marked_and_nothing_else_changes():
    out = search.mark(PAGE, Facts("论文", ("LLM 推理",), "2026-09", 1.5))
    assert out is not None
    head, _, rest = out.partition("<article ")
    assert head == PAGE.partition("<article ")[0]
    tag = rest[: rest.index(">")]
    assert 'class="md-content__inner md-typeset" data-pagefind-body data-pagefind-weight="1.5"' == tag
    assert '<span hidden data-pagefind-filter="类型:论文"></span>' in out
    assert '<span hidden data-pagefind-filter="主题:LLM 推理"></span>' in out
    assert '<span hidden data-pagefind-meta="date:2026-09"></span>' in out
    assert "data-pagefind-sort" not in out  # results are ordered by relevance: no sort to prebuild and merge
    assert '<span hidden data-pagefind-meta="when:发表 2026-09"></span>' in out  # what the date is, shown
    assert out.endswith("</article><footer><h3>f</h3></footer></body></html>")
    assert "data-pagefind-weight" not in out.partition("<article")[2].partition(">")[2]  # headings: neutral


def test_living_document_headings_weigh_more_inside_the_article_only():
    out = search.mark(PAGE, Facts("活文档", ("LLM 推理",), None, 2.0, headings=10.0))
    assert out is not None
    assert '<h2 data-pagefind-weight="10" id="b">' in out
    assert '<nav><h2 id="n">' in out and "<footer><h3>f</h3>" in out


def test_values_from_data_are_escaped():
    out = search.mark(PAGE, Facts("简报", ('a"<b>',)))
    assert out is not None
    assert 'data-pagefind-filter="主题:a&quot;&lt;b&gt;"' in out


@pytest.mark.parametrize("text", ["<html><body><p>no article</p></body></html>", "</article><article>"])
def test_a_page_without_an_article_is_not_marked(text):
    assert search.mark(text, Facts("说明")) is None


@pytest.mark.parametrize(
    "url, expected",
    [("", True), ("papers/ssr/", True), ("404.html", False), ("assets/x.html", False), ("pagefind/x.html", False)],
)
def test_which_pages_are_indexed(url, expected):
    assert search.indexed(url) is expected


def paper_facts(kb, page):
    from kb.site.pages import paper

    assert paper.TYPE.facts is not None
    return paper.TYPE.facts(kb, page)


def living_facts(kb, page):
    from kb.site.pages import handwritten

    assert handwritten.LIVING.facts is not None
    return handwritten.LIVING.facts(kb, page)


def test_what_the_briefs_call_a_paper_is_a_hidden_word_of_its_page_below_a_briefs_own(sample_kb):
    facts = paper_facts(sample_kb, "papers/ssr.md")
    assert any(s.startswith("SSR：自投机解码") for s in facts.said), facts.said  # the increment's headline
    assert len(facts.said) == len(set(facts.said))
    assert living_facts(sample_kb, "inference.md").said == ()  # only paper pages
    out = search.mark(PAGE, Facts("论文", said=("SSR：自投机解码 <b>&",)))
    assert out is not None
    said = f'<div hidden data-pagefind-weight="{search.SAID:g}"><p>SSR：自投机解码 &lt;b&gt;&amp;</p></div>'
    assert said + "</article>" in out
    assert search.SAID < search.WEIGHTS[search.BRIEF]  # below a brief's own words


def test_what_the_briefs_call_a_paper_stands_in_its_backlinks_section():
    """Right after the backlinks table that quotes the words where a reader sees them: the section
    a result for them opens (not the BibTeX entry after it)."""
    backlinks = (
        '<h2 id="backlinks">B</h2>\n<div class="kb-backlinks">\n<table><tr><td>自投机</td></tr></table>\n</div>\n'
    )
    page = PAGE.replace("<p>x</p>", backlinks + '<h2 id="bibtex">BibTeX</h2><p>x</p>')
    out = search.mark(page, Facts("论文", said=("自投机",)))
    assert out is not None
    assert '</table>\n</div><div hidden data-pagefind-weight="0.5"><p>自投机</p></div>\n<h2 id="bibtex">' in out


def test_a_paper_result_gives_the_date_its_page_gives_first(sample_kb):
    ssr = sample_kb.papers["ssr"]
    assert str(ssr.published) == "2026-08" and ssr.submitted is not None  # (the v1 date its page questions)
    assert paper_facts(sample_kb, "papers/ssr.md").date == "2026-08"
    out = search.mark(PAGE, Facts("简报", date="2026-09-03"))
    assert out is not None and 'data-pagefind-meta="date:2026-09-03"' in out and "when:" not in out  # a brief's day
    out = search.mark(PAGE, Facts("活文档", date="2026-09-03"))
    assert out is not None and 'data-pagefind-meta="when:更新于 2026-09-03"' in out


def test_a_headline_holding_the_papers_arxiv_id_still_counts_as_calling_it_by_name(sample_kb):
    """RetroInfer's increment lists it and its headline writes its id: the two give one mention
    (the same place and sentence), and it is the reference by name, so the headline is a word of
    the paper's page (KV Cache finds it)."""
    headline = [m for m in sample_kb.mentions_of("retroinfer") if m.context.startswith("RetroInfer：把 KV Cache")]
    assert len(headline) == 1 and headline[0].explicit, headline
    assert any("KV Cache" in s for s in paper_facts(sample_kb, "papers/retroinfer.md").said)


_EVERY_KIND = (
    '<h2 id="h">KV Cache 与 2401.00001</h2><table><tr><th>名</th><td>解释</td></tr>'
    '<tr><td><a href="x">KV 缓存</a></td><td><code>2401.00002</code> 与 2401.00003</td></tr></table>'
    '<ul class="kb-identity"><li>2401.00004</li></ul><h3>投机解码</h3><h4>稀疏</h4>'
    '<pre class="kb-bibtex"><code>@article{key2024,\n  title={KV Cache}}</code></pre><p>2401.00005</p>'
)
_FACTS = [
    Facts(search.PAPER, identity=2.0),
    Facts(search.BRIEF),
    Facts("索引", listing=True),
    Facts("说明", terms=3.0),
    Facts("活文档", headings=10.0),
    Facts(search.PAPER, (), None, 1.5, headings=4.0, identity=2.0, terms=3.0, listing=True),
]


@pytest.mark.parametrize("facts", _FACTS)
def test_the_marks_read_only_their_pages_elements_and_mark_as_a_walk_stopping_at_all(facts):
    # the walk stops only at the elements the page's facts mark; one stopping at every element the
    # marks ever read makes the same page
    every = frozenset({"table", "tr", "td", "th", "ul", "h2", "h3", "h4", "pre", "code"})
    assert search._Marks(facts).names < every or facts == _FACTS[-1]
    full = htmltext.edit(_EVERY_KIND, [words.words(_EVERY_KIND), search._Marks(facts).read], every)
    page = f"<article>{_EVERY_KIND}</article>"
    out = search.mark(page, facts)
    assert out is not None and out.endswith(f"{full}</article>")
    assert full != _EVERY_KIND  # the page has marks and words to compare
