"""Link previews (docs/assets/kb-previews.js) on the frozen fixture site in Debian's chromium: a
paper link shows the paper's title, a living-document section link reached by the keyboard shows
the section's heading, a brief link shows the brief's headline; Esc, blur and leaving with the
pointer close the popup; on a touch screen a tap follows a link and a button beside it previews; every
request stays on 127.0.0.1; the popup passes axe-core in the light and the dark scheme."""

from __future__ import annotations

import copy
import re
from urllib.parse import urlparse

import pytest
import yaml

from sitebuild import CHROMIUM, FIXTURE_DATA

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

BRIEF = "briefs/inference/2026-09-03-e1/"
PAPER_LINK = "article a[href$='papers/ssr/']"
SECTION = "sec-s1-1-spec-decoding"
SECTION_LINK = f"article a[href$='inference/#{SECTION}']"
BRIEF_LINK = "article .kb-prevnext a[href$='2026-09-04-e1/']"
TIP = "#kb-preview[role='tooltip']"
SCHEMES = ("light", "dark")


class View:
    """The 2026-09-03 brief open on a desktop (or a phone with a touch screen), with every request it made."""

    def __init__(self, browser, base_url: str, scheme: str = "light", touch: bool = False, path: str = BRIEF):
        size = {"width": 390, "height": 844} if touch else {"width": 1366, "height": 900}
        self.ctx = browser.new_context(
            viewport=size, color_scheme=scheme, locale="zh-CN", is_mobile=touch, has_touch=touch
        )
        self.page = self.ctx.new_page()
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} ({r.status})"))
        self.page.goto(base_url + path, wait_until="load")
        self.page.wait_for_timeout(300)  # Material's palette and scripts settle

    @property
    def tip(self):
        return self.page.locator(TIP)

    def described(self, selector: str) -> str | None:
        return self.page.locator(selector).first.get_attribute("aria-describedby")

    def focus_by_keyboard(self, selector: str) -> None:
        """Focus the focusable element before the link, then Tab onto the link (a keyboard focus)."""
        self.page.evaluate(
            """(sel) => {
              const link = document.querySelector(sel);
              const all = [...document.querySelectorAll('a[href], button, input, [tabindex="0"]')]
                .filter(el => el.offsetParent !== null || el === link);
              all[all.indexOf(link) - 1].focus();
            }""",
            selector,
        )
        self.page.keyboard.press("Tab")
        assert self.page.evaluate("(sel) => document.activeElement === document.querySelector(sel)", selector)

    def close(self) -> None:
        self.ctx.close()


@pytest.fixture
def open_view(browser, base_url):
    views: list[View] = []

    def make(scheme: str = "light", touch: bool = False, path: str = BRIEF) -> View:
        views.append(View(browser, base_url, scheme, touch, path))
        return views[-1]

    yield make
    for v in views:
        v.close()


def text_of(el) -> str:
    """A heading's or paragraph's text as a reader sees it (without the ¶ permalink)."""
    el = copy.copy(el)  # the pages fixture's soup is shared with other tests
    for link in el.select(".headerlink"):
        link.decompose()
    return re.sub(r"\s+", " ", el.get_text()).strip()


def paper_title(paper: str) -> str:
    return yaml.safe_load((FIXTURE_DATA / "papers" / f"{paper}.yaml").read_text("utf-8"))["title"]


def assert_stays_local(v: View) -> None:
    hosts = {urlparse(u).hostname for u in v.requests if not u.startswith(("data:", "blob:"))}
    assert hosts == {"127.0.0.1"}, sorted(v.requests)
    # versions.json (Material's edition selector) exists beside the editions on gh-pages only
    assert [f for f in v.failed if "/versions.json " not in f] == []


def test_hovering_a_paper_link_shows_the_papers_title(open_view):
    v = open_view()
    link = v.page.locator(PAPER_LINK).first
    assert v.tip.count() == 0 or v.tip.is_hidden()
    link.hover()
    v.tip.wait_for(state="visible")
    assert paper_title("ssr") in v.tip.inner_text()
    assert v.described(PAPER_LINK) == "kb-preview"
    # the popup sits next to the link and inside the viewport
    box, tip = link.bounding_box(), v.tip.bounding_box()
    assert box is not None and tip is not None
    assert abs(tip["y"] - (box["y"] + box["height"])) < 20 or abs(tip["y"] + tip["height"] - box["y"]) < 20
    assert 0 <= tip["x"] and tip["x"] + tip["width"] <= 1366
    # the pointer may rest on the popup (WCAG 1.4.13 hoverable); leaving both closes it
    v.page.mouse.move(tip["x"] + tip["width"] / 2, tip["y"] + tip["height"] / 2, steps=4)
    v.page.wait_for_timeout(400)
    assert v.tip.is_visible()
    v.page.mouse.move(5, 880)
    v.tip.wait_for(state="hidden")
    assert v.described(PAPER_LINK) is None
    assert_stays_local(v)


