"""The kept search index brought up to date (kb.site.search_update): with the cache on, Pagefind
reads only the pages whose indexed text changed or that are new, and the bundle answers every
query as a run over the whole site does (compared by page URL: tests/bundles.py).  A page gone,
a file the build did not write, another configuration or a broken state: the whole site is read."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from bundles import canonical, same_answers
from kb.site import search_index, search_parts, search_store, search_update
from kb.site.search_index import IndexStats


def _page(title: str, words: str, kind: str = "A", date: str = "2026-01-01", extra: str = "") -> str:
    return (
        f'<!doctype html><html lang="zh"><head><title>{title}</title></head><body><nav>navigation</nav>'
        f'<article class="md-content" data-pagefind-body><h1 id="t">{title}</h1><p>{words}</p>'
        f'<span hidden data-pagefind-filter="类型:{kind}"></span><span hidden data-pagefind-meta="type:{kind}"></span>'
        f'<span hidden data-pagefind-meta="date:{date}"></span><span hidden data-pagefind-sort="date:{date}"></span>'
        f"{extra}</article></body></html>"
    )


PAGES = {
    "index.html": _page("首页", "投机解码 speculative decoding 推理调度", "首页"),
    "a/index.html": _page("Alpha", "speculative decoding draft model 2505.02922 naïve", date="2026-03-01"),
    "b/index.html": _page("Beta", "KV cache paging 向量存储 rareword", date="2026-02-01"),
    "c/index.html": _page("Gamma", "prefill decode disaggregation 推理调度 naive", "B", "2026-01-15"),
    "d/index.html": _page("Delta", "quantization int4 awq gptq 自投机", "B", "2026-04-01"),
    "e/index.html": _page("Epsilon", "speculative sampling tree attention", date="2025-12-31"),
    "f/index.html": _page("Zeta", "continuous batching vllm sglang", "B", "2026-02-15"),
    "g/index.html": _page("Eta", "flash attention kernels triton", date="2026-05-01"),
}


def _write(site: Path, pages: dict[str, str]) -> None:
    for rel, html in pages.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(html, "utf-8")


def _written(site: Path) -> search_index.Written:
    written = search_index.Written(kept=True)
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if not rel.startswith("pagefind/"):
            written.add(rel, path.read_text("utf-8"), True)
    return written


def _index(site: Path, store: Path | None, written: search_index.Written | None = None) -> IndexStats:
    written = written or _written(site)
    digests = written.digests if store is not None else None
    return search_index.index_site(site, written.pages, store, written.weights, digests=digests)


def _reference(site: Path, tmp: Path) -> Path:
    """The bundle of one Pagefind run over the whole site as it is now."""
    copy = tmp / "reference"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(site, copy, ignore=shutil.ignore_patterns("pagefind"))
    _index(copy, None)
    return copy / "pagefind"


@pytest.fixture
def runs(monkeypatch) -> list[list[str] | None]:
    """The Pagefind runs of the test: the files each read (None: the whole site)."""
    seen: list[list[str] | None] = []
    run = search_index._run

    def spy(site_dir: Path, out: Path, files: list[str] | None) -> int:
        seen.append(files)
        return run(site_dir, out, files)

    monkeypatch.setattr(search_index, "_run", spy)
    return seen


def test_changed_and_added_pages_are_indexed_alone_and_the_bundle_answers_as_a_full_run(tmp_path, runs):
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    first = _index(site, store)
    assert first.anew == len(PAGES) and first.parts == 1 and runs == [None]

    _write(
        site,
        {
            # a word only this page had goes, its type changes, its date moves it in the sort
            "b/index.html": _page("Beta", "KV cache paging 向量存储", "B", "2027-01-01"),
            # the word it had only as a variant (naïve of naive) goes
            "a/index.html": PAGES["a/index.html"].replace(" naïve", ""),
            # the navigation outside the marked body changes: not what Pagefind reads
            "c/index.html": PAGES["c/index.html"].replace("navigation", "other navigation"),
            # a word of every page, and one nobody had
            "index.html": _page("首页", "投机解码 speculative decoding 推理调度 newword attention", "首页"),
            # added: a new type
            "a/z/index.html": _page("Iota", "2505.02922 revisited", "C", date="2026-03-02"),
        },
    )
    runs.clear()
    second = _index(site, store)
    assert second.anew == 4 and second.parts == 1  # a, b, index, a/z: not c
    assert runs == [["a/index.html", "a/z/index.html", "b/index.html", "index.html"]]
    assert 0 < second.reused
    same_answers(site / "pagefind", _reference(site, tmp_path), chunks=False)
    words = canonical(site / "pagefind")["zh"]["words"]
    assert "rareword" not in words and {u for u, *_ in words["newword"][0]} == {"/"}
    assert words["naive"][1] == []  # no page has the variant any more

    # added: a metadata field before every other in order (the kept pages' fields are numbered anew)
    _write(site, {"h/index.html": _page("Theta", "speculative decoding medusa naïve", "C", "2026-06-01", _authors())})
    assert _index(site, store).anew == 1
    same_answers(site / "pagefind", _reference(site, tmp_path), chunks=False)
    assert canonical(site / "pagefind")["zh"]["rest"][1:] == [["authors", "date", "title", "type"]]

    runs.clear()
    third = _index(site, store)  # nothing changed: Pagefind does not run
    assert (third.anew, third.parts, runs) == (0, 0, [])
    hashed = [*(site / "pagefind").glob("*/*"), *(site / "pagefind").glob("*.pf_meta")]
    assert third.reused == len(hashed)  # every file kept

    # the only page with a metadata field loses it: the field goes (the others are numbered anew)
    _write(site, {"h/index.html": _page("Theta", "speculative decoding medusa naïve", "C", "2026-06-01")})
    assert _index(site, store).anew == 1
    same_answers(site / "pagefind", _reference(site, tmp_path))
    same_answers(site / "pagefind", _reference(site, tmp_path), chunks=False)


def _authors() -> str:
    return '<span hidden data-pagefind-meta="authors:Ada Lovelace"></span>'


def test_a_page_gone_or_a_file_the_build_did_not_write_means_a_full_run(tmp_path, monkeypatch):
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    _index(site, store)
    (bundle,) = [d for d in store.iterdir() if d.is_dir()]
    fragments = {json.loads(gzip.decompress(f.read_bytes())[12:])["url"]: f.name for f in bundle.glob("fragment/*")}
    (site / "g" / "index.html").unlink()
    _write(site, {"a/index.html": _page("Alpha", "changed")})
    found: list[str] = []
    run = search_index._run

    def spy(site_dir: Path, out: Path, files: list[str] | None) -> int:
        found.extend(p.relative_to(out).as_posix() for p in out.rglob("*.pf_*"))
        return run(site_dir, out, files)

    monkeypatch.setattr(search_index, "_run", spy)
    gone = _index(site, store)
    assert gone.anew == len(PAGES) - 1 and gone.parts == 1
    # what Pagefind found in the store: the fragments of the pages that did not change, nothing
    # another file's name could clash with (the changed page's, the gone one's, the chunks)
    assert sorted(found) == sorted(f"fragment/{n}" for u, n in fragments.items() if u not in ("/a/", "/g/"))
    same_answers(site / "pagefind", _reference(site, tmp_path))

    written = _written(site)  # as a --dirty build: a file on disk it did not write
    _write(site, {"old/index.html": _page("Old", "left from an earlier build")})
    stale = _index(site, store, written)
    assert stale.anew == written.pages
    assert "/old/" in canonical(site / "pagefind")["zh"]["pages"]  # Pagefind read the site's files


def test_a_broken_state_or_another_configuration_is_not_trusted(tmp_path, monkeypatch):
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    _index(site, store)
    (bundle,) = [d for d in store.iterdir() if d.is_dir()]
    state = bundle / search_update.FILE
    assert not (site / "pagefind" / search_update.FILE).exists()  # the store's, not the site's
    data = json.loads(state.read_text("utf-8"))
    assert sorted(data["paths"]) == sorted(PAGES)

    _write(site, {"a/index.html": _page("Alpha", "changed")})
    state.write_text("{not json", "utf-8")
    assert _index(site, store).anew == len(PAGES)  # and the state is made anew
    assert sorted(json.loads(state.read_text("utf-8"))["paths"]) == sorted(PAGES)

    _write(site, {"a/index.html": _page("Alpha", "changed again")})
    monkeypatch.setitem(search_index.CONFIG, "exclude_selectors", [*search_index.CONFIG["exclude_selectors"], "nav"])
    assert _index(site, store).anew == len(PAGES)
    same_answers(site / "pagefind", _reference(site, tmp_path))


def test_a_missing_or_damaged_file_of_the_kept_bundle_or_a_state_of_another_bundle_means_a_full_run(tmp_path, runs):
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    _index(site, store)
    (bundle,) = [d for d in store.iterdir() if d.is_dir()]
    next((bundle / "fragment").iterdir()).unlink()  # a kept page's
    _write(site, {"a/index.html": _page("Alpha", "changed")})
    runs.clear()
    stats = _index(site, store)
    assert runs == [["a/index.html"], None] and (stats.anew, stats.parts) == (len(PAGES), 1)
    same_answers(site / "pagefind", _reference(site, tmp_path))

    chunk = next((bundle / "index").iterdir())
    chunk.unlink()  # not the site's copy: a hard link
    chunk.write_bytes(b"not gzip")
    _write(site, {"a/index.html": _page("Alpha", "changed again")})
    assert _index(site, store).anew == len(PAGES)  # read as unreadable, not a failed build
    same_answers(site / "pagefind", _reference(site, tmp_path))

    # a state left beside another bundle (as a full run killed before its state was saved leaves it)
    saved = (bundle / search_update.FILE).read_bytes()
    _write(site, {"b/index.html": _page("Beta", "changed")})
    written = _written(site)
    search_index.index_site(site, written.pages, store, written.weights)  # a full run without digests
    assert not (bundle / search_update.FILE).exists()
    (bundle / search_update.FILE).write_bytes(saved)
    _write(site, {"b/index.html": PAGES["b/index.html"], "c/index.html": _page("Gamma", "changed")})
    assert _index(site, store).anew == len(PAGES)  # not trusted: b would keep the text it had before
    same_answers(site / "pagefind", _reference(site, tmp_path))


def test_pending_numbers_changed_pages_as_they_were_and_added_ones_after_the_last(tmp_path):
    (tmp_path / "pagefind-entry.json").write_text('{"languages": {"zh": {"hash": "zh_1234567890"}}}', "utf-8")
    paths = ["x.html", "y.html", "z.html"]
    state = search_update.State("2:c", "zh_1234567890", paths, ["1", "2", "3"], {"date": {0: "2026"}}, {})
    state.save(tmp_path)
    digests = {"x.html": "1", "y.html": "9", "z.html": "3", "w.html": "4"}
    update = search_update.pending(tmp_path, digests, "c")
    assert update is not None and update.numbers == {"y.html": 1, "w.html": 3} and update.state == state
    assert search_update.pending(tmp_path, digests, "other") is None  # made with another configuration
    assert search_update.pending(tmp_path, {"x.html": "1", "y.html": "2"}, "c") is None  # z gone
    many = {**digests, "y.html": "8", "x.html": "7"}  # three of four: a full run costs less
    assert search_update.pending(tmp_path, many, "c") is None
    assert search_update.url("index.html") == "/" and search_update.url("a/b/index.html") == "/a/b/"
    assert search_update.url("404.html") == "/404.html"


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("after", [0, 1, 3])
def test_a_stopped_update_leaves_the_index_as_it_was_and_the_next_reads_only_what_changed(tmp_path, runs, after):
    """Stopped before the merge (``after`` 0) or within it: the served bundle and the kept one as
    they were, the store still trusted; the next update reads the changed pages alone."""
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    _index(site, store)
    served, kept = _files(site / "pagefind"), _files(store)
    _write(site, {"b/index.html": _page("Beta", "KV cache paging 向量存储 stopword", "B", "2027-01-01")})
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > after

    written = _written(site)
    stats = search_index.index_site(site, written.pages, store, written.weights, digests=written.digests, stop=stop)
    assert stats.stopped and stats.anew == 1 and "stopped after" in stats.report()
    assert _files(site / "pagefind") == served  # the pages' search as before
    assert _files(store) == kept  # nothing written is left, nothing replaced
    assert [p.name for p in site.iterdir() if p.name.startswith(".")] == []  # no scratch left
    runs.clear()
    resumed = _index(site, store)
    assert not resumed.stopped and resumed.anew == 1 and runs == [["b/index.html"]]  # not a full run
    same_answers(site / "pagefind", _reference(site, tmp_path), chunks=False)
    assert "stopword" in canonical(site / "pagefind")["zh"]["words"]


def test_an_update_stopped_after_replacing_a_kept_file_leaves_the_served_index_and_the_next_run_whole(
    tmp_path, runs, monkeypatch
):
    """A kept file replaced (a clash of short names, :class:`kb.site.search_parts.Writer`) before the
    stop: the kept bundle cannot stay whole, so it is not trusted; the served one is as it was."""
    site, store = tmp_path / "site", tmp_path / "store"
    _write(site, PAGES)
    _index(site, store)
    served = _files(site / "pagefind")
    _write(site, {"b/index.html": _page("Beta", "KV cache paging 向量存储 stopword", "B", "2027-01-01")})
    fragment = search_parts.Writer.fragment

    def clashing(self: search_parts.Writer, root: Path, name: str) -> str:
        self.replaced += 1  # as when a kept file of the same short name held other content
        return fragment(self, root, name)

    monkeypatch.setattr(search_parts.Writer, "fragment", clashing)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 1  # past the check after Pagefind's run: within the merge

    written = _written(site)
    stats = search_index.index_site(site, written.pages, store, written.weights, digests=written.digests, stop=stop)
    assert stats.stopped and _files(site / "pagefind") == served
    assert not search_store.complete(store / search_index._bundle_name())  # the next run is a full one
    monkeypatch.setattr(search_parts.Writer, "fragment", fragment)
    runs.clear()
    resumed = _index(site, store)
    assert not resumed.stopped and resumed.anew == written.pages and runs == [None]
    same_answers(site / "pagefind", _reference(site, tmp_path), chunks=False)
