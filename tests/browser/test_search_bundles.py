"""The bundles a reader's browser gets that this project writes itself, not Pagefind: the index
kept between builds and brought up to date after one more brief (kb.site.search_update), and the
index of a site indexed in parts, merged (kb.site.search_parts).  Pagefind's own code in the
browser reads their meta file, word chunks and filters: each query of tests/browser/test_search.py
gets the same right page first, an arXiv id finds every page that writes it, and a filter narrows
the results, as with the bundle of one Pagefind run."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from test_search import FIRST, all_results, counted, open_page, path, search, search_results

from kb.site import search_index, search_parts
from sitebuild import CHROMIUM, build, copy_project, serve_directory

pytestmark = [pytest.mark.browser, pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")]

NEWEST = Path("data", "briefs", "inference", "2026-09-05-e1.yaml")  # of the frozen knowledge base


def _updated(tmp: Path) -> Path:
    """The fixture site built with the cache the day before its newest brief, then with it."""
    project = copy_project(tmp / "project")
    brief = project / NEWEST
    text = brief.read_text("utf-8")
    brief.unlink()
    cache = {"KB_CACHE": str(tmp / "cache")}
    assert build(tmp / "before", env_extra=cache, project=project).returncode == 0
    brief.write_text(text, "utf-8")
    run = build(tmp / "site", env_extra=cache, project=project)
    assert run.returncode == 0, run.stderr
    m = re.search(r"search index of (\d+) pages .* (\d+) pages indexed anew", run.stderr)
    assert m and 0 < int(m.group(2)) < int(m.group(1)) // 2, run.stderr  # brought up to date, not made anew
    return tmp / "site"


def _in_parts(site: Path, tmp: Path) -> Path:
    copy = tmp / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("pagefind"))
    pages = len(list((site / "pagefind" / "fragment").iterdir()))
    assert search_index.index_site(copy, pages, memory_mb=search_parts.BASE_MB + 1).parts > 3
    return copy


@pytest.fixture(scope="module", params=["updated", "in parts"])
def base_url(request, site, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(request.param.replace(" ", "-"))
    made = _updated(tmp) if request.param == "updated" else _in_parts(site, tmp)
    with serve_directory(made) as url:
        yield url


@pytest.fixture(scope="module")
def reference_url(site):
    """The fixture site with the bundle of one Pagefind run."""
    with serve_directory(site) as url:
        yield url


@pytest.fixture
def pages(browser, base_url, reference_url):
    """A page of the site with the bundle under test, and one of the reference."""
    made = [open_page(browser, base_url), open_page(browser, reference_url)]
    yield made[0][1], made[1][1]
    for ctx, _, errors in made:
        assert not errors, errors
        ctx.close()


def _found(page, query: str, kind: str | None = None) -> tuple[int, list[tuple[str, str]]]:
    """How many results ``query`` has (of type ``kind`` only), and every one of them (its page
    and type), all loaded."""
    page.goto(page.url)
    results = search(page, query)
    if kind is not None:
        page.locator(".kb-search__filters select[name='类型']").select_option(kind)
        page.wait_for_function(
            "k => (document.querySelector('#kb-search-results').dataset.filters || '').includes(k)", arg=kind
        )
        results = search_results(page)
    total = counted(page)
    results = all_results(page, results)
    assert len(results) == total, (len(results), total)
    return total, [(path(r["href"]), r["type"]) for r in results]


@pytest.mark.parametrize("query, first, kind", FIRST)
def test_a_query_finds_what_one_run_finds_and_the_right_page_first(pages, query, first, kind):
    (count, made), (expected, reference) = (_found(p, query) for p in pages)
    assert made[0] == (first, kind), made
    assert count == expected and sorted(made) == sorted(reference)


def test_a_filter_narrows_as_with_one_run(pages):
    (count, made), (expected, reference) = (_found(p, "推理调度", "论文") for p in pages)
    assert made and {kind for _, kind in made} == {"论文"}
    assert count == expected and sorted(made) == sorted(reference)