def test_keyboard_focus_on_a_section_link_shows_the_heading_and_esc_hides_it(open_view, pages):
    original = pages.soup("inference/index.html").select_one(f"#{SECTION}")
    first_paragraph = text_of(original.find_next_sibling("p", class_=lambda c: c != "kb-timeline-link"))
    section = copy.copy(original)  # the pages fixture's soup is shared with other tests
    small = section.small  # the section's English name, beside it where its title does not say it
    english = small.extract().get_text(strip=True) if small is not None else ""
    heading = text_of(section)
    v = open_view()
    v.focus_by_keyboard(SECTION_LINK)
    v.tip.wait_for(state="visible")
    shown = v.tip.inner_text()
    assert re.sub(r"\s+", " ", shown).startswith(f"{heading} {english}".strip())
    assert first_paragraph in shown
    assert v.described(SECTION_LINK) == "kb-preview"
    v.page.keyboard.press("Escape")
    v.tip.wait_for(state="hidden")
    assert v.described(SECTION_LINK) is None
    assert v.page.evaluate("(sel) => document.activeElement === document.querySelector(sel)", SECTION_LINK)
    # shown again on the next focus, and blur closes it
    v.page.keyboard.press("Shift+Tab")
    v.page.keyboard.press("Tab")
    v.tip.wait_for(state="visible")
    v.page.evaluate("document.activeElement.blur()")
    v.tip.wait_for(state="hidden")
    assert v.described(SECTION_LINK) is None
    assert_stays_local(v)


def test_a_section_preview_shows_what_a_reader_sees_of_its_heading_and_description(open_view, pages):
    """Not the words hidden for the search index (KV Cache's heading and description hold its
    synonym's word), and not the link to the section's timeline, the same under every section."""
    section = pages.soup("inference/index.html").select_one("#sec-s1-3-kv-cache")
    description = text_of(section.find_next_sibling("p", class_=lambda c: c != "kb-timeline-link"))
    assert description.startswith("KV Cache")
    link = "article a[href$='inference/#sec-s1-3-kv-cache']"
    v = open_view()
    v.focus_by_keyboard(link)
    v.tip.wait_for(state="visible")
    shown = re.sub(r"\s+", " ", v.tip.inner_text())
    assert shown.startswith(text_of(section)) and description in shown
    assert "kbsyn" not in shown and "本节时间线" not in shown


def test_a_node_of_the_related_papers_graph_shows_its_papers_preview(open_view):
    """The graph's nodes are SVG links, whose href is no string: the preview reads the attribute."""
    v = open_view(path="papers/cascade/")
    node = "svg.kb-graph a[href='../opscale/']"
    v.focus_by_keyboard(node)
    v.tip.wait_for(state="visible")
    assert paper_title("opscale") in v.tip.inner_text()
    assert not [u for u in v.requests if "object" in u]
    assert_stays_local(v)


def test_a_brief_link_shows_its_headline(open_view, pages):
    headline = text_of(pages.soup("briefs/inference/2026-09-04-e1/index.html").select_one("article .kb-headline"))
    v = open_view()
    v.page.locator(BRIEF_LINK).first.hover()
    v.tip.wait_for(state="visible")
    assert headline in re.sub(r"\s+", " ", v.tip.inner_text())
    assert "2026-09-04" in v.tip.inner_text()  # the brief's title
    assert_stays_local(v)


def test_the_target_page_is_fetched_once(open_view):
    v = open_view()
    for _ in range(2):
        v.page.locator(PAPER_LINK).first.hover()
        v.tip.wait_for(state="visible")
        v.page.mouse.move(5, 880)
        v.tip.wait_for(state="hidden")
    assert len([u for u in v.requests if urlparse(u).path.endswith("/papers/ssr/")]) == 1


def test_on_a_touch_screen_one_tap_follows_the_link(open_view):
    v = open_view(touch=True)
    link = v.page.locator(PAPER_LINK).first
    link.scroll_into_view_if_needed()
    link.tap()
    v.page.wait_for_url(re.compile(r"/papers/ssr/$"))
    assert_stays_local(v)


