"""The published tree in a real browser, served the way GitHub Pages serves a project
site: under a sub-path (/kb/), a missing path answered with the root 404.html.
Material's version selector lists the editions from versions.json and switches
between them; a frozen page's links open the current site; a record's URL under an
edition (as mike once published them) lands on the record in latest/.  Screenshots
of a frozen page and of a changes page go to test-artifacts/."""

from __future__ import annotations

import functools
import http.server
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS, ROOT, build

ARTIFACTS = ROOT / "test-artifacts"
PREFIX = "/kb/"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed"),
]


class Pages(http.server.SimpleHTTPRequestHandler):
    """Serves the tree under PREFIX; anything missing gets the root 404.html, status 404."""

    def log_message(self, *args):
        pass

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        return super().translate_path("/" + path[len(PREFIX) :] if path.startswith(PREFIX) else "/__outside__")

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    """The tree served under PREFIX, from a site built as the publishing workflow builds it: with
    its address set (latest/ under the served prefix), so the themed 404 page can answer at the root."""
    tree = tmp_path_factory.mktemp("gh-pages")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Pages, directory=str(tree)))
    url = f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
    site = tmp_path_factory.mktemp("published-site")
    run = build(site, env_extra={"KB_SITE_URL": url + "latest/"})
    assert run.returncode == 0, run.stdout + run.stderr
    for edition in ("2026-09", "2026-10"):
        run = subprocess.run(
            [
                sys.executable,
                str(ROOT / "scripts" / "publish_edition.py"),
                "tree",
                "--site",
                str(site),
                "--edition",
                edition,
                "--out",
                str(tree),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS + ["--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    pg = ctx.new_page()
    yield pg
    ctx.close()


def test_selector_lists_latest_and_the_editions_and_switches(page, base_url):
    page.goto(base_url)
    page.wait_for_url(base_url + "latest/")
    page.wait_for_selector(".md-version__current")
    assert page.locator(".md-version__current").inner_text().strip() == "最新"
    items = [t.strip() for t in page.locator(".md-version__item").all_inner_texts()]
    assert items == ["最新", "2026-10", "2026-09"]
    page.locator(".md-version__link", has_text="2026-09").dispatch_event("click")  # the list opens on hover
    page.wait_for_url(base_url + "2026-09/")
    page.wait_for_selector(".md-version__current")
    assert page.locator(".md-version__current").inner_text().strip() == "2026-09"


def test_frozen_page_opens_records_in_the_current_site(page, base_url):
    page.goto(base_url + "2026-09/inference/")
    banner = page.locator("article .kb-edition")
    assert "2026-09 版" in banner.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "edition-2026-09-inference.png"))
    page.locator("article a[href*='papers/ssr/']").first.click()
    page.wait_for_url(base_url + "latest/papers/ssr/")
    assert "SSR" in page.title()


def test_a_records_url_under_an_edition_lands_in_latest(page, base_url):
    page.goto(base_url + "2026-09/papers/ssr/?from=old#bibtex")
    page.wait_for_url(base_url + "latest/papers/ssr/?from=old#bibtex")
    assert "SSR" in page.title()


def test_changes_page_renders_with_the_editions_styles(page, base_url):
    page.goto(base_url + "2026-10/changes/")
    assert page.locator("h1").inner_text().startswith("2026-10 版")
    assert page.evaluate("getComputedStyle(document.querySelector('.md-typeset h1')).fontWeight") != ""
    page.screenshot(path=str(ARTIFACTS / "edition-2026-10-changes.png"))


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}, {"width": 1366, "height": 900}])
def test_a_missing_address_gets_the_themed_chinese_404_with_a_way_home(browser, base_url, viewport):
    """GitHub Pages answers every missing address with the root 404.html: it is the site's own
    page (theme, header search, Chinese), readable on a phone, and its home link opens latest/."""
    ctx = browser.new_context(viewport=viewport, locale="zh-CN")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    response = page.goto(base_url + "no/such/page/")
    assert response is not None and response.status == 404
    assert page.locator("html").get_attribute("lang") == "zh"
    assert page.locator("header.md-header").is_visible()  # the theme, with its header
    assert page.locator("article h1").inner_text().startswith("404 · 找不到这个页面")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('article p')).fontSize)")
    assert size >= 14, size  # the viewport is set: not desktop text shrunk onto a phone
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.locator("form[name='kb-search']").count() == 1  # the header's search is there
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"root-404-{viewport['width']}.png"))
    page.locator("article a", has_text="回到首页").click()
    page.wait_for_url(base_url + "latest/")
    assert not errors and not [u for u in failed if not u.endswith("/no/such/page/")], (errors, failed)
    ctx.close()


def test_an_editions_missing_page_still_goes_to_latest(page, base_url):
    """The themed root 404 keeps the edition redirect: a record's address under an edition opens it in latest/."""
    page.goto(base_url + "2026-10/papers/retroinfer/")
    page.wait_for_url(base_url + "latest/papers/retroinfer/")
    assert "RetroInfer" in page.title()
