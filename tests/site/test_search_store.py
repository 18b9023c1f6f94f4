"""The search index's store (kb.site.search.index_site with the cache): a build after one more
brief keeps the Pagefind files that did not change and writes the rest, and the bundle a reader
gets is the one a build without the cache makes: the same page fragments and word-index chunks,
byte for byte, every file its meta names and none it does not.  A store a failed run left is not
trusted."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from sitebuild import build, copy_project


def kept(log: str) -> int:
    m = re.search(r"search index of \d+ pages in [\d.]+ s \(\d+ KB, (\d+) files kept,", log)
    assert m, log
    return int(m.group(1))


def hashed(bundle: Path, part: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (bundle / part).glob("*")}


def named(bundle: Path) -> set[str]:
    """The hashed files the bundle's meta names (file stems)."""
    entry = json.loads((bundle / "pagefind-entry.json").read_text("utf-8"))
    (info,) = entry["languages"].values()
    meta = gzip.decompress((bundle / f"pagefind.{info['hash']}.pf_meta").read_bytes())
    return {m.decode() for m in re.findall(rb"zh_[0-9a-f]{7,}", meta)}


def test_a_build_after_one_more_brief_reuses_the_index_files_and_gives_the_same_bundle(tmp_path):
    project = copy_project(tmp_path / "project")
    cache = {"KB_CACHE": str(tmp_path / "cache")}
    first = build(tmp_path / "first", env_extra=cache, project=project)
    assert first.returncode == 0, first.stderr
    assert kept(first.stderr) == 0

    newest = project / "data" / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = newest.read_text("utf-8").replace("2026-09-05", "2026-09-06")
    (newest.parent / "2026-09-06-e1.yaml").write_text(text, "utf-8")
    older = tmp_path / "cache" / "search" / "0.0.1"  # an older Pagefind's bundle: removed
    (older / "fragment").mkdir(parents=True)
    warm = build(tmp_path / "warm", env_extra=cache, project=project)
    assert not older.exists()
    assert warm.returncode == 0, warm.stderr
    pages = len(list((tmp_path / "first" / "pagefind" / "fragment").glob("*")))
    assert pages // 2 < kept(warm.stderr) < pages  # most pages are unchanged, not all
    off = build(tmp_path / "off", env_extra={"KB_CACHE": "off"}, project=project)
    assert off.returncode == 0, off.stderr

    bundle, cold = tmp_path / "warm" / "pagefind", tmp_path / "off" / "pagefind"
    for part in ("fragment", "index"):
        assert hashed(bundle, part) == hashed(cold, part), part
    assert len(hashed(bundle, "filter")) == len(hashed(cold, "filter"))
    files = {p.stem for part in ("fragment", "index", "filter") for p in (bundle / part).glob("*")}
    assert files == named(bundle)  # nothing missing, nothing left over from the first build
    assert {p.name for p in bundle.iterdir() if "pf_meta" not in p.name} == {
        p.name for p in cold.iterdir() if "pf_meta" not in p.name
    }
    (store,) = [d for d in (tmp_path / "cache" / "search").iterdir() if d.is_dir()]
    in_store = {p.stem for part in ("fragment", "index", "filter") for p in (store / part).glob("*")}
    assert in_store == files  # the store keeps one bundle
    # the site links to the store's hashed files, never to a file Pagefind rewrites in place: the
    # first site's bundle is still whole after the second build rewrote the store's entry file
    fragment = next((bundle / "fragment").iterdir())
    assert fragment.samefile(store / "fragment" / fragment.name)
    assert not (bundle / "pagefind-entry.json").samefile(store / "pagefind-entry.json")
    first = tmp_path / "first" / "pagefind"
    assert {p.stem for part in ("fragment", "index", "filter") for p in (first / part).glob("*")} == named(first)

    # a file of the store whose name a new file of different content bears (a hash clash):
    # found and written again
    clash = store / "fragment" / fragment.name
    clash.unlink()  # not the site's copy: that is another link
    clash.write_bytes(gzip.compress(b'pagefind_dcd{"url":"/old/","content":"old"}'))
    fixed = build(tmp_path / "fixed", env_extra=cache, project=project)
    assert fixed.returncode == 0, fixed.stderr
    repaired = tmp_path / "fixed" / "pagefind"
    assert hashed(repaired, "fragment") == hashed(cold, "fragment")
    assert {p.stem for part in ("fragment", "index", "filter") for p in (repaired / part).glob("*")} == named(repaired)

    (store / ".complete").unlink()  # as a run that was killed leaves it
    again = build(tmp_path / "again", env_extra=cache, project=project)
    assert again.returncode == 0, again.stderr
    assert kept(again.stderr) == 0 and (store / ".complete").exists()
