"""A reader's views of the frozen fixture site in Debian's chromium, on a phone (390×844) and
a desktop (1366×900), in the light and the dark scheme: the news first on the brief page,
nothing cut off, the table of contents reachable on a phone, axe-core's serious and critical
rules, the theme toggle and readable chart text, no failing request; the section timelines with
their anchorings and growth charts; the week in one page with its news on the first screen."""

from __future__ import annotations

import re

import pytest

from sitebuild import CHROMIUM

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

PAGES = {
    "home": "",
    "brief": "briefs/inference/2026-09-03-e1/",
    "reconstructed": "briefs/inference/2026-09-01-e1/",  # a brief known only by its candidates
    "told": "briefs/inference/2026-09-02-e1/",  # its count as the next brief gives it, a note in a heading
    "living": "inference/",
    "paper": "papers/retroinfer/",
    "related": "papers/cascade/",  # related papers: a graph and its list (kb.render.related)
    "papers": "papers/",
    "backlog": "backlog/",
    "stats": "stats/",
    "timeline": "timeline/inference/",  # the section timelines (kb.render.timeline)
    "week": "weeks/2026-W36/",  # the week in one page (kb.render.weeks)
    "weeks": "weeks/",  # the index of weeks
}
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
SCHEMES = ("light", "dark")


class View:
    """One page open at one size in one scheme, with every failed request it made."""

    def __init__(self, browser, base_url: str, name: str, size: str, scheme: str):
        self.ctx = browser.new_context(
            viewport=VIEWPORTS[size], color_scheme=scheme, locale="zh-CN", is_mobile=size == "phone"
        )
        self.page = self.ctx.new_page()
        self.failed: list[str] = []
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} ({r.status})"))
        self.page.goto(base_url + PAGES[name], wait_until="load")
        self.page.wait_for_timeout(300)  # Material's palette and scripts settle

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def open_view(browser, base_url):
    views: list[View] = []

    def make(name: str, size: str, scheme: str = "light") -> View:
        views.append(View(browser, base_url, name, size, scheme))
        return views[-1]

    yield make
    for v in views:
        v.close()


ALL = [(n, s, c) for n in PAGES for s in VIEWPORTS for c in SCHEMES]
IDS = [f"{n}-{s}-{c}" for n, s, c in ALL]

# Every element of the content that sticks out of the content column (the article and its gutters) while
# no ancestor up to it scrolls horizontally; and the page itself never scrolls sideways.
OVERFLOW_JS = """() => {
  const doc = document.documentElement;
  const out = [];
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page: ${doc.scrollWidth} > ${doc.clientWidth}`);
  const article = document.querySelector('article.md-content__inner');
  const box = article.parentElement.getBoundingClientRect();  // .md-content: Material's wide tables use its gutter
  // (or is cut on purpose: a line ending in an ellipsis, the brief's glance on a phone)
  const scrolls = (el) => {
    for (let a = el.parentElement; a && a !== article; a = a.parentElement) {
      const style = getComputedStyle(a), o = style.overflowX;
      if (o === 'auto' || o === 'scroll') return true;
      if (o === 'hidden' && style.textOverflow === 'ellipsis') return true;
    }
    return false;
  };
  // a container that does scroll sideways takes keyboard focus; a table's says so above it
  for (const el of article.querySelectorAll('*')) {
    const o = getComputedStyle(el).overflowX;
    if ((o === 'auto' || o === 'scroll') && el.scrollWidth > el.clientWidth + 1) {
      const hint = el.previousElementSibling;
      const table = el.classList.contains('md-typeset__scrollwrap');  // code blocks show a scrollbar
      if ((table && !(hint && hint.classList.contains('kb-scroll-hint') && hint.offsetHeight > 0)) || el.tabIndex !== 0)
        out.push(`scrolls without affordance: ${el.tagName.toLowerCase()}.${el.className}`);
    }
  }
  for (const el of article.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.right > box.right + 1 || r.left < box.left - 1) {
      const span = (a, b) => `${Math.round(a)}..${Math.round(b)}`;
      const where = `${span(r.left, r.right)} outside ${span(box.left, box.right)}`;
      if (!scrolls(el)) out.push(`${el.tagName.toLowerCase()}.${el.className}: ${where}`);
    }
  }
  return out.slice(0, 10);
}"""

