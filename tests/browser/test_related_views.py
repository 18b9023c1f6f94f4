"""Related papers in Debian's chromium (kb.render.related): a paper page's graph and ranked list,
and a section's graph on the timeline page, at a phone's and a desktop's size in both schemes:
shown whole, the graph in the scheme's link colour, its nodes reached by Tab and followed by Enter,
and followed by a tap on a touch screen.  (Nothing cut off and axe's rules: test_reader_views,
whose pages include a paper page with its related papers.)"""

from __future__ import annotations

import re

import pytest

from sitebuild import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SCHEMES = ("light", "dark")
PAPER = "papers/cascade/"
TIMELINE = "timeline/inference/"


@pytest.fixture
def open_page(browser, base_url):
    contexts = []

    def make(path: str, size: str, scheme: str = "light", touch: bool = False):
        ctx = browser.new_context(
            viewport=VIEWPORTS[size], color_scheme=scheme, locale="zh-CN", is_mobile=size == "phone", has_touch=touch
        )
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(base_url + path, wait_until="load")
        page.wait_for_timeout(300)  # Material's palette settles
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def link_colour(page) -> str:
    return page.evaluate("getComputedStyle(document.querySelector('article li > a')).color")


@pytest.mark.parametrize("size,scheme", [(s, c) for s in VIEWPORTS for c in SCHEMES])
def test_a_paper_page_draws_and_lists_its_related_papers(open_page, size, scheme):
    page = open_page(PAPER, size, scheme)
    rows = page.locator("#related + .kb-related ol > li")
    assert rows.count() == 8
    first = rows.first.inner_text()
    assert first.startswith("OpScale 10 分") and "同一断言" in first and "推理调度" in first, first
    graph = page.locator("#related + .kb-related svg.kb-graph").first
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    assert box["width"] > 300 and 0 <= box["x"] and box["x"] + box["width"] <= VIEWPORTS[size]["width"]
    nodes = graph.locator("a")
    assert nodes.count() == 8  # the same papers as the list, in its order
    names = [n.get_attribute("aria-label").split("（")[0] for n in nodes.all()]
    assert names == [r.locator("a").first.inner_text() for r in rows.all()]
    for node in nodes.all():  # each label inside the drawing, none cut by the page
        label = node.locator("text").bounding_box()
        assert box["x"] - 1 <= label["x"] and label["x"] + label["width"] <= box["x"] + box["width"] + 1
    # the scheme's colours: nodes and labels in its link colour, the paper itself in its text colour
    assert nodes.first.locator("circle").evaluate("c => getComputedStyle(c).fill") == link_colour(page)
    text = page.evaluate("getComputedStyle(document.querySelector('article')).color")
    assert graph.locator(".kb-self text").evaluate("t => getComputedStyle(t).fill") == text


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_graph_works_by_keyboard(open_page, size):
    page = open_page(PAPER, size)
    # focus what comes just before the graph in the tab order: the intro's last focusable element
    # before it is the related heading's permalink
    page.locator("#related a.headerlink").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "(() => { const a = document.activeElement;"
        " return [a.tagName.toLowerCase(), a.closest('svg.kb-graph') !== null, a.getAttribute('aria-label')]; })()"
    )
    assert focused == ["a", True, "OpScale（10 分）"]
    ring = page.evaluate("getComputedStyle(document.activeElement.querySelector('circle')).stroke")
    assert ring not in ("none", "rgba(0, 0, 0, 0)", "transparent"), ring  # a visible focus ring
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "FlexLLM（7 分）"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/papers/flexllm/$"))


def test_a_tap_follows_a_node(open_page):
    page = open_page(PAPER, "phone", touch=True)
    node = page.locator("#related + .kb-related svg a").nth(2)
    assert node.get_attribute("aria-label") == "Stream2LLM（7 分）"
    node.scroll_into_view_if_needed()
    node.locator("circle").tap()
    page.wait_for_url(re.compile(r"/papers/stream2llm/$"))


@pytest.mark.parametrize("size,scheme", [(s, c) for s in VIEWPORTS for c in SCHEMES])
def test_a_section_of_the_timeline_draws_its_papers_relations(open_page, size, scheme):
    page = open_page(TIMELINE, size, scheme)
    part = page.locator("#s1-2-scheduling ~ .kb-section-graph").first
    part.scroll_into_view_if_needed()
    assert "7/7" in part.locator("p").first.inner_text()
    graph = part.locator("svg.kb-graph")
    box = graph.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEWPORTS[size]["width"]
    assert graph.locator("a").count() == 7 and graph.locator("path").evaluate_all(
        "ps => ps.map(p => p.getAttribute('d').split('M').length - 1)"
    ) == [4, 2]
    # the list says the same: each paper with those it is joined to
    rows = part.locator("ul.kb-graph-list > li").all_inner_texts()
    assert rows[0] == "Cascade：FlexLLM、OpScale、Stream2LLM", rows
    assert graph.locator("path").first.evaluate("l => getComputedStyle(l).stroke") != "none"
    node = graph.locator("a").first
    assert node.locator("circle").evaluate("c => getComputedStyle(c).fill") == link_colour(page)
    node.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/papers/cascade/$"))
