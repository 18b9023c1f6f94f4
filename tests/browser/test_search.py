"""Search as a reader meets it: Material's header search over the Pagefind index of the frozen
fixture site, in Debian's chromium.  Each query gets the right page first; results show the page's
type, date and best sections with the words marked; filters narrow them; "/" opens the dialog and
the page a result opens marks the words."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qs, urlsplit

import pytest
from test_reader_views import contrast, parse_rgb

from kb.site import search as search_marks
from sitebuild import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

RESULT = "#kb-search-results .md-search-result__item:not(.kb-search__more)"


def open_page(browser, site: str, height: int = 900):
    """The guide of the site at ``site`` in a new desktop-wide window ``height`` tall: its context,
    the page, and the page's errors as they come."""
    ctx = browser.new_context(viewport={"width": 1280, "height": height}, locale="zh-CN")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(site + "guide/")
    return ctx, pg, errors


@pytest.fixture
def page(browser, base_url):
    ctx, pg, errors = open_page(browser, base_url)
    yield pg
    assert not errors, errors
    ctx.close()


def search(page, query: str) -> list[dict]:
    """Open the search with its keyboard shortcut, type ``query``, return the results shown."""
    page.keyboard.press("/")
    box = page.locator("form[name='kb-search'] input[name='query']")
    box.wait_for(state="visible")
    assert page.evaluate("document.activeElement.name") == "query"
    page.keyboard.type(query)
    page.keyboard.press("End")  # typing CJK sends no key events
    page.wait_for_selector(RESULT, timeout=15000)
    page.wait_for_function(
        "q => document.querySelector('#kb-search-results').dataset.query === q", arg=query, timeout=15000
    )
    return search_results(page)


