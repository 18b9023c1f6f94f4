"""The render cache's parts (kb.site.pages.rendercache): keys that follow what a page is made from, entries
kept and read back, and finished pages whose links lost their target made again
(kb.site.pages.layout.check_finished)."""

from __future__ import annotations

from pathlib import Path

from kb.data.recordstore import RecordStore
from kb.knowledge.index import brief_page, paper_page
from kb.knowledge.load import load_kb
from kb.site.pages import claim, inputs
from kb.site.pages.layout import Options, Site, check_finished
from kb.site.pages.rendercache import Finished, RenderCache, encode, page_keys, stale
from sitebuild import FIXTURE_DATA


def done(targets: set[str], content: str = "<h1 id='x'>x</h1>") -> Finished:
    return Finished(content, [], frozenset({"x"}), {}, frozenset(targets), "x", None)


def test_encode_stands_records_as_tokens_and_spells_the_rest():
    record, other = object(), object()
    tokens = {id(record): "T1"}
    assert encode((record, [1, "a"], None), tokens) == "(T1,(1,'a'),None)"
    assert encode((other,), tokens) != encode((object(),), tokens)  # no token: its repr (its own)
    assert encode(("a,b",), {}) != encode(("a", "b"), {})


def test_keys_follow_the_records_and_the_salt():
    kb = load_kb(FIXTURE_DATA)
    tokens = {id(p): f"paper {pid}" for pid, p in kb.papers.items()}
    tokens.update({id(b): f"brief {key}" for key, b in kb.briefs.items()})
    made = inputs(kb, kept_only=True)
    keys = page_keys(made, "salt", tokens)
    assert set(keys) == {brief_page(k) for k in kb.briefs} | {paper_page(p) for p in kb.papers}
    assert page_keys(made, "salt", tokens) == keys
    salted = page_keys(made, "other salt", tokens)
    assert all(salted[p] != keys[p] for p in keys)
    pid = next(iter(kb.papers))
    changed = page_keys(made, "salt", {**tokens, id(kb.papers[pid]): "edited"})
    differ = {p for p in keys if changed[p] != keys[p]}
    assert paper_page(pid) in differ and len(differ) < len(keys)  # the paper and the briefs naming it
    entry = made[paper_page(pid)][-1]  # the paper page's BibTeX entry (the last of its inputs)
    assert entry is None or (isinstance(entry, str) and entry.startswith("@"))  # None: incomplete metadata
    rebib = page_keys({**made, paper_page(pid): (*made[paper_page(pid)][:-1], "@article{other}")}, "salt", tokens)
    assert {p for p in keys if rebib[p] != keys[p]} == {paper_page(pid)}


def test_entries_are_kept_read_back_and_pruned(tmp_path: Path):
    kb = load_kb(FIXTURE_DATA)
    cache = RenderCache(tmp_path / "finished", "salt")
    cache.start(inputs(kb, kept_only=True), {}, "options", kb)
    page = paper_page(next(iter(kb.papers)))
    assert cache.get(page) is None
    cache.put(page, done({"inference.md"}))
    assert cache.finish() == (0, 1, 0)
    again = RenderCache(tmp_path / "finished", "salt")
    again.start(inputs(kb, kept_only=True), {}, "options", kb)
    assert again.get(page) == done({"inference.md"})
    assert again.get("papers/unknown.md") is None
    assert again.finish() == (1, 0, 0)
    entry = next((tmp_path / "finished").rglob("*.json"))
    entry.write_bytes(b"not json")
    broken = RenderCache(tmp_path / "finished", "salt")
    broken.start(inputs(kb, kept_only=True), {}, "options", kb)
    assert broken.get(page) is None  # made again, no error
    other = RenderCache(tmp_path / "finished", "salt")
    other.start(inputs(kb, kept_only=True), {}, "other options", kb)
    assert other.get(page) is None and other.finish() == (0, 1, 1)  # another build's entry is removed


def test_a_finished_page_linking_to_a_missing_page_is_made_again(tmp_path: Path):
    assert not stale(done({"a.md"}), {"a.md", "b.md"}) and stale(done({"a.md", "c.md"}), {"a.md"})
    kb = load_kb(FIXTURE_DATA, records=RecordStore(tmp_path / "records"))
    site = Site(kb, Options(data_dir=FIXTURE_DATA))
    site.types = claim(kb)
    key, pid = next(iter(kb.briefs)), next(iter(kb.papers))
    kept, gone_brief, gone_paper = paper_page(list(kb.papers)[1]), brief_page(key), paper_page(pid)
    for page, targets in ((kept, {"inference.md"}), (gone_brief, {"gone.md"}), (gone_paper, {"gone.md"})):
        site.finished[page] = done(targets, "cached")
        site.generated[page] = "cached"
        site.template_pages.discard(page)
    check_finished(site, {"inference.md"})
    assert set(site.finished) == {kept} and site.generated[kept] == "cached"
    assert site.generated[gone_brief].endswith(f'{{{{ brief("{key}") }}}}\n') and gone_brief in site.template_pages
    assert site.generated[gone_paper] != "cached" and kb.papers[pid].short in site.generated[gone_paper]
