"""The search index's store (kb.site.search_index.index_site with the cache): a build after one more
brief runs Pagefind over the pages it changed alone, keeps the files that did not change and
writes the rest, and the bundle a reader gets is the one a build without the cache makes: the same
page fragments byte for byte, the same words in the same chunks, every file its meta names and none
it does not.  A file of the store under the name of a new one is replaced, and a store a failed
run left is not trusted."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from bundles import same_answers
from kb.site import search_store, search_update
from sitebuild import build, copy_project


def kept(log: str) -> int:
    return report(log)[0]


def report(log: str) -> tuple[int, int]:
    """Files kept from the store, and pages Pagefind read."""
    m = re.search(r"search index of \d+ pages in [\d.]+ s \(\d+ KB, (\d+) files kept, (\d+) pages indexed anew,", log)
    assert m, log
    return int(m.group(1)), int(m.group(2))


def hashed(bundle: Path, part: str) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (bundle / part).glob("*")}


def contents(bundle: Path, part: str) -> dict[str, bytes]:
    return {p.name: gzip.decompress(p.read_bytes()) for p in (bundle / part).glob("*")}


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
    (tmp_path / "plain").mkdir()  # the bundle is made aside and renamed in: readable as mkdir makes it
    assert (tmp_path / "first" / "pagefind").stat().st_mode == (tmp_path / "plain").stat().st_mode

    newest = project / "data" / "briefs" / "inference" / "2026-09-05-e1.yaml"
    text = newest.read_text("utf-8").replace("2026-09-05", "2026-09-06")
    (newest.parent / "2026-09-06-e1.yaml").write_text(text, "utf-8")
    older = tmp_path / "cache" / "search" / "0.0.1"  # an older Pagefind's bundle: removed
    (older / "fragment").mkdir(parents=True)
    warm = build(tmp_path / "warm", env_extra=cache, project=project)
    assert not older.exists()
    assert warm.returncode == 0, warm.stderr
    pages = len(list((tmp_path / "first" / "pagefind" / "fragment").glob("*")))
    files, anew = report(warm.stderr)
    assert pages // 2 < files < pages and 0 < anew < pages // 2  # most pages are unchanged, not all
    off = build(tmp_path / "off", env_extra={"KB_CACHE": "off"}, project=project)
    assert off.returncode == 0, off.stderr

    bundle, cold = tmp_path / "warm" / "pagefind", tmp_path / "off" / "pagefind"
    assert hashed(bundle, "fragment") == hashed(cold, "fragment")  # Pagefind's own files
    assert contents(bundle, "index") == contents(cold, "index")  # recompressed: the same content
    assert len(hashed(bundle, "filter")) == len(hashed(cold, "filter"))
    same_answers(bundle, cold)
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

    # a file of the store whose name a new file of different content bears (a hash clash): found
    # and written again, by a run over the whole site (as after another Pagefind configuration)...
    clash = store / "fragment" / fragment.name
    clash.unlink()  # not the site's copy: that is another link
    clash.write_bytes(gzip.compress(b'pagefind_dcd{"url":"/old/","content":"old"}'))
    (store / search_update.FILE).unlink()
    fixed = build(tmp_path / "fixed", env_extra=cache, project=project)
    assert fixed.returncode == 0, fixed.stderr
    repaired = tmp_path / "fixed" / "pagefind"
    assert hashed(repaired, "fragment") == hashed(cold, "fragment")
    assert {p.stem for part in ("fragment", "index", "filter") for p in (repaired / part).glob("*")} == named(repaired)

    # ... and by an update: the brief's page, edited, is indexed again into a name a stale file has
    edited = newest.parent / "2026-09-06-e1.yaml"
    edited.write_text(text.replace("OpScale 的部署可行性仍待核实", "OpScale 的部署可行性已核实"), "utf-8")
    assert build(tmp_path / "off2", env_extra={"KB_CACHE": "off"}, project=project).returncode == 0
    cold = tmp_path / "off2" / "pagefind"
    url = b'"url":"/briefs/inference/2026-09-06-e1/"'
    (name,) = [n for n, data in contents(cold, "fragment").items() if url in data]
    assert not (store / "fragment" / name).exists()
    (store / "fragment" / name).write_bytes(gzip.compress(b'pagefind_dcd{"url":"/old/","content":"old"}'))
    again = build(tmp_path / "update", env_extra=cache, project=project)
    assert again.returncode == 0 and 0 < report(again.stderr)[1] < pages // 2, again.stderr
    assert hashed(tmp_path / "update" / "pagefind", "fragment") == hashed(cold, "fragment")
    same_answers(tmp_path / "update" / "pagefind", cold)

    (store / ".complete").unlink()  # as a run that was killed leaves it
    again = build(tmp_path / "again", env_extra=cache, project=project)
    assert again.returncode == 0, again.stderr
    assert kept(again.stderr) == 0 and (store / ".complete").exists()


def test_files_named_alike_go_before_pagefind_runs(tmp_path):
    """Two files whose names share the first 7 hex digits (a clash settled with a longer name):
    a run may settle it the other way, and would find a file of the same short hash under its name."""
    store = tmp_path / "store"
    (store / "fragment").mkdir(parents=True)
    for name in ("zh_abcdef0", "zh_abcdef01", "zh_1234567"):
        (store / "fragment" / f"{name}.pf_fragment").write_bytes(gzip.compress(b"pagefind_dcd{}"))
    (store / ".complete").write_text("", "utf-8")
    found: list[str] = []

    def run(dest: Path) -> None:
        found.extend(sorted(p.stem for p in (dest / "fragment").iterdir()))
        meta = gzip.compress(b"pagefind_dcd" + b"zh_1234567")
        (dest / "pagefind.zh_7654321.pf_meta").write_bytes(meta)
        (dest / "pagefind-entry.json").write_text('{"languages": {"zh": {"hash": "zh_7654321"}}}', "utf-8")

    search_store.update(store, run)
    assert found == ["zh_1234567"]
