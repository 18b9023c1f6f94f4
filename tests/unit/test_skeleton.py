"""What MkDocs learns of a generated page comes from the skeleton the plugin hands it
(kb.site.plugin.finish.skeleton): converted by Python-Markdown with the site's extensions, it
gives the page's table of contents (levels, ids, names) and every id the page holds, whatever
characters a heading's name has."""

from __future__ import annotations

import html
import re

import markdown
import pytest

from kb.site.pages.htmlpage import outline
from kb.site.pages.rendercache import Finished
from kb.site.plugin.finish import fragments, skeleton

EXTENSIONS = ["toc", "abbr", "attr_list", "md_in_html", "tables", "admonition", "pymdownx.superfences"]  # mkdocs.yml's
NAMES = [
    "LLM 推理 · 活文档",
    "A *b* _c_ `d` [e](f) ![g](h) <i> {#j} &amp; &lt;k&gt; &quot;l&quot; | m \\ n",
    "paper_card 入库（待核实）",
    "**粗体** __下划线__ ~~删~~ ^^上^^ ==标== :smile: 1. 2)",
]


def learnt(page_html: str) -> tuple[list[tuple[int, str, str]], set[str]]:
    """(level, id, name as text) of each heading in the table of contents, and the ids of the
    converted skeleton, as MkDocs reads them (the tree's ids and raw HTML's)."""
    md = markdown.Markdown(extensions=EXTENSIONS, extension_configs={"toc": {"permalink": "¶"}})
    found = outline(page_html)
    converted = md.convert(
        skeleton(Finished(page_html, found.toc(), frozenset(found.ids), {}, frozenset(), None, None))
    )

    def flat(tokens: list[dict]) -> list[tuple[int, str, str]]:
        return [x for t in tokens for x in [(t["level"], t["id"], html.unescape(t["name"])), *flat(t["children"])]]

    return flat(md.toc_tokens), set(re.findall(r'\sid="([^"]*)"', converted))


@pytest.mark.parametrize("name", NAMES)
def test_a_heading_keeps_its_level_id_and_name(name):
    shown = html.escape(name)  # the name as the page shows it
    toc, ids = learnt(f'<h1 id="top">标题</h1><h2 id="sec-a" data-toc-label="{shown}">x</h2><h3 id="p-1">{shown}</h3>')
    text = " ".join(name.split())
    assert toc == [(1, "top", "标题"), (2, "sec-a", text), (3, "p-1", text)]
    assert ids == {"top", "sec-a", "p-1"}


def test_every_id_is_an_anchor_and_only_headings_outside_folds_are_in_the_table_of_contents():
    page = (
        '<h1 id="top">题</h1><p><span id="adj-a">a</span></p><details><summary>来源</summary>'
        '<h3 id="src-1">来源一</h3></details><svg><title id="kb-graph-t">图</title></svg><h2 id="sec">节</h2>'
    )
    toc, ids = learnt(page)
    assert toc == [(1, "top", "题"), (2, "sec", "节")]
    assert ids == {"top", "adj-a", "src-1", "kb-graph-t", "sec"}


def test_an_id_markdown_cannot_write_stays_an_anchor_out_of_the_table_of_contents():
    toc, ids = learnt('<h1 id="top">题</h1><h2 id="a b&amp;c">节</h2>')
    assert toc == [(1, "top", "题")]
    assert ids == {"top", "a b&amp;c"}


def test_a_page_in_a_frame_tells_mkdocs_only_the_ids_hand_written_pages_may_link_to():
    page = '<h1 id="top">题</h1><h2 id="sec">节</h2><p><span id="adj-a">a</span><span id="adj-b">b</span></p>'
    found = outline(page)
    finished = Finished(page, found.toc(), frozenset(found.ids), {}, frozenset(), None, None)
    assert skeleton(finished, frozenset()) == ""  # no Markdown to convert: MkDocs returns at once
    md = markdown.Markdown(extensions=EXTENSIONS)
    converted = md.convert(skeleton(finished, fragments(["见[次要条目](../briefs/x.md#adj-b)和 [节](#sec)。"])))
    assert md.toc_tokens == []  # the frame shows the table of contents (kb.site.plugin.frame)
    assert set(re.findall(r'\sid="([^"]*)"', converted)) == {"adj-b", "sec"}


@pytest.mark.parametrize(
    ("written", "anchor"),
    [
        ("[a](briefs/x.md#adj-b)", "adj-b"),
        ("[a]: <papers/y.md#sec-s1>", "sec-s1"),
        ("[a](x.md#%E4%B8%80%E8%8A%82)", "一节"),
        ('<a href="x.md#a&amp;b">a</a>', "a&b"),
        ("[a](#p-1 'title')", "p-1"),
    ],
)
def test_every_anchor_a_hand_written_link_names_is_among_the_fragments(written, anchor):
    assert anchor in fragments([f"前文 {written} 后文"])
