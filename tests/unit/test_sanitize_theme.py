"""What the theme reads from a hand-written page's HTML (kb.render.sanitize): a title is text
without markup characters (Material's tooltips set it as innerHTML), the class the theme loads
code for is removed, and the ids of the theme's and the site's own elements are refused."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from kb.data.arxiv_id import ArxivId
from kb.render.autolink import autolink
from kb.render.glossary import explain_first_uses
from kb.render.sanitize import clean, findings, refused, reserved_id

MARKUP = set("<>&\"'")


def titles(html: str) -> list[str]:
    return [el["title"] for el in BeautifulSoup(html, "html.parser").find_all(title=True)]


def test_a_title_keeps_its_text_without_markup_characters():
    page = (
        '<p><abbr title="&lt;img src=x onerror=alert(1)&gt;">T</abbr>'
        '<a href="https://x" title="a &amp; b &quot;c&quot; \'d\'">r</a>'
        '<span title="<svg onload=alert(2)>">s</span><span title="plain 文本">p</span></p>'
    )
    assert titles(clean(page)) == [
        "\uff1cimg src=x onerror=alert(1)\uff1e",
        "a \uff06 b \uff02c\uff02 \uff07d\uff07",
        "\uff1csvg onload=alert(2)\uff1e",
        "plain 文本",
    ]


def test_the_glossary_tooltips_are_added_after_sanitizing_and_kept():
    out = explain_first_uses(clean("<p>NET-new <span title='<b>x</b>'>y</span></p>"), {"NET-new": "净新增"})
    assert titles(out) == ["净新增", "\uff1cb\uff1ex\uff1c/b\uff1e"]


def test_the_class_the_theme_loads_code_for_is_removed():
    out = clean('<pre class="mermaid">a</pre><pre class="x Mermaid y">b</pre><div class="admonition note">c</div>')
    assert out == '<pre>a</pre><pre class="x y">b</pre><div class="admonition note">c</div>'
    assert [f.kind for f in findings('<pre class="mermaid">a</pre>')] == ["class"]


@pytest.mark.parametrize("ident", ["__config", "__search", "__drawer", "__nav_1", "__tooltip_0", "kb-words", "KB-x"])
def test_the_ids_of_the_theme_and_the_site_are_reserved(ident):
    assert reserved_id(ident)
    found = refused(f'<h2 id="{ident}">x</h2>')
    assert [(f.kind, f.needle) for f in found] == [("id", ident)]


@pytest.mark.parametrize("ident", ["config", "_config", "kb", "kbwords", "sec-s1-kb-words", "x__y"])
def test_other_ids_are_the_page_s_own(ident):
    assert not reserved_id(ident) and refused(f'<h2 id="{ident}">x</h2>') == []


def test_an_anchor_name_is_an_id_too():
    assert [f.needle for f in refused('<p><a name="__config">x</a></p>')] == ["__config"]


def test_a_paper_title_in_an_arxiv_link_s_tooltip_is_text():
    def target(ident: ArxivId) -> tuple[str, str]:
        return "papers/evil/", "<img src=x onerror=alert(1)> & co"

    (title,) = titles(autolink("<p>see 2505.02922</p>", target))
    assert not MARKUP & set(title) and "img src=x" in title
