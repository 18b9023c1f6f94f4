"""What the adapter reads from generated HTML: the table of contents, the title, the anchors,
links resolved (kb.site.htmlpage)."""

from __future__ import annotations

import html as std_html
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from kb.render import html
from kb.site import htmlpage

PAGE = html.blocks(
    html.heading(1, html.esc("Brief <1> & co"), "top"),
    html.heading(2, "Sources " + html.code("x"), "sources"),
    html.heading(3, "One", "src-1"),
    html.heading(3, "Two", "src-2"),
    html.heading(2, "Checks", "checks"),
    html.p(
        html.span("", id="adj-a")
        + html.link("paper", "../papers/p.md#notes")
        + html.link("ext", "https://arxiv.org/abs/2505.02922")
    ),
)


def test_toc_nests_by_level_and_keeps_the_text_as_html():
    toc = htmlpage.toc_tokens(PAGE)
    assert [t["id"] for t in toc] == ["top"]
    assert toc[0]["name"] == "Brief &lt;1&gt; &amp; co"
    assert [(t["id"], [c["id"] for c in t["children"]]) for t in toc[0]["children"]] == [
        ("sources", ["src-1", "src-2"]),
        ("checks", []),
    ]
    assert toc[0]["children"][0]["name"] == "Sources x"  # tags and the permalink dropped


def test_a_heading_can_have_a_shorter_name_in_the_toc():
    """``data-toc-label`` (the toc extension's attribute) names a heading in the table of contents;
    the page shows the whole heading, and its title is still the heading's text."""
    page = html.heading(1, "Brief &lt;1&gt;", "top", "Short <1>") + html.heading(
        2, "增量 1【§1.(1) 推理引擎 · 2026-09-03】 SSR：自投机解码", "inc-1", "增量 1 · SSR"
    )
    (top,) = htmlpage.toc_tokens(page)
    assert top["name"] == "Short &lt;1&gt;" and top["children"][0]["name"] == "增量 1 · SSR"
    assert htmlpage.title(page) == "Brief &lt;1&gt;"
    assert 'data-toc-label="增量 1 · SSR"' in page and "自投机解码" in page


def test_title_is_the_first_h1():
    assert htmlpage.title(PAGE) == "Brief &lt;1&gt; &amp; co"
    assert htmlpage.title(html.heading(2, "x", "x")) is None


def test_anchor_ids_are_every_id():
    assert htmlpage.anchor_ids(PAGE) == {"top", "sources", "src-1", "src-2", "checks", "adj-a"}
    spaced = '<p\n  class="a b"  id="one"><a href="#x" title="id x"\tid="two">x</a><b data-id="no">'
    assert htmlpage.anchor_ids(spaced + '<i id="a&amp;b"></i>') == {"one", "two", "a&b"}


def test_anchor_ids_name_only_a_tags_and_the_first_id_of_a_tag():
    page = '<meta name="viewport"><a name="old">x</a> <p data-name="no" id="p" id="again">id="text"</p>'
    assert htmlpage.anchor_ids(page + '&lt;div id="code"&gt; <!-- id="c" -->') == {"old", "p"}


# The anchors as a regular expression read them, one tag at a time (slow: it reads every tag)
_S, _NOT_S = "[ \t\n\r\f]", "[^> \t\n\r\f]"  # HTML's spaces, and what a tag's parts are made of
_ID_RE = re.compile(rf'<[a-zA-Z]{_NOT_S}*+(?:{_S}(?!id="){_NOT_S}*+)*+{_S}id="([^"]*)"')
_NAME_RE = re.compile(rf'<a{_S}(?:[^>]*?{_S})??name="([^"]*)"')
_PIECES = ["<p", "<a", "<i", " ", "\n", "\t", "\u3000", 'id="', 'name="', 'data-id="', "x", "&amp;", '"', ">", "<"]
_PIECES += ["<!--"]


@settings(max_examples=2000)
@example('<a name=" name="id="')  # the first name= of a tag, even where a quote is not closed
@example('<p id="><p id="id="')  # a value holding "<p id=": no tag of its own
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_anchor_ids_are_what_a_regular_expression_reads(text):
    if len(re.findall(r"<[a-zA-Z][^>]*>?", text)) != len(re.findall(r"<[a-zA-Z]", text)):
        return  # (a tag holding another "<": the expression reads on from the inner one)
    expected = {std_html.unescape(x) for x in _ID_RE.findall(text)} | {
        std_html.unescape(x) for x in _NAME_RE.findall(text)
    }
    assert htmlpage.anchor_ids(text) == expected


def test_links_are_resolved_and_escaped_back():
    seen = []

    def resolve(href: str) -> str:
        seen.append(href)
        return href.replace("../papers/p.md", "../papers/p/") + "&x=1" if href.startswith("..") else href

    out = htmlpage.resolve_links(PAGE, resolve)
    assert seen == [
        "#top",
        "#sources",
        "#src-1",
        "#src-2",
        "#checks",
        "../papers/p.md#notes",
        "https://arxiv.org/abs/2505.02922",
    ]
    assert 'href="../papers/p/#notes&amp;x=1"' in out


def test_a_link_is_resolved_once_a_page_and_a_missing_one_at_each_place():
    """A link written twice is resolved once; one to a missing page stays as written, and is
    resolved (so said) again at each place."""
    seen = []

    def resolve(href: str) -> str | None:
        seen.append(href)
        return None if "nowhere" in href else "../p/"

    missing = '<a href="nowhere.md?a=1&amp;b=\'">'
    page = f'<a href="p.md">a</a>{missing}b</a><a href="p.md">c</a>{missing}d</a>'
    out = htmlpage.resolve_links(page, resolve)
    assert seen == ["p.md", "nowhere.md?a=1&b='", "nowhere.md?a=1&b='"]
    assert out == page.replace('"p.md"', '"../p/"').replace("'", "&#x27;")


def test_relative_url_is_mkdocs_own():
    from mkdocs.utils import get_relative_url

    cases = [
        ("papers/x/", "briefs/inference/2026-09-01-e1/"),
        ("papers/x/", "papers/y/"),
        ("", "papers/y/"),
        ("inference/", ""),
        ("references.bib", "papers/"),
        ("papers/x/", "papers/x/"),
        ("a/b/c.html", "a/d/e.html"),
    ]
    for url, other in cases:
        assert htmlpage.relative_url(url, other) == get_relative_url(url, other), (url, other)


def test_resolver_maps_sources_to_urls_and_records_anchors_and_misses():
    urls = {"papers/p.md": "papers/p/", "inference.md": "inference/", "briefs/index.md": "briefs/"}
    found = htmlpage.Links()
    resolve = htmlpage.resolver("briefs/inference/x.md", "briefs/inference/x/", urls, found)
    assert resolve("../../papers/p.md#notes") == "../../../papers/p/#notes"
    assert resolve("../../inference.md") == "../../../inference/"
    assert resolve("#inc-1") == "#inc-1"
    assert resolve("https://arxiv.org/abs/2505.02922") == "https://arxiv.org/abs/2505.02922"
    assert resolve("http://[abc/") == "http://[abc/"  # an address urlsplit refuses: as written, not a crash
    assert resolve("../../nowhere.md") is None
    assert found.anchors == {
        "papers/p.md": {"notes": "../../papers/p.md#notes"},
        "briefs/inference/x.md": {"inc-1": "#inc-1"},
    }
    assert found.missing == [("../../nowhere.md", "nowhere.md")]
    assert found.targets == {"papers/p.md", "inference.md", "nowhere.md"}  # a kept page naming nowhere.md is stale
