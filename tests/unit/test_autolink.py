"""kb.render.autolink on its own: arXiv ids in the text of finished HTML become links, ids in
links, code and the other skipped elements stay text, and every other byte is copied through."""

from __future__ import annotations

import re

import pytest

from kb.data.arxiv_id import ArxivId
from kb.render.autolink import autolink
from kb.render.htmltext import CONTROL, POLICY

KNOWN = {"2505.02922": "papers/retroinfer/"}


def target(ident: ArxivId) -> tuple[str, str]:
    """The paper page for an id the knowledge base has, else arXiv (as the adapter does)."""
    if ident.base in KNOWN:
        return KNOWN[ident.base], f"paper {ident}"
    return ident.abs_url, f"arXiv {ident}"


def link(text: str, href: str, title: str) -> str:
    return f'<a class="kb-arxiv" href="{href}" title="{title}">{text}</a>'


def test_a_known_id_links_to_its_paper_page_and_an_unknown_one_to_arxiv():
    html = "<p>RetroInfer (arXiv:2505.02922) and 2608.01526v2.</p>"
    assert autolink(html, target) == (
        "<p>RetroInfer ("
        + link("arXiv:2505.02922", "papers/retroinfer/", "paper 2505.02922")
        + ") and "
        + link("2608.01526v2", "https://arxiv.org/abs/2608.01526v2", "arXiv 2608.01526v2")
        + ".</p>"
    )


def test_html_without_ids_is_returned_unchanged():
    html = '<p class="x">no ids here, only 1016-1031 and v2.57</p>\n<ul><li>a &amp; b</li></ul>'
    assert autolink(html, target) == html


@pytest.mark.parametrize("tag", sorted(t for t, level in POLICY.items() if level >= CONTROL))
def test_ids_inside_skipped_elements_stay_text(tag):
    html = f"<p>see <{tag}>2505.02922</{tag}> then</p>"
    assert autolink(html, target) == html


def test_code_span_is_never_linked_but_the_text_after_it_is():
    html = "<p><code>2505.02922</code> 2505.02922</p>"
    out = autolink(html, target)
    assert out.startswith("<p><code>2505.02922</code> <a ")
    assert "<code><a" not in out and out.count("<a ") == 1


def test_nested_skipped_elements_close_in_order():
    html = "<pre><code>2505.02922</code> 2608.01526</pre><p>2608.01526</p>"
    out = autolink(html, target)
    assert out.startswith("<pre><code>2505.02922</code> 2608.01526</pre><p><a ")
    assert out.count("<a ") == 1


def test_a_stray_end_tag_does_not_reopen_linking_inside_a_skipped_element():
    html = "<code></pre>2505.02922</code><p>2505.02922</p>"
    out = autolink(html, target)
    assert out.startswith("<code></pre>2505.02922</code><p><a ")
    assert out.count("<a ") == 1


def test_an_existing_link_is_left_alone():
    html = '<p><a href="https://example.org/">arXiv:2505.02922</a></p>'
    assert autolink(html, target) == html


@pytest.mark.parametrize(
    "text",
    [
        "x/2505.02922",
        "2505.02922/x",
        "x-2505.02922",
        "2505.02922-x",
        "https://arxiv.org/abs/2505.02922",
        "pages 1016-1031",
        "10.48550/arXiv.2505.02922",
    ],
)
def test_ids_glued_to_slashes_or_hyphens_are_not_linked(text):
    html = f"<p>{text}</p>"
    assert autolink(html, target) == html


def test_several_ids_across_lines_keep_every_other_byte():
    html = "<h2>Title</h2>\n<p>first 2505.02922,\nthen <em>hep-th/9901001v3</em> and\n\n2608.01526</p>\n"
    out = autolink(html, target)
    assert out.count('<a class="kb-arxiv"') == 3
    # removing the links gives back the input exactly
    assert re.sub(r'<a class="kb-arxiv" href="[^"]*" title="[^"]*">([^<]*)</a>', r"\1", out) == html
    assert 'href="https://arxiv.org/abs/hep-th/9901001v3"' in out and ">hep-th/9901001v3</a>" in out


def test_href_is_escaped_and_the_title_is_text_without_markup_characters():
    def hostile(ident: ArxivId) -> tuple[str, str]:
        return f'x"><script>{ident}', 'a"b<c'

    out = autolink("<p>2505.02922</p>", hostile)
    # Material's tooltip sets the title as HTML: full-width look-alikes instead of markup characters
    title = "a\uff02b\uff1cc"
    assert (
        out == f'<p><a class="kb-arxiv" href="x&quot;&gt;&lt;script&gt;2505.02922" title="{title}">2505.02922</a></p>'
    )


def test_entities_and_attributes_are_not_scanned():
    html = '<p title="2505.02922">&lt;2505.02922&gt;</p><!-- 2505.02922 -->'
    out = autolink(html, target)
    assert (
        out
        == '<p title="2505.02922">&lt;'
        + link("2505.02922", "papers/retroinfer/", "paper 2505.02922")
        + "&gt;</p><!-- 2505.02922 -->"
    )
