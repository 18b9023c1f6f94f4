"""The demos inside the real site (built with KB_DEMOS=1): the block on a paper page
runs on WebGPU and matches the CPU reference; the page's assets come from the site."""

from __future__ import annotations

import pytest

from sitebuild import CHROMIUM, CHROMIUM_ARGS, build, serve_directory

FLAGS = CHROMIUM_ARGS + ["--enable-unsafe-webgpu"]

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory):
    dest = tmp_path_factory.mktemp("demo-site")
    run = build(dest, {"KB_DEMOS": "1"})
    assert run.returncode == 0, run.stdout + run.stderr
    with serve_directory(dest) as url:
        yield url


def test_attention_demo_on_the_retroinfer_page(demo_url):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        page = browser.new_page()
        requests: list[str] = []
        page.on("request", lambda r: requests.append(r.url))
        page.goto(demo_url + "papers/retroinfer/")
        page.wait_for_function("() => window.kbDemos !== undefined")
        page.evaluate("() => window.kbDemos.ready")
        res = page.evaluate(
            "() => window.kbDemos.run('attention-decode-topk', {heads: 2, len: 300, dim: 32, topk: 17, reps: 1})"
        )
        assert res["backend"] == "webgpu" and res["ok"] is True, res
        assert "WGSL" in page.locator(".kb-demo").first.inner_text() or page.locator(".kb-demo pre code").count() > 0
        browser.close()
    assert requests and all(u.startswith(demo_url) for u in requests), [
        u for u in requests if not u.startswith(demo_url)
    ]