# Dates (2026-09-03, and 09-03 in tables) and arXiv ids (2505.02922): each on one line, in tables
# and in the text around them (kb.render.nobreak).
SPLIT_JS = r"""() => {
  const re = /\b(\d{4}-\d{2}-\d{2}|\d{4}\.\d{4,5}(v\d+)?|\d{2}-\d{2})\b/g;
  const full = /^\d{4}-\d{2}-\d{2}$|^\d{4}\.\d{4,5}(v\d+)?$/;
  const out = [];
  const walker = document.createTreeWalker(document.querySelector('article'), NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('svg, pre, code')) continue;
    const table = !!n.parentElement.closest('table');
    for (const m of n.textContent.matchAll(re)) {
      if (!table && !full.test(m[0])) continue;
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out.slice(0, 10);
}"""


@pytest.mark.parametrize("name,size,scheme", ALL, ids=IDS)
def test_nothing_is_cut_off_and_nothing_fails(open_view, name, size, scheme):
    v = open_view(name, size, scheme)
    assert v.page.evaluate("document.body.getAttribute('data-md-color-scheme')") == (
        "slate" if scheme == "dark" else "default"
    )
    assert v.page.evaluate(OVERFLOW_JS) == []
    assert v.page.evaluate(SPLIT_JS) == []
    # versions.json (Material's edition selector) exists beside the editions on gh-pages only
    assert [f for f in v.failed if "/versions.json " not in f] == []  # e.g. no sitemap probe beside the feeds


@pytest.mark.parametrize("size,scheme", [(s, c) for s in VIEWPORTS for c in SCHEMES])
def test_the_timeline_shows_each_section_with_its_anchorings_and_chart(open_view, size, scheme):
    v = open_view("timeline", size, scheme)
    v.page.goto(v.page.url + "#s1-2-scheduling", wait_until="load")
    section = v.page.locator("h3#s1-2-scheduling")
    assert section.is_visible() and section.bounding_box()["y"] < 300  # the anchor of a section id lands there
    rows = v.page.locator("#s1-2-scheduling ~ div.kb-timeline").first.locator("tbody tr")
    assert rows.count() == 1 and "2026-09-05" in rows.first.inner_text() and "Cascade" in rows.first.inner_text()
    chart = v.page.locator("#s1-2-scheduling ~ .kb-chart-box svg").first
    box = chart.bounding_box()
    assert box["width"] > 100 and box["x"] + box["width"] <= VIEWPORTS[size]["width"]
    assert v.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the line follows the scheme: Material's link colour, lighter in the dark one
    stroke = chart.locator("path").evaluate("p => getComputedStyle(p).stroke")
    assert stroke == v.page.evaluate("getComputedStyle(document.querySelector('article p a')).color")


@pytest.mark.parametrize("size,scheme", [(s, c) for s in VIEWPORTS for c in SCHEMES])
def test_the_week_opens_with_its_news(open_view, size, scheme):
    """The week's counts and each topic's line (the papers anchored) on the first screen."""
    v = open_view("week", size, scheme)
    assert v.page.evaluate("window.scrollY") == 0
    news = v.page.locator("article .kb-week-news")
    box = news.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= VIEWPORTS[size]["height"], box
    assert news.locator("p").inner_text().startswith("本周 5 期简报 · ≥11 条主增量 · 锚入 5 篇")
    line = news.locator("li").first
    assert "Cascade" in line.inner_text() and line.locator("a[href$='papers/cascade/']").is_visible()
    # every anchoring of the week is there below it, each row linking its paper and brief
    rows = v.page.locator("#inference-anchored ~ div.kb-week-anchored tbody tr")
    assert rows.count() == 5 and rows.nth(4).locator("a[href$='briefs/inference/2026-09-05-e1/']").count() == 1


