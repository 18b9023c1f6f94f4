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
    blank_heads: rows.filter(r => ['', '—'].includes(r.cells[0].textContent.trim())).length,
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
        assert t["blank_heads"] == 0  # each card is headed by what identifies its row


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


def test_filtering_hides_cards_on_a_phone(open_page):
    page = open_page("papers/", PHONE)
    rows = "Array.from(document.querySelectorAll('table[data-kb-cards] tbody tr')).filter(r => r.offsetHeight > 0)"
    before = page.evaluate(f"{rows}.length")
    page.locator(".kb-table-filter").first.fill("RetroInfer")
    shown = page.evaluate(f"{rows}.map(r => r.textContent)")
    assert 0 < len(shown) < before and all("RetroInfer" in text for text in shown)
    page.locator(".kb-table-filter").first.fill("no row holds this")
    assert page.evaluate(f"{rows}.map(r => r.className)") == ["kb-table-empty"]  # only the empty state


def test_a_cell_is_as_tall_as_its_name(open_page):
    """A column name of two lines beside a value of one does not run into the next cell."""
    page = open_page("briefs/", PHONE)
    label, lines = page.evaluate("""() => {
      const cell = [...document.querySelectorAll('table[data-kb-cards] td[data-label]')]
        .find(c => c.getAttribute('data-label').length >= 7);  // 本棒性质与主增量: two lines on a phone
      cell.textContent = '—';
      const line = parseFloat(getComputedStyle(cell).lineHeight);
      return [cell.getAttribute('data-label'), cell.getBoundingClientRect().height / line];
    }""")
    assert lines >= 2, (label, lines)
    overlaps = page.evaluate("""() => [...document.querySelectorAll('table[data-kb-cards] tbody tr')].flatMap(tr =>
      [...tr.cells].slice(0, -1)
        .filter((c, i) => c.getBoundingClientRect().bottom > tr.cells[i + 1].getBoundingClientRect().top + .5)
        .map(c => c.getAttribute('data-label')))""")
    assert overlaps == []


def test_a_link_to_a_section_below_a_long_table_lands_on_it(open_page):
    """Cards are laid out where they are (no size estimated for cards off screen), so following a link
    to the section after a long table of cards shows that section's heading at the top."""
    page = open_page("backlog/", PHONE)
    page.evaluate("""() => {  // the fixture's table made as long as a year of data makes it
      const body = document.querySelector('div[data-kb-table] table[data-kb-cards]').tBodies[0];
      const rows = [...body.rows].filter(r => !r.hidden);
      for (let i = 0; i < 40; i++) rows.forEach(r => body.insertBefore(r.cloneNode(true), rows[0]));
    }""")
    page.evaluate("location.hash = '#claims'")
    page.wait_for_timeout(300)
    top = page.locator("#claims").bounding_box()["y"]
    assert 0 <= top < 120, top  # under the header bar, not above the screen or mid-table


def test_sortable_headers_carry_no_icon_of_materials_own_sort(open_page):
    page = open_page("backlog/", DESKTOP)
    afters = page.evaluate("""() => [...document.querySelectorAll('.kb-table th')].map(th =>
      [th.getAttribute('role'), getComputedStyle(th, '::after').content])""")
    assert afters and all(role is None and content == "none" for role, content in afters)


def test_the_papers_index_has_no_empty_sidebar_and_its_table_fits_a_desktop(open_page):
    """A page in the nav without sections keeps no empty table-of-contents sidebar; the room goes to
    its table (the papers index: eight columns)."""
    page = open_page("papers/", DESKTOP)
    assert page.locator(".md-sidebar--secondary").is_hidden()
    wrap = page.locator("article .md-typeset__scrollwrap").first
    assert wrap.evaluate("w => w.scrollWidth <= w.clientWidth + 1")
    assert open_page("backlog/", DESKTOP).locator(".md-sidebar--secondary").is_visible()  # it has sections


def test_the_backlog_tables_fit_a_desktop_and_the_navigation_stays_in_the_phone_drawer(open_page):
    """A page that is a tab of its own has no navigation sidebar listing it alone: the room goes to
    its tables (the backlog's nine columns); on a phone the drawer still holds the whole navigation."""
    page = open_page("backlog/", DESKTOP)
    assert page.locator(".md-sidebar--primary").is_hidden() and page.locator(".md-sidebar--secondary").is_visible()
    over = page.evaluate("""() => [...document.querySelectorAll('article .md-typeset__scrollwrap')]
      .map(w => w.scrollWidth - w.clientWidth)""")
    assert over and max(over) <= 1, over
    assert page.locator(".kb-scroll-hint").count() == 0
    assert open_page("inference/", DESKTOP).locator(".md-sidebar--primary").is_visible()  # a page of a section
    phone = open_page("backlog/", PHONE)
    phone.locator("label.md-header__button[for='__drawer']").click()
    assert phone.locator(".md-nav--primary a.md-nav__link", has_text="术语").is_visible()


RANK = {"低": 1, "中-低": 2, "中": 3, "高": 4, "极高": 5}


@pytest.mark.parametrize("column", ["可信度", "arXiv"])
def test_levels_sort_by_rank_and_empty_cells_go_last(open_page, column):
    page = open_page("papers/", DESKTOP)
    table = page.locator("div[data-kb-table='papers'] table")
    col = [t.strip() for t in table.locator("thead th").all_inner_texts()].index(column)
    head = table.locator("thead th").nth(col).locator("button")
    cells = f"(t) => [...t.tBodies[0].rows].filter(r => !r.hidden).map(r => r.cells[{col}].textContent.trim())"
    for direction in ("ascending", "descending"):
        head.click()
        values = table.evaluate(cells)
        filled = [v for v in values if v != "—"]
        assert "—" in values and values == filled + ["—"] * (len(values) - len(filled)), values  # empty last
        key = (lambda v: RANK[v]) if column == "可信度" else (lambda v: v)
        assert filled == sorted(filled, key=key, reverse=direction == "descending"), filled
        assert len(set(filled)) > 1


@pytest.mark.parametrize("path", ["papers/retroinfer/", "papers/albireo/", "papers/silent-hyperparameter/", "stats/"])
def test_narrow_tables_fit_a_phone(open_page, path):
    """Tables of three columns (a paper's back-links, whose places can be long source paths; the
    statistics) fit a phone's column instead of scrolling sideways by a few pixels."""
    wide = open_page(path, PHONE).evaluate("""() => [...document.querySelectorAll('article .md-typeset__scrollwrap')]
      .filter(w => w.scrollWidth > w.clientWidth + 1).map(w => [w.scrollWidth, w.clientWidth])""")
    assert wide == []
