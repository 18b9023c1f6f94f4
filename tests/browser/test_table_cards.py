"""Wide generated tables on a phone: one card per row, each cell beside its column's name, nothing
to scroll sideways; on a desktop the same tables stay tables.  Sortable ones still sort on a phone.
The frozen fixture site in Debian's chromium."""

from __future__ import annotations

import pytest

from sitebuild import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PAGES = ["briefs/inference/2026-09-03-e1/", "briefs/", "papers/", "backlog/", "inference/"]

# Every marked table: its width against the article's, how its rows display, and for each cell after
# the first whether the name shown before it (its ::before) is its column's header text.
CARDS_JS = """() => Array.from(document.querySelectorAll('article table[data-kb-cards]')).map(t => {
  const names = Array.from(t.tHead.rows[0].cells).map(th => th.textContent.replace(/\\s+/g, ' ').trim());
  const rows = Array.from(t.tBodies[0].rows).filter(r => !r.hidden && !r.classList.contains('kb-table-empty'));
  const wrong = [];
  for (const r of rows) Array.from(r.cells).forEach((c, i) => {
    const shown = getComputedStyle(c, '::before').content;
    const want = i === 0 ? 'none' : JSON.stringify(names[i]);
    if (shown !== want || c.getAttribute('role') !== 'cell') wrong.push(`${names[i]}: ${shown}`);
  });
  return {
    width: t.getBoundingClientRect().width, article: document.querySelector('article').clientWidth,
    row: getComputedStyle(rows[0]).display, roles: [t.getAttribute('role'), rows[0].getAttribute('role')],
    rows: rows.length, wrong: wrong.slice(0, 5),
  };
})"""


@pytest.fixture
def open_page(browser, base_url):
    contexts = []

    def make(path: str, viewport: dict[str, int]):
        ctx = browser.new_context(viewport=viewport, locale="zh-CN", is_mobile=viewport is PHONE)
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(base_url + path, wait_until="load")
        page.wait_for_timeout(300)
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.mark.parametrize("path", PAGES)
def test_wide_tables_read_as_cards_on_a_phone(open_page, path):
    tables = open_page(path, PHONE).evaluate(CARDS_JS)
    assert tables, "the page has a table of four columns or more"
    for t in tables:
        assert t["row"] == "block" and t["roles"] == ["table", "row"] and t["rows"] > 0
        assert t["width"] <= t["article"] + 1, t
        assert t["wrong"] == []


@pytest.mark.parametrize("path", PAGES)
def test_the_same_tables_stay_tables_on_a_desktop(open_page, path):
    no_names = CARDS_JS.replace("i === 0 ? 'none' : JSON.stringify(names[i])", "'none'")
    for t in open_page(path, DESKTOP).evaluate(no_names):
        assert t["row"] == "table-row" and t["wrong"] == []  # no names before the cells


def test_a_sortable_table_still_sorts_on_a_phone(open_page):
    page = open_page("backlog/", PHONE)
    table = page.locator("div[data-kb-table] table[data-kb-cards]").first
    head = table.locator("thead th").nth(1)  # arXiv: the ids differ from row to row
    assert head.is_visible() and head.bounding_box()["width"] < PHONE["width"] / 2  # a button among others
    shown = table.locator("thead tr").evaluate("(tr) => getComputedStyle(tr, '::before').content")
    assert shown == '"排序"'  # the row says what its buttons do
    firsts = "(t) => Array.from(t.tBodies[0].rows).filter(r => !r.hidden).map(r => r.cells[1].textContent.trim())"
    head.locator("button").click()
    up = table.evaluate(firsts)
    head.locator("button").click()
    down = table.evaluate(firsts)
    assert head.get_attribute("aria-sort") == "descending"
    assert len(set(up)) > 1 and up != down and sorted(up) == sorted(down)