def test_the_home_page_opens_the_latest_week_and_the_weeks_feed(open_view):
    v = open_view("home", "phone")
    week = v.page.locator("article h2#weeks + ul > li > a").first
    assert week.inner_text() == "2026 年第 36 周（2026-08-31 至 2026-09-06）"
    week.click()
    v.page.wait_for_url(re.compile(r"/weeks/2026-W36/$"))
    feed = v.page.locator("article .kb-prevnext a", has_text="Atom")
    response = v.page.request.get(feed.evaluate("a => a.href"))
    assert response.ok and b"urn:kb:week:2026-W36" in response.body()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_living_document_section_opens_its_timeline(open_view, size):
    v = open_view("living", size)
    v.page.locator("#sec-s1-2-scheduling + p.kb-timeline-link a").click()
    v.page.wait_for_url(re.compile(r"/timeline/inference/#s1-2-scheduling$"))
    heading = v.page.locator("h3#s1-2-scheduling")
    assert heading.is_visible() and 0 <= heading.bounding_box()["y"] < 300


@pytest.mark.parametrize("size", VIEWPORTS)
def test_brief_opens_with_the_news(open_view, size):
    v = open_view("brief", size)
    first = v.page.locator("article .kb-glance li").first
    box = first.bounding_box()
    assert box is not None and v.page.evaluate("window.scrollY") == 0
    assert 0 <= box["y"] and box["y"] + min(box["height"], 40) <= VIEWPORTS[size]["height"], box
    assert "SSR" in first.inner_text()


def test_on_a_phone_the_first_screen_names_every_main_increment(open_view):
    v = open_view("brief", "phone")
    names = v.page.locator("article .kb-glance li strong a")
    assert names.count() == 5
    for i in range(names.count()):
        box = names.nth(i).bounding_box()
        assert box is not None and box["y"] + box["height"] <= VIEWPORTS["phone"]["height"], (i, box)
    # each line says where it is cut (the whole description is in the increment's section)
    assert v.page.evaluate(
        "[...document.querySelectorAll('article .kb-glance .kb-glance-title')]"
        ".every(t => getComputedStyle(t).textOverflow === 'ellipsis')"
    )


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_reconstructed_brief_opens_with_what_is_known_of_its_day(open_view, size, sample_kb):
    """A brief reconstructed from a later one knows only its candidates: they are its news, above
    the note that says what of it is known, on the first screen."""
    v = open_view("reconstructed", size)
    line = v.page.locator("article .kb-glance-side li").last
    box = line.bounding_box()
    assert box is not None and box["y"] + box["height"] <= VIEWPORTS[size]["height"], box
    b = sample_kb.briefs["inference/2026-09-01-e1"]
    assert b.reconstructed and not b.increments and b.candidates
    shown = line.inner_text()
    assert all(sample_kb.papers[x.paper].short in shown for x in b.candidates), shown
    note = v.page.locator("article .admonition").first.bounding_box()
    assert note is not None and note["y"] > box["y"]


@pytest.mark.parametrize("name", list(PAGES))
def test_table_of_contents_reachable_on_a_phone(open_view, name):
    v = open_view(name, "phone")
    page = v.page
    headings = page.locator("article h2[id]").count()
    if headings == 0:
        pytest.skip("the page has no sections")
    own = page.locator(".md-content details.kb-toc-phone")
    if own.count():  # brief and paper pages (not in the nav): a table of contents in the page
        own.locator("summary").click()
        link = own.locator("a").first
    else:  # pages in the nav: Material's drawer holds the table of contents
        page.locator("label.md-header__button[for='__drawer']").click()
        page.locator(".md-nav--primary label.md-nav__link--active[for='__toc']").click()
        link = page.locator(".md-nav--primary .md-nav--secondary a.md-nav__link").first
    link.wait_for(state="visible")
    href = link.get_attribute("href")
    link.click()
    page.wait_for_url(re.compile(re.escape(href) + "$"))
    assert page.locator(f"[id='{href.split('#')[1]}']").first.bounding_box()["y"] < VIEWPORTS["phone"]["height"]


def test_the_desktop_keeps_the_table_of_contents_in_the_sidebar(open_view):
    v = open_view("brief", "desktop")
    assert v.page.locator(".md-content details.kb-toc-phone").is_hidden()
    assert v.page.locator(".md-sidebar--secondary a.md-nav__link[href='#inc-1']").is_visible()


