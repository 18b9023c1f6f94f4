"""What the adapter reads from generated HTML: the table of contents, the title, the anchors,
links resolved (kb.site.pages.htmlpage)."""

from __future__ import annotations

import html as std_html

from hypothesis import given, settings
from hypothesis import strategies as st

from kb.render import html
from kb.site.pages import htmlpage


def toc(page: str) -> list[htmlpage.TocToken]:
    return htmlpage.outline(page).toc()


def title(page: str) -> str | None:
    return htmlpage.outline(page).title


def ids(page: str) -> set[str]:
    return htmlpage.outline(page).ids


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
    found = toc(PAGE)
    assert [t["id"] for t in found] == ["top"]
    assert found[0]["name"] == "Brief &lt;1&gt; &amp; co"
    assert [(t["id"], [c["id"] for c in t["children"]]) for t in found[0]["children"]] == [
        ("sources", ["src-1", "src-2"]),
        ("checks", []),
    ]
    assert found[0]["children"][0]["name"] == "Sources x"  # tags and the permalink dropped


def test_a_heading_can_have_a_shorter_name_in_the_toc():
    """``data-toc-label`` (the toc extension's attribute) names a heading in the table of contents;
    the page shows the whole heading, and its title is still the heading's text."""
    page = html.heading(1, "Brief &lt;1&gt;", "top", "Short <1>") + html.heading(
        2, "增量 1【§1.(1) 推理引擎 · 2026-09-03】 SSR：自投机解码", "inc-1", "增量 1 · SSR"
    )
    (top,) = toc(page)
    assert top["name"] == "Short &lt;1&gt;" and top["children"][0]["name"] == "增量 1 · SSR"
    assert title(page) == "Brief &lt;1&gt;"
    assert 'data-toc-label="增量 1 · SSR"' in page and "自投机解码" in page


def test_title_is_the_first_h1():
    assert title(PAGE) == "Brief &lt;1&gt; &amp; co"
    assert title(html.heading(2, "x", "x")) is None


def test_anchor_ids_are_every_id():
    assert ids(PAGE) == {"top", "sources", "src-1", "src-2", "checks", "adj-a"}
    spaced = '<p\n  class="a b"  id="one"><a href="#x" title="id x"\tid="two">x</a><b data-id="no">'
    assert ids(spaced + '<i id="a&amp;b"></i>') == {"one", "two", "a&b"}


def test_anchor_ids_name_only_a_tags_and_the_first_id_of_a_tag():
    page = '<meta name="viewport"><a name="old">x</a> <p data-name="no" id="p" id="again">id="text"</p>'
    assert ids(page + '&lt;div id="code"&gt; <!-- id="c" -->') == {"old", "p"}


_VALUE = st.text(alphabet='ab> <=&"', max_size=6).map(lambda v: v.replace("&", "&amp;"))
_ATTR = st.tuples(st.sampled_from(["id", "name", "data-id", "title", "ID"]), _VALUE)
_TAGS = st.tuples(st.sampled_from(["p", "a", "i", "A"]), st.lists(_ATTR, max_size=3))
_BETWEEN = st.sampled_from(["x", ' id="t" ', "&lt;p id=&quot;c&quot;&gt;", '<!-- <p id="k"> -->', "\n"])


def _tag(name: str, attrs: list[tuple[str, str]]) -> str:
    return f"<{name}" + "".join(f" {a}='{v}'" if '"' in v else f' {a}="{v}"' for a, v in attrs) + ">"


@settings(max_examples=500)
@given(st.lists(st.tuples(_TAGS, _BETWEEN), max_size=8))
def test_anchor_ids_are_each_tag_s_first_id_and_an_a_tag_s_first_name(parts):
    """Values holding ``>``, ``=``, spaces and quotes of the other kind; ids written in text and
    comments are not anchors."""
    page = "".join(_tag(name, attrs) + between for (name, attrs), between in parts)
    expected = set()
    for (name, attrs), _ in parts:
        first = {}
        for a, v in attrs:
            first.setdefault(a.lower(), std_html.unescape(v))
        expected |= {first[k] for k in ("id", "name") if k in first and (k == "id" or name.lower() == "a")}
    assert ids(page) == expected


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