def search_results(page) -> list[dict]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(
            '#kb-search-results .md-search-result__item:not(.kb-search__more)')).map(li => ({
            href: li.querySelector('a').getAttribute('href'),
            title: li.querySelector('h1').textContent,
            type: (li.querySelector('.kb-search__type') || {}).textContent,
            facts: li.querySelector('.kb-search__facts').textContent,
            marks: Array.from(li.querySelectorAll('mark')).map(m => m.textContent),
            text: Array.from(li.querySelectorAll('h1, h2, p')).map(p => p.textContent),
            links: Array.from(li.querySelectorAll('a')).map(a => a.getAttribute('href')),
            sections: Array.from(li.querySelectorAll('a')).slice(1).map(a => a.getAttribute('href')),
        }))"""
    )


PRESS_MORE = """() => {
    const button = document.querySelector('.kb-search__more button');
    if (button) button.click();
    return !!button;
}"""


def all_results(page, results: list[dict]) -> list[dict]:
    """The results shown (``results``) and the rest, loaded by pressing "more" until none is left.
    The button is pressed where it is, in one step: a pointer's click scrolls it into view first,
    and the list loads its next batch when it is scrolled near its end, which takes the button
    away (the last batch) while the click still waits for it (scrolling is tested on its own)."""
    while page.evaluate(PRESS_MORE):
        page.wait_for_function(f"n => document.querySelectorAll('{RESULT}').length > n", arg=len(results))
        results = search_results(page)
    return results


def path(href: str) -> str:
    return urlsplit(href).path


FIRST = [
    ("RetroInfer", "/papers/retroinfer/", "论文"),  # an English name: its paper page
    ("2505.02922", "/papers/retroinfer/", "论文"),  # an arXiv id: the paper it names
    ("arXiv:2505.02922", "/papers/retroinfer/", "论文"),  # as it is cited
    ("valluri2026ssr", "/papers/ssr/", "论文"),  # its BibTeX key, from a .bib file
    ("投机", "/briefs/inference/2026-09-03-e1/", "简报"),  # inside 自投机解码: the brief that reports SSR
    ("自投机", "/briefs/inference/2026-09-03-e1/", "简报"),
    ("推理调度", "/inference/", "活文档"),  # a section of the living document
    ("向量存储", "/inference/", "活文档"),
    ("KV Cache", "/inference/", "活文档"),  # an English term the living document has a section on
]


@pytest.mark.parametrize("query, first, kind", FIRST)
def test_right_page_first(page, query, first, kind):
    results = search(page, query)
    assert path(results[0]["href"]) == first, [r["href"] for r in results]
    assert results[0]["type"] == kind
    assert any(results[0]["marks"]) or any(r["marks"] for r in results[:3]), results[:3]


def test_result_shows_the_section_type_and_date(page):
    results = search(page, "推理调度")
    living = results[0]
    assert any(urlsplit(s).fragment == "sec-s1-2-scheduling" for s in living["sections"]), living
    brief = next(r for r in results if r["type"] == "简报")
    assert "2026-09-0" in brief["facts"] and "LLM 推理" in brief["facts"], brief
    assert re.search(r"更新于 2026-09-\d\d", living["facts"]), living  # what each date is
    paper = next(r for r in all_results(page, results) if r["type"] == "论文")
    assert re.search(r"发表 \d{4}-\d\d", paper["facts"]), paper


@pytest.mark.parametrize("query", ["推理", "RetroInfer", "SSR"])
def test_no_excerpt_is_shown_twice_in_a_result(page, query):
    """A page's excerpt is not repeated under a section of it that quotes the same words, and no
    excerpt only repeats what a section's title says (a brief's increment is found in its heading,
    which the page's and the section's excerpts quoted again: three times one sentence); every
    result still shows where the words are (an excerpt or a section)."""
    search(page, query)
    shown = page.evaluate(
        f"""() => Array.from(document.querySelectorAll('{RESULT}')).map(li =>
            Array.from(li.querySelectorAll('article > h2, article > p')).map(e => [e.tagName, e.textContent]))"""
    )
    assert shown and all(len(r) for r in shown), shown
    marks = page.evaluate(
        f"() => Array.from(document.querySelectorAll('{RESULT}')).map(li => li.querySelectorAll('mark').length)"
    )
    assert all(marks), marks  # a section whose excerpt only repeated its title marks the words in the title
    for result in shown:
        excerpts = [_squash(text) for tag, text in result if tag == "P"]
        assert len(excerpts) == len(set(excerpts)), result
        for i, (tag, text) in enumerate(result):
            if tag == "P":
                before = [_squash(t) for _, t in result[:i]] + [_squash(t) for g, t in result if g == "H2"]
                assert not any(_squash(text) in other for other in before), (text, result)


@pytest.mark.parametrize("query", ["推理调度", "投机", "KV Cache"])
def test_a_sections_excerpt_does_not_open_with_its_title(page, query):
    """Pagefind starts a section's text at its heading: the excerpt under a section's title opened
    with that title again (or its end, when cut inside it: "…(2) 推理调度 Scheduling and serving. 批处理…")
    and the full stop after it; it starts after them, and the page's excerpt does not quote the
    passage a section's excerpt opens with."""
    search(page, query)
    shown = page.evaluate(
        f"""() => Array.from(document.querySelectorAll('{RESULT}')).map(li =>
            Array.from(li.querySelectorAll('article')).map(a => [
                (a.querySelector('h2') || {{}}).textContent || '',
                a.querySelector(':scope > p') ? a.querySelector(':scope > p').textContent : null
            ]))"""
    )
    # no excerpt is left empty (one that only held the title and its full stop is not shown)
    assert not [t for result in shown for _, t in result if t is not None and not _squash(t)], shown
    subs = [(title, text) for result in shown for title, text in result if title and text]
    assert subs, shown
    for title, text in subs:
        name, body = _squash(title), _squash(text)
        # the title whole, or its end closed by the heading's full stop (text may open with the words
        # a title ends with: "§1.(3) KV Cache" over "KV Cache 的优化路线。")
        assert not body.startswith(name), (title, text)
        assert not [k for k in range(3, min(len(name), len(body))) if name.endswith(body[:k]) and body[k] == "."]
        assert not body.startswith((".", "：")), (title, text)
    for result in shown:
        own = _squash(result[0][1] or "")
        assert not any(len(b := _squash(t)[:12]) >= 8 and b in own for h, t in result[1:] if h and t), result


def _squash(text: str) -> str:
    """An excerpt's words as they compare: without its ellipses and spaces."""
    return "".join(text.replace("…", "").split())


