"""Line breaks of hand-written Chinese text: Markdown keeps them, and a browser would show each as
a space between two characters (kb.data.cjk.join_cjk_breaks)."""

from __future__ import annotations

import copy
import re

import pytest

from kb.data.cjk import join_cjk_breaks


@pytest.mark.parametrize(
    "html,joined",
    [
        ("<p>每个值和每个键\n记下它的位置</p>", "<p>每个值和每个键记下它的位置</p>"),
        ("<p>一行  \n   两行</p>", "<p>一行两行</p>"),  # with the spaces around the break
        ("<p>结束。\nNext line</p>", "<p>结束。Next line</p>"),  # after Chinese punctuation
        ("<p>word\n，中文</p>", "<p>word，中文</p>"),  # before it
        ("<p>中文\n<strong>粗体</strong>\n文字</p>", "<p>中文<strong>粗体</strong>文字</p>"),  # tags between
        ("<li>第一行<br>\n第二行</li>", "<li>第一行<br>第二行</li>"),
        ('<a title="中\n文" href="x">中\n文</a>', '<a title="中\n文" href="x">中文</a>'),  # attributes kept
        ('<a title="a>b">中\n文</a>', '<a title="a>b">中文</a>'),  # a quoted > is no tag end
    ],
)
def test_breaks_between_chinese_characters_go(html, joined):
    assert join_cjk_breaks(html) == joined


@pytest.mark.parametrize(
    "html",
    [
        "<p>Latin words\nkeep their space</p>",
        "<p>中文 and\nEnglish</p>",  # a break between Chinese and Latin text is a space
        "<p>中文\nEnglish</p>",
        "<p>中文 文字</p>",  # a space the author typed on one line stays
        "<p>한국어\n문장</p>",  # Korean spaces its words
        "<pre><code>第一行\n第二行</code></pre>",
        "<p><code>中\n文</code> and <kbd>中\n文</kbd></p>",
        "<pre>中\n<b>文</b>\n字</pre>",
    ],
)
def test_other_text_and_code_keep_their_breaks(html):
    assert join_cjk_breaks(html) == html


def test_text_after_code_is_joined_again():
    html = "<p><code>中\n文</code>之后\n的文字<pre>代\n码</pre>后\n面</p>"
    assert join_cjk_breaks(html) == "<p><code>中\n文</code>之后的文字<pre>代\n码</pre>后面</p>"


def test_page_text_reads_without_spaces_between_characters(pages):
    """The fixture's hand-written pages wrap their Chinese lines; on the built page no break is
    left between two Chinese characters (the template page's macro output is data, joined when read)."""
    seen = 0
    for rel in ("index.html", "inference/index.html"):
        article = copy.copy(pages.article(rel))  # the session's parsed page stays as it is
        for code in article.select("pre, code, kbd"):
            code.replace_with("x")  # kept as written; Latin beside Chinese keeps its space
        for block in article.select("p, td, th, dt, dd, h1, h2, h3, h4, summary"):
            text = block.get_text()
            seen += bool(re.search(r"[\u4e00-\u9fff]", text))
            assert not re.search(r"[\u4e00-\u9fff，。、；：]\s*\n\s*[\u4e00-\u9fff]", text), (rel, text)
    assert seen > 10
