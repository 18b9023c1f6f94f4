#!/usr/bin/env python3
"""Search bytes: what a reader downloads to search a synthetic knowledge base of N pages.

For each size, the synthetic generator (tests/kbsynth, the one scripts/bench_build.py uses) writes a
knowledge base of that many pages; the project builds it (``kb build --strict``, as CI does: the site,
then its Pagefind index) and the built site is served on 127.0.0.1.  For each query (a paper's
name, its arXiv id, Chinese words), a fresh browser context (empty cache) opens a page, enters the
query into the header search at once (as an input method commits a word: one query, not one per
letter) and waits for the first results to be shown (no scrolling); every
response under ``pagefind/`` is counted two ways: **as stored** (the files' bytes as served by
the local server, the target's measure) and **gzip-served** (what a host that gzips text, as
GitHub Pages does, sends: the ``.js`` and ``.json`` files gzip-compressed; Pagefind's index,
filter and fragment files and its wasm are compressed already and count as stored).

Reports per size: pages, index build time (the plugin's log line), the index on disk, and per
query the bytes by kind (code: pagefind.js and wasm; meta: the entry and the page list; index:
word chunks; filter; fragments: one per result shown) and the files; then median and max.  The issue's
target: <= 300 KB as stored per query at 3,000 pages (``--check`` exits 1 when a size of 3,000
or more misses it).  ``--work DIR`` keeps each size's data and site and measures them again on
the next run without rebuilding (the checkout's header search scripts are copied in).

    .venv/bin/python scripts/bench_search.py --sizes 1000,3000
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests"))
import bench_build  # noqa: E402  (same directory: counts(), mkdocs_env(), synth)

from sitebuild import CHROMIUM, CHROMIUM_ARGS, copy_project, serve_directory  # noqa: E402

TARGET_KB, TARGET_PAGES = 300, 3000
WORDS = ["推理调度", "投机", "KV Cache"]
SCRIPTS = ("kb-search-results.js", "kb-search.js")  # the header search's code, in assets/
_LOG = re.compile(r"search index of (\d+) pages in ([\d.]+) s \((\d+) KB[,)]")


def build(total: int, seed: int, work: Path) -> tuple[Path, dict, list[str]]:
    """Generate, build; return the site, the index facts and the queries (a name, an id, words).
    A site already built in ``work`` (``--work``) is measured again as it is: its browser code
    (:data:`SCRIPTS`) is replaced by the checkout's."""
    saved = work / "facts.json"
    if saved.is_file() and (work / "site" / "pagefind").is_dir():
        for script in SCRIPTS:
            shutil.copyfile(ROOT / "src" / "kb" / "theme" / "assets" / script, work / "site" / "assets" / script)
        return work / "site", json.loads(saved.read_text("utf-8")), _queries(work / "data") + WORDS
    briefs, papers = bench_build.counts(total)
    files, _ = bench_build.synth.generate(briefs, papers, seed)
    data = work / "data"
    bench_build.synth.write(files, data)
    project = copy_project(work / "project", live=True)  # the live pages; data/ is the synthetic one
    shutil.rmtree(project / "data")
    site = work / "site"
    t = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "kb", "build", "--strict", "-d", str(site)],  # as CI builds the site
        cwd=project,
        env=bench_build.mkdocs_env(data),
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"build failed:\n{run.stdout[-2000:]}{run.stderr[-4000:]}")
    m = _LOG.search(run.stderr + run.stdout)
    if m is None:  # the plugin's log line changed: say so rather than report 0 pages
        sys.exit(f"the build's log has no search index line:\n{(run.stderr + run.stdout)[-2000:]}")
    facts = {"build_s": time.perf_counter() - t, "pages": int(m.group(1)), "index_s": float(m.group(2))}
    index = site / "pagefind"
    facts["index_bytes"] = sum(p.stat().st_size for p in index.rglob("*") if p.is_file())
    queries = _queries(data) + WORDS
    saved.write_text(json.dumps(facts), "utf-8")
    return site, facts, queries