def test_a_papers_bibtex_section_is_shown_for_its_key_not_its_name(page):
    """The BibTeX key (valluri2026ssr) is a word of the paper's page and ends with its name: a
    search for the name does not list the BibTeX section; the key typed whole does."""
    first = search(page, "Self-Speculation")[0]
    assert path(first["href"]) == "/papers/ssr/", first
    assert not [s for s in first["sections"] if s.endswith("#bibtex")], first["sections"]
    for key in ("valluri2026ssr", "{valluri2026ssr,"):  # typed, or copied from a .bib file
        page.keyboard.press("Escape")
        page.reload()
        first = search(page, key)[0]
        assert path(first["href"]) == "/papers/ssr/", first
        assert [s for s in first["sections"] if s.endswith("#bibtex")], (key, first["sections"])


def test_filter_by_type(page):
    search(page, "推理调度")
    select = page.locator(".kb-search__filters select[name='类型']")
    assert select.is_visible()
    select.select_option("论文")
    page.wait_for_function(
        "() => (document.querySelector('#kb-search-results').dataset.filters || '').includes('论文')", timeout=10000
    )
    types = page.locator(f"{RESULT} .kb-search__type").all_inner_texts()
    assert types and set(types) == {"论文"}


def test_a_paper_is_found_by_what_the_briefs_call_it(page):
    """SSR's page says 自投机 only where it quotes the brief (its backlinks, not indexed): the brief's
    headline is a word of the page below the brief's own, so 投机解码 finds the brief first and the
    paper too, and a filter for papers keeps it."""
    results = all_results(page, search(page, "投机解码"))
    hrefs = [path(r["href"]) for r in results]
    assert "/papers/ssr/" in hrefs, hrefs
    assert hrefs.index("/briefs/inference/2026-09-03-e1/") < hrefs.index("/papers/ssr/"), hrefs
    ssr = results[hrefs.index("/papers/ssr/")]
    assert any("投机" in m for m in ssr["marks"]), ssr  # the excerpt quotes the headline
    # the section the result opens is the backlinks, which quote it where a reader sees it
    assert [urlsplit(s).fragment for s in ssr["sections"]] == ["backlinks"], ssr
    page.locator(".kb-search__filters select[name='类型']").select_option("论文")
    page.wait_for_function(
        "() => (document.querySelector('#kb-search-results').dataset.filters || '').includes('论文')", timeout=10000
    )
    assert path(search_results(page)[0]["href"]) == "/papers/ssr/"
    # the count line says a filter is on (it stays on for the next query)
    assert page.locator("#kb-search-results .md-search-result__meta").inner_text() == "找到 1 个结果（已筛选：论文）"


def counted(page) -> int:
    """How many results the count line says the query has (none: 没有找到结果)."""
    said = page.locator("#kb-search-results .md-search-result__meta").inner_text()
    return int(m.group(0)) if (m := re.search(r"\d+", said)) else 0


def test_scrolling_to_the_end_of_the_results_loads_the_rest(page):
    """A reader who scrolls the results to their end gets the next batch, until all the count
    line promises are there, each once, below the ones shown before."""
    results = first = search(page, "推理")
    total = counted(page)
    assert len(results) < total and page.locator(".kb-search__more button").count()
    while len(results) < total:
        page.evaluate(
            "() => { const s = document.querySelector('.md-search__scrollwrap'); s.scrollTop = s.scrollHeight; }"
        )
        page.wait_for_function(f"n => document.querySelectorAll('{RESULT}').length > n", arg=len(results))
        results = search_results(page)
    hrefs = [r["href"] for r in results]
    assert len(hrefs) == total == len(set(hrefs)) and results[: len(first)] == first, hrefs
    assert not page.locator(".kb-search__more").count()


def test_more_says_how_many_are_left_and_a_click_shows_them(browser, base_url):
    """The button says how many results are still to come; clicked where a reader sees it (a tall
    window: nothing to scroll), it adds the next batch below the first."""
    ctx, pg, errors = open_page(browser, base_url, height=2400)
    first = search(pg, "推理")
    total = counted(pg)
    button = pg.locator(".kb-search__more button")
    assert button.inner_text() == f"显示更多结果（还有 {total - len(first)} 个）"
    assert button.is_visible() and button.bounding_box()["y"] + 40 < 2400
    button.click()
    pg.wait_for_function(f"n => document.querySelectorAll('{RESULT}').length > n", arg=len(first))
    shown = search_results(pg)
    assert shown[: len(first)] == first and len(shown) == min(total, len(first) + 8)
    assert not errors, errors
    ctx.close()