def test_on_a_touch_screen_the_preview_is_a_button_of_its_own_where_it_adds_to_the_line(open_view):
    v = open_view(touch=True)
    v.page.evaluate(  # the first link to the paper below the glance (the glance has no buttons)
        f"() => [...document.querySelectorAll(\"{PAPER_LINK}\")].find(a => !a.closest('.kb-glance')).dataset.t = '1'"
    )
    link = v.page.locator("a[data-t='1']")
    link.scroll_into_view_if_needed()
    button = v.page.locator("a[data-t='1'] + .kb-preview-btn")
    button.wait_for(state="visible")  # offered once the link is in view and its target was read
    assert button.get_attribute("aria-label") == "预览：" + link.inner_text().strip()
    box = button.bounding_box()
    assert box is not None and box["width"] >= 24 and box["height"] >= 24  # a target a finger can hit
    # never in tables, headings or the previous/next bar
    v.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    v.page.wait_for_timeout(500)
    assert v.page.locator("article :is(table, h1, h2, h3, .kb-prevnext, .kb-glance) .kb-preview-btn").count() == 0
    button.scroll_into_view_if_needed()
    button.tap()
    v.tip.wait_for(state="visible")
    assert paper_title("ssr") in v.tip.inner_text() and button.get_attribute("aria-expanded") == "true"
    assert urlparse(v.page.url).path.endswith(BRIEF)  # the page stays
    button.tap()
    v.tip.wait_for(state="hidden")
    assert button.get_attribute("aria-expanded") == "false"
    assert_stays_local(v)


def test_no_preview_button_where_the_line_already_says_it(browser, base_url):
    """The home page lists each brief with its headline: a preview (the brief's title and headline)
    would repeat the line, so its brief links get no button."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(base_url, wait_until="load")
    page.wait_for_timeout(1500)  # every link in view has had its target read
    briefs = "article li > a[href$='briefs/inference/2026-09-03-e1/'], article li > a[href$='2026-09-04-e1/']"
    assert page.locator(briefs).count() >= 2
    assert page.locator(f":is({briefs}) + .kb-preview-btn").count() == 0
    ctx.close()


INDEXES = ("", "papers/", "backlog/", "inference/", "briefs/")


@pytest.mark.parametrize("index", INDEXES)
def test_one_tap_follows_the_first_link_of_every_index_on_a_phone(browser, base_url, index):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN", is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto(base_url + index, wait_until="load")
    href = page.evaluate(
        """() => {
          const a = [...document.querySelectorAll('article a[href]')]
            .find(a => /\\/(papers\\/[^/]+|briefs\\/inference\\/[^/]+)\\/$/.test(new URL(a.href).pathname));
          a.dataset.first = '1';
          return a.href;
        }"""
    )
    link = page.locator("article a[data-first='1']")
    link.scroll_into_view_if_needed()
    link.tap()
    page.wait_for_url(href.split("#")[0] + "*", timeout=5000)
    assert page.locator(TIP).count() == 0 or not page.locator(TIP).is_visible()
    ctx.close()


def test_no_preview_button_with_a_mouse(open_view):
    v = open_view()
    assert v.page.locator(".kb-preview-btn").count() == 0


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_popup_passes_axe(open_view, scheme):
    from axe_playwright_python.sync_playwright import Axe

    v = open_view(scheme)
    assert v.page.evaluate("document.body.getAttribute('data-md-color-scheme')") == (
        "slate" if scheme == "dark" else "default"
    )
    v.page.locator(PAPER_LINK).first.hover()
    v.tip.wait_for(state="visible")
    # the pointer rests on the popup: Material draws a hovered link in its accent colour, which is
    # not this popup's business (and is below 4.5:1 in both schemes)
    tip = v.tip.bounding_box()
    assert tip is not None
    v.page.mouse.move(tip["x"] + tip["width"] / 2, tip["y"] + tip["height"] / 2, steps=4)
    v.page.wait_for_timeout(300)
    assert v.tip.is_visible()
    for context in (TIP, PAPER_LINK):
        results = Axe().run(v.page, context=context)
        bad = [
            (x["id"], x["impact"], [n["target"] for n in x["nodes"]][:3])
            for x in results.response["violations"]
            if x["impact"] in ("serious", "critical")
        ]
        assert bad == [], context
        if context == TIP:  # the popup's text was checked, not skipped
            assert "color-contrast" in {x["id"] for x in results.response["passes"]}
