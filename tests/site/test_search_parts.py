"""A site indexed in parts (kb.site.search_parts: Pagefind's memory kept within a budget) gives
the bundle one Pagefind run gives: the same pages and fragments, every word on the same pages at
the same positions with the same variants, the same chunks, filters, sort orders and metadata keys.
Page numbers differ between the two (each run numbers its own pages), so bundles are compared by
page URL."""

from __future__ import annotations

import re
import shutil

from hypothesis import given
from hypothesis import strategies as st

from bundles import canonical, same_answers
from kb.site import search, search_index, search_parts


def test_the_fixture_site_indexed_in_parts_is_the_bundle_of_one_run(site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("pagefind"))
    pages = len(list((site / "pagefind" / "fragment").iterdir()))
    stats = search_index.index_site(copy, pages, memory_mb=search_parts.BASE_MB + 1)  # a few pages a run
    assert stats.parts > 3
    same_answers(copy / "pagefind", site / "pagefind")
    assert not [p for p in copy.iterdir() if p.name.startswith(".kb-parts-")]  # the runs' bundles are gone


def _page(title: str, words: str) -> str:
    return (
        f'<!doctype html><html lang="zh"><head><title>{title}</title></head><body>'
        f'<article data-pagefind-body><h1 id="t">{title}</h1><p>{words}</p>'
        f'<span hidden data-pagefind-meta="date:{len(title)}"></span>'
        f'<span hidden data-pagefind-sort="date:{len(title)}"></span></article></body></html>'
    )


def test_paths_with_glob_characters_are_indexed_one_a_run(tmp_path):
    """A run is given its files as a glob: characters of glob syntax in a path are escaped."""
    site = tmp_path / "site"
    names = ["a,b", "c{d}", "e[1]", "f(g)!", "q?r", "s*t", "x<y>:z", "plain", "推理"]
    for i, name in enumerate(names):
        (site / name).mkdir(parents=True)
        (site / name / "index.html").write_text(_page(f"T{'x' * i}", f"speculative decoding {name} 投机"), "utf-8")
    budget = search_parts.part_size(search_parts.BASE_MB + 1)
    weights = {f"{n}/index.html": budget for n in names}  # a page a run
    assert search_parts.plan(weights, budget) == [[p] for p in sorted(weights)]
    stats = search_index.index_site(site, len(names), weights=weights, memory_mb=search_parts.BASE_MB + 1)
    bundle = canonical(site / "pagefind")
    (language,) = [k for k in bundle if k not in ("version", "include")]
    assert stats.parts == len(names) and bundle[language]["page_count"] == len(names)
    assert {u for u, *_ in bundle[language]["words"]["speculative"][0]} == {f"/{n}/" for n in names}
    assert bundle[language]["sorts"]["date"] == sorted(bundle[language]["sorts"]["date"])


def test_pages_a_dirty_build_did_not_write_count_towards_the_memory_too(tmp_path):
    """`mkdocs build --dirty` (and `kb build --dirty`) rewrites some pages; Pagefind reads every page
    on disk, so the parts are planned over all of them, not only over those the build wrote."""
    site = tmp_path / "site"
    for name in ("a", "b", "c"):
        (site / name).mkdir(parents=True)
        text = f"speculative {name} 投机 " + "decoding " * 3000  # 27,000 characters
        (site / name / "index.html").write_text(_page(f"T{name}", text), "utf-8")
    weights = {"a/index.html": 27_000}  # the one page this build wrote: alone it fits one run
    memory = search_parts.BASE_MB + 1  # about 47,000 characters a run: a page, or a page and a bit
    assert search_parts.part_size(memory) < 2 * 27_000
    stats = search_index.index_site(site, 1, weights=weights, memory_mb=memory)
    assert stats.parts == 3
    (language,) = [k for k in canonical(site / "pagefind") if k not in ("version", "include")]
    assert canonical(site / "pagefind")[language]["page_count"] == 3


def test_plan_keeps_path_order_and_puts_a_large_page_alone():
    weights = {"b": 4, "a": 4, "c": 9, "d": 1, "e": 1}
    assert search_parts.plan(weights, 8) == [["a", "b"], ["c"], ["d", "e"]]
    assert search_parts.plan({}, 8) == []
    even = {name: 3 for name in "abcdef"}  # filled in turn: 12 and 6; as even: 9 and 9 (the same two runs)
    assert search_parts.plan(even, 12) == [["a", "b", "c"], ["d", "e", "f"]]
    assert search_parts.plan({**even, "g": 0}, 100) == [[*"abcdef"]]
    assert search_parts.part_size(search_parts.BASE_MB + search_parts.PER_CHARACTER) == 1024 * 1024


@given(st.lists(st.integers(0, 40), max_size=30), st.integers(1, 60))
def test_plan_is_as_few_runs_as_filling_each_in_turn_and_no_larger(sizes, budget):
    """As many parts as filling each up to the budget in turn, the pages in the same order, no part
    over the budget but a page alone, and the largest part no larger than filling in turn makes it."""
    weights = {f"p{i:02}": w for i, w in enumerate(sizes)}
    marked = [(p, w) for p, w in sorted(weights.items()) if w > 0]
    filled, parts = search_parts._filled(marked, budget), search_parts.plan(weights, budget)
    assert len(parts) == len(filled) and [p for part in parts for p in part] == [p for p, _ in marked]
    sizes_of = [sum(weights[p] for p in part) for part in parts]
    assert all(size <= budget or len(part) == 1 for size, part in zip(sizes_of, parts, strict=True))
    assert max(sizes_of, default=0) <= max((sum(weights[p] for p in part) for part in filled), default=0)


def test_glob_syntax_is_escaped():
    assert search_parts.glob_of(["x/a,b/index.html", "y/c{d}[e]/index.html"]) == (
        r"{x/a\,b/index.html,y/c\{d\}\[e\]/index.html}"
    )
    assert re.fullmatch(r"\{[^{}]*\}", search_parts.glob_of(["plain/index.html"]))


def test_weight_is_the_marked_body():
    page = "<html><body><article data-pagefind-body>abc</article></body></html>"
    assert search.weight(page) == len("data-pagefind-body>abc")
    assert search.weight("<html><body>no body</body></html>") == 0


def test_a_page_that_writes_the_attribute_as_text_is_not_a_marked_page():
    """The performance log writes ``data-pagefind-body`` in its text: that page is not indexed, and
    counted as one it threw off the index's bookkeeping (its weight, its digest, the pages kept)."""
    said = "<p>包成几段 <code>data-pagefind-body</code>，其余留在外面</p>"
    unmarked = f"<html><body><article class='md-content'>{said}</article></body></html>"
    assert search.weight(unmarked) == 0 and search.digest(unmarked) == search.digest("<p>nothing</p>")
    marked = f"<html><body><article class='md-content' data-pagefind-body data-pagefind-weight='2'>{said}</article>"
    assert search.weight(marked) == marked.rfind("</article>") - marked.index("data-pagefind-body")
    assert search.digest(marked) != search.digest(unmarked)