def test_the_count_reads_the_same_for_one_result_and_for_many(page):
    """The count line is the catalogue's one sentence for every count (Material's zh strings say
    找到 1 个符合条件的结果 for one, # 个符合条件的结果 for more)."""
    counts = []
    for query in ("valluri2026ssr", "推理"):  # a BibTeX key: one page
        n = len(all_results(page, search(page, query)))
        counts.append(n)
        assert page.locator("#kb-search-results .md-search-result__meta").inner_text() == f"找到 {n} 个结果"
        page.keyboard.press("Escape")
    assert counts[0] == 1 < counts[1], counts
    page.keyboard.press("/")
    page.keyboard.type("zqxjvk")
    page.wait_for_function("() => document.querySelector('#kb-search-results').dataset.query === 'zqxjvk'")
    assert page.locator("#kb-search-results .md-search-result__meta").inner_text() == "没有找到结果"


def test_the_filters_count_the_results_of_the_query(page):
    """Each type in the filter says how many results of that type the query has (what choosing it
    gives), and the whole site's counts again when the box is emptied."""
    results = all_results(page, search(page, "投机解码"))
    select = page.locator(".kb-search__filters select[name='类型']")
    labels = dict(
        zip(
            select.locator("option").evaluate_all("os => os.map(o => o.value)"),
            select.locator("option").all_inner_texts(),
            strict=True,
        )
    )
    kinds = [r["type"] for r in results]
    for kind in ("简报", "论文", "活文档"):
        assert labels[kind] == f"{kind}（{kinds.count(kind)}）", labels
    assert labels["待办"] == "待办（0）", labels
    assert select.locator("option[value='待办']").is_disabled()  # nothing to choose
    assert not select.locator("option[value='论文']").is_disabled()
    select.select_option("论文")
    page.wait_for_function(
        "() => (document.querySelector('#kb-search-results').dataset.filters || '').includes('论文')", timeout=10000
    )
    assert select.locator("option[value='简报']").inner_text() == f"简报（{kinds.count('简报')}）"  # still the query's
    page.locator("form[name='kb-search'] input[name='query']").fill("")
    page.wait_for_function(
        "n => !document.querySelector('#kb-search-results').dataset.query"
        " && document.querySelector(\".kb-search__filters option[value='论文']\").textContent !== n",
        arg=labels["论文"],
    )
    papers = int(re.search(r"（(\d+)）", select.locator("option[value='论文']").inner_text()).group(1))
    assert papers > kinds.count("论文")  # every paper page of the site


def test_the_first_query_counts_the_filters_when_their_index_comes_late(browser, base_url):
    """The filters' index is a file of its own: a query typed before it arrives still gets its
    counts (before, every option of that first query read 0 and stayed disabled until the next)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = ctx.new_page()

    def late(route):
        time.sleep(1.5)
        route.continue_()

    pg.route("**/pagefind/filter/*", late)
    pg.goto(base_url + "guide/")
    results = search(pg, "投机解码")
    option = pg.locator(".kb-search__filters option[value='论文']")
    assert results
    assert not option.is_disabled()
    assert re.fullmatch(r"论文（[1-9]\d*）", option.inner_text()), option.inner_text()
    ctx.close()


def test_filter_by_topic_lists_the_topic(page):
    search(page, "RetroInfer")
    options = page.locator(".kb-search__filters select[name='主题'] option").all_inner_texts()
    assert any(o.startswith("LLM 推理") for o in options), options


def test_opening_a_result_marks_the_words(page):
    search(page, "RetroInfer")
    page.keyboard.press("Enter")
    page.wait_for_url("**/papers/retroinfer/**")
    assert "highlight=" in page.url
    page.wait_for_selector("article mark.kb-search-highlight", timeout=10000)


@pytest.mark.parametrize(
    "query, ident, paper",
    [
        ("2505.02922", "2505.02922", "retroinfer"),
        ("arXiv:2505.02922v2", "2505.02922", "retroinfer"),
        ("2609.04417", "2609.04417", "prefixpool"),  # in a brief's section heading too
    ],
)
def test_an_id_is_shown_as_written(page, query, ident, paper):
    """An id is searched as the index's one word for it (kb.site.search.words); the results quote
    the id as the pages write it, marked, never that word (in titles, section titles, excerpts or
    addresses), and open the page with the id marked."""
    results = search(page, query)
    assert len(results) > 1
    for r in results:
        assert not any(re.search(r"arxiv\d", t) for t in r["text"]), r["text"]
        assert not any(re.search(r"arxiv\d", link) for link in r["links"]), r["links"]
    assert any(ident in m for r in results[:3] for m in r["marks"]), [r["marks"] for r in results[:3]]
    assert f"highlight={ident}" in results[0]["href"], results[0]["href"]
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/papers/{paper}/**")
    page.wait_for_selector("article mark.kb-search-highlight", timeout=10000)
    marked = page.locator("article mark.kb-search-highlight").all_inner_texts()
    assert ident in marked, marked


def test_an_id_finds_the_pages_that_write_it(page, site):
    """Every page whose text writes the id is found, and only those (its parts alone are not
    enough: 2505 is the month of every id of May 2025), and the pages that write its index word
    themselves."""
    writes = {
        "/" + "".join(part + "/" for part in f.parent.relative_to(site).parts)
        for f in site.rglob("index.html")
        if _indexed(text := f.read_text("utf-8")) and _writes(text, "2505.02922", "arxiv250502922")
    }
    results = search(page, "2505.02922")
    results = all_results(page, results)
    assert len(writes) > 3
    assert {path(r["href"]) for r in results} == writes


def _indexed(html: str) -> bool:
    """Whether the page's article is marked as the body Pagefind indexes (kb.site.search.mark)."""
    import re

    return re.search(rf"<article\b[^>]*\s{search_marks.BODY}[\s=>]", html) is not None


