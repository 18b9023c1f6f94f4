"""A reader in a real browser (search: test_search.py): follow an arXiv link to a paper and back
through a backlink, sort the backlog; a screenshot of the brief page is kept."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitebuild import CHROMIUM

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = ctx.new_page()
    yield pg
    ctx.close()


def test_arxiv_link_to_paper_and_back_through_backlink(page, base_url):
    page.goto(base_url + "briefs/inference/2026-09-03-e1/")
    page.locator("article a", has_text="arXiv:2505.02922").first.click()
    page.wait_for_url(re.compile(r".*/papers/retroinfer/$"))
    assert page.locator("article h1").inner_text().startswith("RetroInfer")
    back = page.locator("#backlinks ~ .kb-backlinks a[href*='2026-09-03-e1/#inc-2']").first
    back.click()
    page.wait_for_url(re.compile(r".*/briefs/inference/2026-09-03-e1/#inc-2$"))
    assert "RetroInfer" in page.locator("#inc-2").inner_text()


def _pending_ages() -> list[int]:
    """The ages of the fixture's pending items, from its data (what the table must show)."""
    from kb.knowledge.backlog import pending_items
    from kb.knowledge.load import load_kb
    from sitebuild import FIXTURE_DATA

    return [it.age_days for it in pending_items(load_kb(FIXTURE_DATA), "inference")]


def test_sort_and_filter_backlog(page, base_url):
    """Sorting by a column (both ways) and filtering work in the browser; the header cells are
    buttons with aria-sort on the th, the filter's count is announced, and an empty state shows."""
    expected = _pending_ages()
    assert len(set(expected)) > 1  # sorting must be observable
    page.goto(base_url + "backlog/")
    box = page.locator("[data-kb-table='pending-inference']")
    table = box.locator("table")
    heads = [t.strip() for t in table.locator("thead th").all_inner_texts()]
    col = heads.index("天数") + 1
    header = table.locator("thead th", has_text="天数")
    button = header.locator("button")
    assert button.count() == 1 and header.get_attribute("aria-sort") == "none"

    def ages():
        return [int(t) for t in table.locator(f"tbody tr:not(.kb-table-empty) td:nth-child({col})").all_inner_texts()]

    button.click()
    assert header.get_attribute("aria-sort") == "ascending"
    assert ages() == sorted(expected)
    button.focus()
    page.keyboard.press("Enter")  # a real button: the keyboard sorts too
    assert header.get_attribute("aria-sort") == "descending"
    assert ages() == sorted(expected, reverse=True)
    others = [th.get_attribute("aria-sort") for th in table.locator("thead th").all()]
    assert others.count("descending") == 1 and others.count("none") == len(heads) - 1
    cell, words = header.bounding_box(), button.bounding_box()
    assert cell and words and cell["height"] > words["height"] + 4  # padding around the button
    header.click(position={"x": cell["width"] - 2, "y": cell["height"] - 2})  # the cell's corner, off the button
    assert header.get_attribute("aria-sort") == "ascending"
    button.click()  # back to descending, as the filter below expects
    assert header.get_attribute("aria-sort") == "descending"

    status = box.locator("[role=status][aria-live=polite]")
    box.locator("input.kb-table-filter").fill("Stream2LLM")
    visible = [r for r in table.locator("tbody tr").all() if r.is_visible()]
    assert len(visible) == 1 and "Stream2LLM" in visible[0].inner_text()
    assert status.inner_text() == f"显示 1 / {len(expected)} 行"
    empty = table.locator("tbody tr.kb-table-empty")
    assert not empty.is_visible()

    box.locator("input.kb-table-filter").fill("没有这样的论文")
    visible = [r for r in table.locator("tbody tr").all() if r.is_visible()]
    assert [r.get_attribute("class") for r in visible] == ["kb-table-empty"]
    assert empty.is_visible() and "没有符合" in empty.inner_text()
    assert status.inner_text() == f"显示 0 / {len(expected)} 行"

    box.locator("input.kb-table-filter").fill("")
    assert len(ages()) == len(expected) and not empty.is_visible() and status.inner_text() == ""


def test_screenshot_of_the_brief_page(page, base_url):
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(base_url + "briefs/inference/2026-09-03-e1/")
    page.wait_for_selector("#inc-1")
    shot = ARTIFACTS / "brief-2026-09-03.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 10_000


RING = """() => {
  const el = document.activeElement, s = getComputedStyle(el);
  const where = el.matches('.md-skip') ? 'skip' : el.closest('.md-header') ? 'header' : 'other';
  return [where, s.outlineStyle, parseFloat(s.outlineWidth)];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keyboard_focus_shows_a_ring_of_two_pixels(browser, base_url, scheme):
    """Tabbing onto a link, the BibTeX block and a header control draws a 2 px ring (Material drew
    a colour change or 1 px)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", color_scheme=scheme)
    pg = ctx.new_page()
    pg.goto(base_url + "papers/ssr/")
    rings = {}
    for _ in range(8):  # from the top: the skip link, then the header's controls
        pg.keyboard.press("Tab")
        where, style, width = pg.evaluate(RING)
        rings.setdefault(where, (style, width))
    pg.reload()  # the search dialog the header's search field opened keeps the focus
    for target in ("article .kb-identity a[href]", "pre.kb-bibtex"):
        pg.evaluate(
            """(sel) => {
              const el = document.querySelector(sel);
              const all = [...document.querySelectorAll('a[href], button, input, [tabindex="0"]')]
                .filter(x => x.offsetParent !== null || x === el);
              all[all.indexOf(el) - 1].focus();
            }""",
            target,
        )
        pg.keyboard.press("Tab")
        assert pg.evaluate("(sel) => document.activeElement === document.querySelector(sel)", target), target
        rings[target] = pg.evaluate(RING)[1:]
    assert {"skip", "header", "article .kb-identity a[href]", "pre.kb-bibtex"} <= set(rings), rings
    for where, (style, width) in rings.items():
        assert style == "solid" and width >= 2, (where, style, width)
    ctx.close()
