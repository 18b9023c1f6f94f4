"""A reader's views of the site of three topics (``tests/fixtures/team``) in Debian's chromium, on a
phone (390×844) and a desktop (1366×900), in the light and the dark scheme: the home page's list of
topics and a cross-topic paper's page (CRISP: primary llm-infra, adjacent inference), the backlog
of three topics and a second topic's living document with nothing cut off and no serious or
critical axe-core violation; the backlog's jump to one topic; search's topic filter naming the
three topics by their titles."""

from __future__ import annotations

import pytest
from test_reader_views import OVERFLOW_JS, VIEWPORTS

from sitebuild import CHROMIUM, serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

PAGES = {"home": "", "paper": "papers/crisp/", "backlog": "backlog/", "living": "llm-infra/"}
SCHEMES = ("light", "dark")
ALL = [(n, s, c) for n in PAGES for s in VIEWPORTS for c in SCHEMES]
IDS = [f"{n}-{s}-{c}" for n, s, c in ALL]
TITLES = ["智能体", "LLM 推理", "LLM 基础设施"]  # the topics, in the order of their files


@pytest.fixture(scope="module")
def base_url(team_site):
    with serve_directory(team_site) as url:
        yield url


@pytest.fixture
def open_page(browser, base_url):
    contexts = []

    def make(path: str, size: str, scheme: str = "light"):
        ctx = browser.new_context(
            viewport=VIEWPORTS[size], color_scheme=scheme, locale="zh-CN", is_mobile=size == "phone"
        )
        contexts.append(ctx)
        page = ctx.new_page()
        failed: list[str] = []
        page.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.url} ({r.status})"))
        page.goto(base_url + path, wait_until="load")
        page.wait_for_timeout(300)  # Material's palette and scripts settle
        return page, failed

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("name,size,scheme", ALL, ids=IDS)
def test_nothing_is_cut_off_and_axe_finds_nothing_serious(open_page, name, size, scheme):
    from axe_playwright_python.sync_playwright import Axe

    page, failed = open_page(PAGES[name], size, scheme)
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == (
        "slate" if scheme == "dark" else "default"
    )
    assert page.evaluate(OVERFLOW_JS) == []
    assert [f for f in failed if "/versions.json " not in f] == []
    violations = Axe().run(page).response["violations"]
    bad = [
        (x["id"], [n["target"] for n in x["nodes"]][:3]) for x in violations if x["impact"] in ("serious", "critical")
    ]
    assert bad == []


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_home_page_shows_each_topic_as_a_card(open_page, size):
    page, _ = open_page("", size)
    cards = page.locator("article ul.kb-topics > li")
    assert [c.strip() for c in page.locator("article .kb-topic-title").all_inner_texts()] == TITLES
    boxes = [cards.nth(i).bounding_box() for i in range(cards.count())]
    width = VIEWPORTS[size]["width"]
    assert all(b is not None and b["width"] > 200 and b["x"] + b["width"] <= width for b in boxes), boxes
    lefts = {round(b["x"]) for b in boxes}
    assert len(lefts) == (1 if size == "phone" else 3), boxes  # side by side where they fit
    # each card's newest brief opens that brief
    cards.nth(2).locator("p").nth(1).locator("a").click()
    page.wait_for_url("**/briefs/llm-infra/2026-09-05-e1/")


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_paper_page_names_both_topics_where_it_stands(open_page, size):
    page, _ = open_page(PAGES["paper"], size)
    anchored = page.locator("article h2#anchored + ul > li")
    assert anchored.count() == 2
    first, second = anchored.nth(0), anchored.nth(1)
    assert first.inner_text().startswith("LLM 基础设施 · §2.(1) 稀疏注意力")
    assert "「LLM 推理」" in second.inner_text()
    for row in (first, second):
        box = row.bounding_box()
        assert box is not None and box["x"] + box["width"] <= VIEWPORTS[size]["width"]
    first.locator("a").first.click()
    page.wait_for_url("**/llm-infra/#sec-i2-1-sparse-attention")
    assert page.locator("[id='sec-i2-1-sparse-attention']").bounding_box()["y"] < VIEWPORTS[size]["height"]


def test_the_backlog_jumps_to_one_topic(open_page):
    page, _ = open_page("backlog/", "phone")
    page.locator("article p.kb-topic-jump a", has_text="LLM 基础设施").click()
    page.wait_for_url("**/backlog/#pending-llm-infra")
    heading = page.locator("h2#pending-llm-infra")
    assert 0 <= heading.bounding_box()["y"] < VIEWPORTS["phone"]["height"] / 2


def test_search_filters_by_the_topics_titles(open_page):
    page, _ = open_page("guide/", "desktop")
    page.keyboard.press("/")
    page.locator("form[name='kb-search'] input[name='query']").wait_for(state="visible")
    page.keyboard.type("CRISP")
    page.keyboard.press("End")
    page.wait_for_function("() => document.querySelector('#kb-search-results').dataset.query === 'CRISP'")
    select = page.locator(".kb-search__filters select[name='主题']")
    assert select.is_visible()
    values = select.locator("option").evaluate_all("os => os.map(o => o.value).filter(Boolean)")
    assert sorted(values) == sorted(TITLES)
    # an option is disabled while the counts of the results shown give it none: wait for CRISP's
    page.wait_for_function(
        """() => [...document.querySelectorAll(".kb-search__filters select[name='主题'] option")]
            .some(o => o.value === 'LLM 基础设施' && !o.disabled)""",
        timeout=10000,
    )
    select.select_option("LLM 基础设施")
    page.wait_for_function(
        "() => (document.querySelector('#kb-search-results').dataset.filters || '').includes('LLM 基础设施')",
        timeout=10000,
    )
    first = page.locator("#kb-search-results .md-search-result__item a").first.get_attribute("href")
    assert "papers/crisp/" in first