def _writes(html: str, ident: str, word: str) -> bool:
    """Whether the page's article writes ``ident`` in its text (not only in a link's address, not
    only in its BibTeX entry or in what the index leaves out), or ``word`` anywhere the index reads."""
    from bs4 import BeautifulSoup

    from kb.site.search import EXCLUDE

    article = BeautifulSoup(html, "lxml").select_one("[data-pagefind-body]")
    for gone in article.select(", ".join(["[hidden]", *EXCLUDE])):  # what Pagefind does not read
        gone.decompose()
    if word in article.get_text():
        return True
    for gone in article.select("code, pre"):
        gone.decompose()
    return ident in article.get_text()


def test_escape_closes_and_arrows_move(page):
    search(page, "RetroInfer")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.classList.contains('md-search-result__link')")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # above the first result: back in the box, not round to the last link
    assert page.evaluate("document.activeElement.name") == "query"
    page.keyboard.press("Escape")
    assert not page.evaluate("document.getElementById('__search').checked")


def test_the_keyboard_opens_the_search_after_the_colours_are_switched(page):
    """The palette switch keeps the focus once clicked (a radio button): "/" still opens the
    search, while in the search box it is a character of the query."""
    page.locator("label[for^='__palette_']:visible").first.click()
    assert page.evaluate("document.activeElement.type") == "radio"
    results = search(page, "RetroInfer")
    assert path(results[0]["href"]) == "/papers/retroinfer/"
    page.keyboard.type("/")
    assert page.evaluate("document.activeElement.value").endswith("RetroInfer/")


def test_no_lunr_index_is_shipped(site):
    assert not (site / "search" / "search_index.json").exists()
    assert (site / "pagefind" / "pagefind.js").is_file()


def test_the_keyboard_opens_the_search_on_a_phone_as_wide_as_the_phone(browser, base_url):
    """A phone with a keyboard: "/" opens the search the way the theme's button does, so the page
    beneath is locked and the results wrap at the phone's width (unlocked, the page stayed 1262 px
    wide and each result line was cut off at the screen's edge), and Esc gives the page its
    scrolling back."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True, has_touch=True)
    pg = ctx.new_page()
    pg.goto(base_url + "guide/")
    results = search(pg, "推理")
    assert len(results) >= 5
    # the theme locks the page 400 ms after its search opens (until then its opening circle, scaled
    # up from the search icon, widens the page for a moment, as when the button opens it)
    pg.wait_for_function("() => document.body.hasAttribute('data-md-scrolllock')", timeout=5000)
    sizes = pg.evaluate(
        """() => ({page: document.documentElement.scrollWidth,
                  box: document.querySelector('#kb-search-results').getBoundingClientRect().width,
                  locked: document.body.hasAttribute('data-md-scrolllock')})"""
    )
    assert sizes == {"page": 390, "box": 390, "locked": True}, sizes
    # a select under 16 px makes a phone's browser zoom in when it is tapped
    select = pg.locator(".kb-search__filters select").first
    assert select.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 16
    pg.keyboard.press("Escape")
    pg.wait_for_function(  # (while the theme's closing transition runs, the page is wider for a moment)
        "() => !document.body.hasAttribute('data-md-scrolllock') && document.documentElement.scrollWidth === 390"
    )
    assert not pg.evaluate("document.getElementById('__search').checked")
    ctx.close()


def test_opened_by_its_button_the_search_asks_for_words(page):
    """Opened with the mouse (no key reaches the box), the line under it does not stay on
    Material's "initializing" once the box is open and empty."""
    page.locator("form[name='kb-search'] input[name='query']").click()  # the header's box (a phone: its icon)
    meta = page.locator("#kb-search-results .md-search-result__meta")
    page.wait_for_function("() => document.querySelector('#kb-search-results .md-search-result__meta').textContent")
    assert meta.inner_text() == "键入以开始搜索"


