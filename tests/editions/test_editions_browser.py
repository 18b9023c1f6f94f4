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

from sitebuild import CHROMIUM, CHROMIUM_ARGS, ROOT

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
def base_url(site, tmp_path_factory):
    tree = tmp_path_factory.mktemp("gh-pages")
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
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Pages, directory=str(tree)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}{PREFIX}"
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