@pytest.mark.parametrize("name", ["brief", "paper"])
def test_brief_and_paper_pages_have_breadcrumbs_and_an_active_tab(open_view, name):
    """They are outside the nav: the breadcrumb and the active tab say where they are, and no
    navigation sidebar holds their index's title alone (the article takes the room on a desktop,
    as wide as on a page that is a tab of its own); on a phone the drawer holds the whole navigation."""
    v = open_view(name, "desktop")
    crumbs = v.page.locator("nav.md-path a").all_inner_texts()
    tab = v.page.locator(".md-tabs__item--active").inner_text().strip()
    expected = "简报" if name == "brief" else "论文"
    assert [c.strip() for c in crumbs] == ["首页", expected]
    assert tab == expected
    assert v.page.locator(".md-sidebar--primary").is_hidden()
    width = v.page.locator("article.md-content__inner").bounding_box()["width"]
    wide = open_view("backlog", "desktop").page.locator("article.md-content__inner").bounding_box()["width"]
    assert abs(width - wide) <= 1, (width, wide)
    phone = open_view(name, "phone").page
    phone.locator("label.md-header__button[for='__drawer']").click()
    assert phone.locator(".md-nav--primary a.md-nav__link", has_text="统计").is_visible()


@pytest.mark.parametrize("name,size,scheme", ALL, ids=IDS)
def test_axe_finds_no_serious_or_critical_violation(open_view, name, size, scheme):
    from axe_playwright_python.sync_playwright import Axe

    v = open_view(name, size, scheme)
    results = Axe().run(v.page)
    bad = [
        (x["id"], x["impact"], [n["target"] for n in x["nodes"]][:3])
        for x in results.response["violations"]
        if x["impact"] in ("serious", "critical")
    ]
    assert bad == []