# The background an element is drawn on: its own and its ancestors' colours, translucent ones
# composited over what is under them.
BACKGROUND_JS = """e => {
  const layers = [];
  for (let n = e; n; n = n.parentElement) {
    const bg = getComputedStyle(n).backgroundColor;
    if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') layers.push(bg);
    if (/^rgb\\(/.test(bg)) break;
  }
  return {color: getComputedStyle(e).color, layers: layers};
}"""


def _on(found: dict) -> tuple[float, ...]:
    layers = found["layers"] or ["rgb(255, 255, 255)"]
    under = layers[-1]
    for layer in reversed(layers[:-1]):
        under = "rgb({:.0f}, {:.0f}, {:.0f})".format(*parse_rgb(layer, under))
    return parse_rgb(under)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_marked_words_and_the_count_are_readable(browser, base_url, scheme):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN", color_scheme=scheme)
    pg = ctx.new_page()
    pg.goto(base_url + "guide/")
    search(pg, "推理调度")
    for selector in ("#kb-search-results mark", "#kb-search-results .md-search-result__meta"):
        found = pg.locator(selector).first.evaluate(BACKGROUND_JS)
        ratio = contrast(parse_rgb(found["color"], found["layers"][0] if found["layers"] else None), _on(found))
        assert ratio >= 4.5, (selector, found, round(ratio, 2))
    ctx.close()


def test_a_lone_character_of_a_chinese_word_typed_is_not_marked(page):
    """Pagefind searches 自投机 as 自 and 投机, and marks 自 wherever a word starts with it (自动,
    自己): in the results only the words typed are marked, a section is shown for them, and the
    page a result opens marks 自投机 and 投机, never a lone 自."""
    search(page, "自投机")
    marks = page.evaluate(
        f"""() => Array.from(document.querySelectorAll('{RESULT} mark')).map(m => [m.textContent,
            [m.previousSibling, m.nextSibling].some(n => n && n.nodeName === 'MARK')])"""
    )
    assert marks and all("投机" in text or beside for text, beside in marks), marks
    first = search_results(page)[0]
    assert path(first["href"]) == "/briefs/inference/2026-09-03-e1/"
    words = [parse_qs(urlsplit(h).query)["highlight"] for h in first["links"]]
    assert all("自投机" in w and "自" not in w for w in words), words
    page.keyboard.press("Enter")
    page.wait_for_url("**/briefs/inference/2026-09-03-e1/**")
    page.wait_for_selector("article mark.kb-search-highlight", timeout=10000)
    shown = page.locator("article mark.kb-search-highlight").all_text_contents()  # (hidden ones too)
    assert "自投机" in shown and all("投机" in t for t in shown), sorted(set(shown))


def test_a_lone_letter_of_a_word_typed_is_not_marked_on_the_page(page):
    """Pagefind searches P/D as P and D (each the start of a word): the page a result opens marks
    the word typed (P/D) and the other words, never every P and D in it (RTP-LLM, pdf, P95)."""
    first = search(page, "P/D 分离")[0]
    words = parse_qs(urlsplit(first["href"]).query)["highlight"]
    assert "P/D" in words and not [w for w in words if len(w) == 1], words
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{path(first['href'])}**")
    page.wait_for_selector("article mark.kb-search-highlight", timeout=10000)
    shown = page.locator("article mark.kb-search-highlight").all_text_contents()
    assert "P/D" in shown and {t.upper() for t in shown} <= {"P/D", "分离"}, sorted(set(shown))
    page.goto(page.url.split("?")[0])  # a letter typed alone is the word asked for: it is marked
    words = parse_qs(urlsplit(search(page, "P")[0]["href"]).query)["highlight"]
    assert words == ["p"], words


