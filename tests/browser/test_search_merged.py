"""A site larger than one Pagefind run's memory is indexed in parts and merged
(kb.site.search_parts: the path of every site past about a thousand pages).  Read in the browser,
the merged index answers as the index of one run does: the same results, in the same order, with
the same excerpts."""

from __future__ import annotations

import re

import pytest
from test_search import all_results, search

from kb.site import search_parts
from sitebuild import CHROMIUM, build, serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]


@pytest.fixture(scope="module")
def merged_url(tmp_path_factory):
    """The frozen fixture site built as CI builds it, with a run's memory so small that each run
    indexes a few pages."""
    dest = tmp_path_factory.mktemp("merged")
    run = build(dest, env_extra={"KB_SEARCH_MEMORY": str(search_parts.BASE_MB + 2)})
    assert run.returncode == 0, run.stdout + run.stderr
    runs = re.search(r"(\d+) Pagefind runs", run.stderr)
    assert runs and int(runs.group(1)) >= 3, run.stderr
    with serve_directory(dest) as url:
        yield url


def shown(browser, url: str, query: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """Every result of ``query`` on the site at ``url``: its address, title and texts."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = ctx.new_page()
    page.goto(url + "guide/")
    results = all_results(page, search(page, query))
    ctx.close()
    return [(r["href"], r["title"], tuple(r["text"])) for r in results]


@pytest.mark.parametrize("query", ["RetroInfer", "2505.02922", "推理调度", "KV Cache"])
def test_a_merged_index_answers_as_one_run_does(browser, base_url, merged_url, query):
    one = shown(browser, base_url, query)
    assert one
    assert shown(browser, merged_url, query) == one