def _queries(data: Path) -> list[str]:
    """A paper's short name and arXiv id from the generated data (the middle paper)."""
    papers = sorted((data / "papers").glob("*.yaml"))
    text = papers[len(papers) // 2].read_text("utf-8")
    out = []
    for key in ("short", "arxiv"):
        m = re.search(rf"^{key}:\s*['\"]?([^'\"\n]+)", text, re.M)
        if m:
            out.append(m.group(1).strip())
    return out


KINDS = (
    ("code", (".js", ".pagefind")),
    ("meta", (".pf_meta", ".json")),
    ("index", (".pf_index",)),
    ("filter", (".pf_filter",)),
    ("fragments", (".pf_fragment",)),
)


def kind(url: str) -> str:
    path = url.split("?", 1)[0]
    return next((k for k, ends in KINDS if path.endswith(ends)), "other")


def wire(url: str, body: bytes) -> int:
    """Bytes on the wire from a host that gzips text (GitHub Pages does): the .js files shrink;
    Pagefind's index, filter and fragment files are gzip already, and so is the wasm file."""
    import gzip

    return len(gzip.compress(body, 6)) if url.split("?", 1)[0].endswith((".js", ".json")) else len(body)


def query_bytes(site: Path, queries: list[str]) -> dict[str, dict[str, int]]:
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, int]] = {}
    with serve_directory(site) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        for q in queries:
            ctx = browser.new_context()
            page = ctx.new_page()
            got: dict[str, int] = {"raw": 0, "wire": 0, "files": 0}

            def count(response, got=got) -> None:
                if "/pagefind/" in response.url:
                    try:
                        body = response.body()
                    except Exception:  # noqa: BLE001 - a response without a body (redirect)
                        return
                    got["raw"] += len(body)
                    got["files"] += 1
                    got["fragment files"] = got.get("fragment files", 0) + (kind(response.url) == "fragments")
                    got["worker"] = got.get("worker", 0) + response.url.split("?", 1)[0].endswith("-worker.js")
                    got["wire"] += wire(response.url, body)
                    got[kind(response.url)] = got.get(kind(response.url), 0) + len(body)

            page.on("response", count)
            page.goto(url + "guide/")
            page.keyboard.press("/")
            page.keyboard.insert_text(q)  # one input event, as an input method commits a word: one query
            page.wait_for_function(
                "q => document.querySelector('#kb-search-results').dataset.query === q", arg=q, timeout=60000
            )
            page.wait_for_load_state("networkidle")
            out[q] = got
            ctx.close()
        browser.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000,3000", help="total pages per site, comma-separated")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--check", action="store_true", help=f"exit 1 when a query downloads > {TARGET_KB} KB")
    p.add_argument(
        "--work",
        type=Path,
        help="keep each size's data and site in WORK/<size>/ and measure a site found there again (no rebuild)",
    )
    args = p.parse_args(argv)
    ok = True
    rows = []
    with tempfile.TemporaryDirectory(prefix="kb-bench-search-") as tmp:
        for total in (int(s) for s in args.sizes.split(",")):
            work = (args.work or Path(tmp)) / str(total)
            site, facts, queries = build(total, args.seed, work)
            per = query_bytes(site, queries)
            kb = {q: b["raw"] / 1024 for q, b in per.items()}
            med, top = statistics.median(kb.values()), max(kb.values())
            top_wire = max(b["wire"] for b in per.values()) / 1024
            print(
                f"size {total}: {facts['pages']} pages indexed in {facts['index_s']:.2f} s "
                f"(build {facts['build_s']:.1f} s); index {facts['index_bytes'] / 1024:.0f} KB on disk"
            )
            for q, b in per.items():
                names = [k for k, _ in KINDS] + (["other"] if "other" in b else [])
                parts = ", ".join(f"{k} {b.get(k, 0) / 1024:.0f}" for k in names)
                print(
                    f"  query {q!r}: {b['raw'] / 1024:.0f} KB as stored,"
                    f" {b['wire'] / 1024:.0f} KB gzip-served ({parts}; {b['files']} files:"
                    f" {b.get('fragment files', 0)} fragments, {'with' if b.get('worker') else 'no'} worker)"
                )
            rows.append((total, facts, med, top, top_wire))
            if total >= TARGET_PAGES and top > TARGET_KB:
                ok = False
            if args.work is None:
                shutil.rmtree(work, ignore_errors=True)
    print()
    print(" size  pages  index s  index KB | KB/query median  max  max gzip-served")
    for total, facts, med, top, top_wire in rows:
        print(
            f"{total:5d} {facts['pages']:6d} {facts['index_s']:8.2f} {facts['index_bytes'] / 1024:9.0f} |"
            f" {med:15.0f} {top:4.0f} {top_wire:16.0f}"
        )
    print(f"search bytes per query <= {TARGET_KB} KB at {TARGET_PAGES} pages: {'yes' if ok else 'NO'}")
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