def test_excerpts_say_where_they_are_cut_and_marks_stop_at_the_word(page):
    """An excerpt that starts or stops inside a sentence of its page says so (…); a marked word's
    underline does not run on into the space after it."""
    excerpts, results = [], []
    home = page.url
    for query in ("推理调度", "投机"):  # a section's excerpt starts after its title: not cut there
        page.goto(home)
        results += search(page, query)
        excerpts += page.evaluate(
            f"() => Array.from(document.querySelectorAll('{RESULT} article > p')).map(p => p.textContent)"
        )
    assert any(e.startswith("…") for e in excerpts) and any(e.endswith("…") for e in excerpts), excerpts
    assert not [e for e in excerpts if e.startswith("……") or e.endswith("……")], excerpts
    marks = [m for r in results for m in r["marks"]]
    assert marks and not [m for m in marks if m != m.strip()], marks


def test_an_excerpt_quoting_an_id_says_where_it_is_cut(page):
    """The page's text holds each arXiv id's index word beside the id; the excerpts leave it out
    (kb.site.search.words), and are still found in the text to say where they are cut: the
    status line of the 09-02 brief, which names LMCache v2's id, starts inside its sentence."""
    results = search(page, "LMCache")
    brief = next(r for r in results if path(r["href"]) == "/briefs/inference/2026-09-02-e1/")
    quoting = [t for t in brief["text"] if "arXiv:2510.09665" in t]
    assert quoting and all(t.startswith("…") or t.endswith("…") for t in quoting), brief["text"]


def test_an_excerpt_starts_and_ends_where_an_id_or_a_number_does(page):
    """Pagefind starts and stops excerpts at words of its own, which may be parts of an id or a
    number: the seed brief's list of ids was shown from ".20359" of arXiv:2608.20359, a section of
    its page ended at "(arXiv:2608." and "Qwen3.".  They are shown whole, as the page writes them."""
    home, excerpts = page.url, []
    for query in ("投机解码", "Qwen3.5", "ClassEval"):
        page.goto(home)
        search(page, query)
        excerpts += page.evaluate(
            f"() => Array.from(document.querySelectorAll('{RESULT} article > p')).map(p => p.textContent)"
        )
    assert any(e.startswith("…arXiv:2608.20359 — SSR") for e in excerpts), excerpts
    cut = [e for e in excerpts if re.match(r"…?[.%]|…24\.1%", e) or re.search(r"(?:\d{4}\.|Qwen3\.)…$", e)]
    assert not cut, cut


@pytest.mark.parametrize("shift", [False, True])
def test_tab_goes_round_the_open_dialog(page, shift):
    """Tab (and Shift+Tab) from the box goes through the dialog's controls and back to the box,
    never on to the page beneath it while the dialog is open."""
    search(page, "推理调度")
    seen = []
    for _ in range(8):
        page.keyboard.press("Shift+Tab" if shift else "Tab")
        seen.append(page.evaluate("!!document.activeElement.closest('.kb-search')"))
        if page.evaluate("document.activeElement.name") == "query":
            break
    assert all(seen), seen
    assert page.evaluate("document.activeElement.name") == "query", seen  # round to the box
    assert len(seen) >= 3  # through the results' area, the filter and "more" on the way


def test_an_arxiv_id_the_knowledge_base_does_not_hold_says_so(page):
    """2510.09660 is on no page: the answer says so and links it on arXiv; of the pages of that
    month only the one holding a close id (2510.09665) is kept, not every page of October 2025."""
    results = search(page, "2510.09660")
    said = page.locator(".md-search-result__meta").inner_text()
    assert said == "知识库中没有 arXiv:2510.09660；下面是同月份、号码相近的论文"
    assert results[0]["href"] == "https://arxiv.org/abs/2510.09660"
    assert results[0]["title"] == "在 arXiv 上查看 arXiv:2510.09660" and results[0]["type"] == "arXiv"
    near = [path(r["href"]) for r in results[1:]]
    assert "/papers/lmcache-v2/" in near, near  # the paper that holds 2510.09665
    # pages that hold only 2510.02758 (the same month, far off) are left out
    assert "/papers/tokenflow/" not in near and "/briefs/inference/2026-09-01-e1/" not in near, near