def _luminance(rgb: tuple[float, ...]) -> float:
    def ch(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = rgb[:3]
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def parse_rgb(css: str, under: str | None = None) -> tuple[float, ...]:
    """``rgb()``/``rgba()`` as three channels, a translucent colour composited over ``under``."""
    nums = [float(x) for x in re.findall(r"[\d.]+", css)]
    assert len(nums) >= 3, css
    alpha = nums[3] if len(nums) > 3 else 1.0
    if alpha >= 1 or under is None:
        return tuple(nums[:3])
    base = parse_rgb(under)
    return tuple(alpha * c + (1 - alpha) * b for c, b in zip(nums[:3], base, strict=True))


# The fill of every chart label and the colour it is drawn on: the heat-table cell under it
# (the <rect> of its .kb-cell group) or else the page's background (bar labels sit above the bar).
CHART_TEXT_JS = """() => {
  const bg = getComputedStyle(document.querySelector('.md-main') || document.body).backgroundColor;
  const page = bg === 'rgba(0, 0, 0, 0)' ? getComputedStyle(document.body).backgroundColor : bg;
  return [...document.querySelectorAll('article svg.kb-chart text')].map(t => {
    const cell = t.parentElement.matches('.kb-cell') ? t.parentElement.querySelector(':scope > rect') : null;
    return {text: t.textContent, fill: getComputedStyle(t).fill,
            bg: cell ? getComputedStyle(cell).fill : page};
  });
}"""


@pytest.mark.parametrize("start", SCHEMES)
def test_theme_toggle_switches_and_chart_text_stays_readable(open_view, start):
    v = open_view("stats", "desktop", start)
    page = v.page
    schemes = []
    for _ in range(2):
        scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
        schemes.append(scheme)
        labels = page.evaluate(CHART_TEXT_JS)
        assert labels, "the stats page has charts"
        low = [
            (x["text"], x["fill"], x["bg"])
            for x in labels
            if contrast(parse_rgb(x["fill"], x["bg"]), parse_rgb(x["bg"])) < 4.5
        ]
        assert low == [], scheme
        page.locator("form[data-md-component='palette'] label:not([hidden])").click()
        page.wait_for_timeout(200)
    assert schemes == (["default", "slate"] if start == "light" else ["slate", "default"])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_first_use_of_a_term_shows_its_explanation(open_view, scheme):
    v = open_view("brief", "desktop", scheme)
    term = v.page.locator("article abbr[title]").first
    explanation = term.get_attribute("title")
    term.hover()
    tip = v.page.locator(".md-tooltip2--active")
    tip.wait_for(state="visible")
    assert tip.inner_text().strip() == explanation
    colours = v.page.evaluate(
        "() => { const t = document.querySelector('.md-tooltip2--active');"
        " const s = getComputedStyle(t.querySelector('.md-tooltip2__inner') || t);"
        " return [s.color, s.backgroundColor]; }"
    )
    bg = colours[1] if not colours[1].endswith(", 0)") else "rgb(255, 255, 255)"
    assert contrast(parse_rgb(colours[0], bg), parse_rgb(bg)) >= 4.5, colours


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_terms_explanation_opens_by_keyboard_and_by_touch(open_view, size):
    """A tooltip that opens on hover only does nothing on a phone or for a keyboard user: a term is
    a tab stop, and a tap or Tab onto it shows its explanation."""
    ctx = None
    v = open_view("brief", size)
    page = v.page
    if size == "phone":  # a touch screen
        phone = {"viewport": VIEWPORTS["phone"], "locale": "zh-CN", "is_mobile": True, "has_touch": True}
        ctx = page.context.browser.new_context(**phone)
        page = ctx.new_page()
        page.goto(v.page.url)
    term = page.locator("article abbr[title]").first
    explanation = term.get_attribute("title")
    if size == "phone":
        term.scroll_into_view_if_needed()
        term.tap()
    else:
        v.page.evaluate(
            """() => {
              const el = document.querySelector('article abbr[title]');
              const all = [...document.querySelectorAll('a[href], button, input, [tabindex="0"]')]
                .filter(x => x.offsetParent !== null || x === el);
              all[all.indexOf(el) - 1].focus();
            }"""
        )
        v.page.keyboard.press("Tab")
        assert v.page.evaluate("document.activeElement.tagName") == "ABBR"
    # (the element focused before it, a heading's permalink, may still be closing its own tooltip)
    tip = page.locator(".md-tooltip2--active", has_text=explanation)
    tip.wait_for(state="visible")
    assert tip.inner_text().strip() == explanation
    if ctx is not None:
        ctx.close()


def test_the_home_page_starts_readers_at_the_glossary_too(open_view):
    v = open_view("home", "desktop")
    start = v.page.locator("article h2#start + ul")
    assert start.locator("a[href$='glossary/']").inner_text() == "术语"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_hovered_and_focused_links_keep_their_contrast(open_view, scheme):
    """Material colours a hovered link with its accent colour (under 4.5:1 in both schemes);
    the site keeps the link colour and thickens the underline instead."""
    v = open_view("brief", "desktop", scheme)
    page = v.page
    link = page.locator("article .kb-glance a").first
    bg = page.evaluate("getComputedStyle(document.querySelector('.md-main') || document.body).backgroundColor")
    if bg == "rgba(0, 0, 0, 0)":
        bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    for state in ("hover", "focus"):
        link.hover() if state == "hover" else link.focus()
        color = link.evaluate("a => getComputedStyle(a).color")
        assert contrast(parse_rgb(color, bg), parse_rgb(bg)) >= 4.5, (state, color, bg)
        assert link.evaluate("a => getComputedStyle(a).textDecorationLine") == "underline"


# Every Pygments token class on a code block of the page: its colour and the block's background.
PYGMENTS = "c c1 cm cs cp ch cpf k kd kn kp kr kt kc m mi mf mh s s1 s2 sb sd se si sx sr ss na nb nc nd ne nf nv"
PYGMENTS += " nn no nt nx ni nl o ow p gd gi ge gh gs gu gp go gt bp vc vg vi"
TOKENS_JS = """(classes) => {
  const box = document.createElement('div'); box.className = 'highlight';
  box.innerHTML = '<pre><code></code></pre>';
  document.querySelector('article').appendChild(box);
  const code = box.querySelector('code');
  const out = classes.map(c => { const s = document.createElement('span'); s.className = c; s.textContent = 'x';
    code.appendChild(s); return [c, getComputedStyle(s).color]; });
  return {bg: getComputedStyle(code).backgroundColor, tokens: out};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_code_token_is_readable_on_the_code_background(open_view, scheme):
    v = open_view("paper", "desktop", scheme)  # code blocks: the BibTeX, and hand-written pages
    found = v.page.evaluate(TOKENS_JS, PYGMENTS.split())
    low = {c: round(contrast(parse_rgb(col, found["bg"]), parse_rgb(found["bg"])), 2) for c, col in found["tokens"]}
    assert {c: r for c, r in low.items() if r < 4.5} == {}
