"""The page cache's bookkeeping (kb.site.cache.PageCache): a page it did not find is stored once it
is finished, a page it found is final (the search marks are on it), and a page is found only when
every part of its key is the same, the search facts included."""

from __future__ import annotations

from kb.site.cache import PageCache, page_parts
from kb.site.search import Facts


def parts(content: str = "<article>x</article>", facts: object = None) -> list[str]:
    return page_parts("briefs/a.md", "briefs/a/", "A", {"title": "A"}, content, "[]", [None, None], facts)


def test_a_page_not_found_is_stored_when_it_is_finished_and_found_by_the_next_build(tmp_path):
    first = PageCache(tmp_path, "salt")
    assert first.look("briefs/a.md", parts()) is None
    assert not first.from_cache("briefs/a.md")
    first.keep("briefs/a.md", "<html>marked</html>")
    assert first.finish() == (0, 1, 0)

    second = PageCache(tmp_path, "salt")
    assert second.look("briefs/a.md", parts()) == "<html>marked</html>"
    assert second.from_cache("briefs/a.md")
    second.keep("briefs/a.md", "<html>other</html>")  # a found page is not stored again
    assert PageCache(tmp_path, "salt").look("briefs/a.md", parts()) == "<html>marked</html>"


def test_every_part_of_the_key_counts(tmp_path):
    cache = PageCache(tmp_path, "salt")
    brief = Facts("brief", ("推理",), "2026-09-05")
    cache.look("briefs/a.md", parts(facts=brief))
    cache.keep("briefs/a.md", "<html>kept</html>")
    again = PageCache(tmp_path, "salt")
    assert again.look("briefs/a.md", parts(facts=brief)) == "<html>kept</html>"
    assert again.look("briefs/a.md", parts(facts=Facts("brief", ("推理", "训练"), "2026-09-05"))) is None
    assert again.look("briefs/a.md", parts(content="<article>y</article>", facts=brief)) is None
    assert PageCache(tmp_path, "other salt").look("briefs/a.md", parts(facts=brief)) is None


def test_entries_no_build_used_are_pruned(tmp_path):
    cache = PageCache(tmp_path, "salt")
    for name in ("a", "b"):
        cache.look(name, parts(content=name))
        cache.keep(name, name)
    later = PageCache(tmp_path, "salt")
    assert later.look("a", parts(content="a")) == "a"
    assert later.finish() == (1, 0, 1)
    assert len(list(tmp_path.glob("*/*.html"))) == 1