def test_an_id_the_knowledge_base_holds_is_not_called_unknown(page):
    search(page, "2505.02922")
    assert "知识库中没有" not in page.locator(".md-search-result__meta").inner_text()


@pytest.mark.parametrize("term", ["NET-new", "沿用件", "邻接预备"])
def test_a_glossary_term_finds_its_definition_first(page, term):
    assert path(search(page, term)[0]["href"]) == "/glossary/"


def test_a_round_name_lists_the_newest_brief_first(page, sample_kb):
    newest = max(sample_kb.briefs.values(), key=lambda b: b.date)
    results = search(page, "E1")
    briefs = [r for r in results if r["type"] == "简报"]
    assert path(results[0]["href"]) == f"/briefs/inference/{newest.date}-e1/"
    dates = [re.search(r"\d{4}-\d{2}-\d{2}", r["href"]).group(0) for r in briefs]
    assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize(("name", "other"), [("KV 缓存", "KV Cache"), ("英伟达", "NVIDIA")])
def test_a_term_and_its_other_name_find_the_same_page_first(browser, base_url, name, other):
    firsts = []
    for query in (name, other):
        ctx, pg, errors = open_page(browser, base_url)
        firsts.append(path(search(pg, query)[0]["href"]))
        assert not errors, errors
        ctx.close()
    assert firsts[0] == firsts[1], firsts


def test_the_address_carries_the_query_and_opening_it_searches(browser, base_url):
    ctx, pg, errors = open_page(browser, base_url)
    search(pg, "RetroInfer")
    assert parse_qs(urlsplit(pg.url).query)["q"] == ["RetroInfer"]
    shared = pg.url
    ctx.close()
    ctx, pg, errors = open_page(browser, base_url)
    pg.goto(shared)
    pg.wait_for_function("() => document.querySelector('#kb-search-results').dataset.query === 'RetroInfer'")
    assert path(search_results(pg)[0]["href"]) == "/papers/retroinfer/"
    assert pg.evaluate("document.activeElement.name") == "query"
    pg.keyboard.press("Escape")
    assert "q" not in parse_qs(urlsplit(pg.url).query)
    assert not errors, errors
    ctx.close()


FOCUSED = """() => {
    const el = document.activeElement;
    const r = el.getBoundingClientRect();
    return {inSearch: !!el.closest('.kb-search'), header: !!el.closest('header'), name: el.name || '',
            tag: el.tagName, seen: r.width > 0 && r.height > 0, open: document.getElementById('__search').checked};
}"""


def test_tabbing_past_the_search_box_does_not_hold_the_keyboard(page):
    """A keyboard reader tabbing through the header opens the search by reaching its box; with
    nothing typed, the next Tab closes it and goes on to the page (the dialog holds the keyboard
    only once a query is typed: test_tab_goes_round_the_open_dialog)."""
    for _ in range(12):  # from the top of the page to the search box
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "query":
            break
    assert page.evaluate(FOCUSED)["open"]
    page.keyboard.press("Tab")
    now = page.evaluate(FOCUSED)
    assert not now["open"] and not now["inSearch"] and now["seen"], now
    page.keyboard.press("Shift+Tab")  # and back into the box: it opens again
    assert page.evaluate(FOCUSED)["name"] == "query"


def test_after_escape_tab_goes_to_something_a_reader_can_see(page):
    search(page, "推理调度")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    now = page.evaluate(FOCUSED)
    assert not now["open"] and now["seen"], now


def test_an_excerpt_puts_no_space_where_a_hidden_word_stood_in_chinese(page):
    """KV Cache's brief text reads 长上下文推理 (a term with other names, then Chinese): its hidden
    word is taken out of the excerpt without leaving a space between the two."""
    search(page, "长上下文")
    page.wait_for_selector(RESULT)
    excerpts = page.evaluate(
        f"() => Array.from(document.querySelectorAll('{RESULT} article > p')).map(p => p.textContent)"
    )
    glued = [e for e in excerpts if re.search(r"长上下文\s+[\u4e00-\u9fff]", e)]
    assert any("长上下文" in e for e in excerpts) and not glued, excerpts
