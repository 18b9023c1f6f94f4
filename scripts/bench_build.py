"""Build cost of the site against plain MkDocs-Material, at several sizes (a report, not a test).

    python scripts/bench_build.py [--sizes 100,1000,3000] [--repeat 1] [--seed 1] [--check]

For each size (total pages of the site) it writes a synthetic knowledge base
(``kb.synth``, briefs : papers about 1 : 5.5 as in a year of data) to a temporary
directory and builds, each in a fresh ``mkdocs build --strict`` process:

project  the site from that data (this repository's mkdocs.yml with KB_DATA);
plain    a MkDocs project with the same theme settings, Markdown extensions,
         validation and nav (indexes in the nav, not every page), but no hooks,
         plugins of ours or theme overrides, over the same pages as static Markdown:
         the Markdown each page of the project had after its macros ran, and the
         project's generated non-page files (feeds, references.bib) as static files.
         Its search is Material's own ``search`` plugin with its defaults (what a
         plain Material site has: a lunr index, Chinese segmented with jieba when
         jieba is installed), as the project's search is its Pagefind index built
         after the build: each side pays for the search index it ships.

Time is the wall time of the build process (start-up included), peak memory its
maximum resident set size (``os.wait4``), output bytes per page the bytes written
outside ``assets/`` (the theme's and our static assets, the same at every size)
divided by the number of HTML pages.  With --repeat N the median time is shown.
Then it times ``kb validate`` on the largest data and on a synthetic year (--year).

Targets (--check exits 1 when one is missed): project/plain time <= 1.3 at every
size; time per page at the largest size <= 1.3 x the smallest; bytes per page flat
(every size within +-15% of the smallest); ``kb validate`` of the year < 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
try:
    from kb import synth
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    from kb import synth
sys.path.insert(0, str(HERE))
import bench_validate  # noqa: E402  (same directory)

GENERATED_PAGES = 4  # briefs/index.md, papers/index.md, backlog.md, stats.md
PAPERS_PER_BRIEF = 2000 / 365  # a synthetic year
RATIO_TARGET, SLOPE_TARGET, FLAT_BAND, YEAR_TARGET = 1.3, 1.3, 0.15, 2.0


@dataclass
class Run:
    wall: float
    cpu: float
    peak_mb: float
    pages: int
    out_bytes: int


def counts(total: int) -> tuple[int, int]:
    """Briefs and papers that make ``total`` pages with the hand-written pages of docs/."""
    hand = sum(1 for _ in (ROOT / "docs").rglob("*.md"))
    rest = max(2, total - hand - GENERATED_PAGES)
    briefs = max(1, round(rest / (1 + PAPERS_PER_BRIEF)))
    return briefs, rest - briefs


def timed(cmd: list[str], cwd: Path, env: dict, site: Path) -> Run:
    """Run one build in a fresh process; its own peak RSS comes from wait4."""
    shutil.rmtree(site, ignore_errors=True)
    with tempfile.TemporaryFile() as log:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            log.seek(0)
            sys.exit(f"build failed ({' '.join(cmd)}):\n{log.read().decode('utf-8', 'replace')[-4000:]}")
    pages = sum(1 for p in site.rglob("*.html") if p.name != "404.html")
    out = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and not p.relative_to(site).parts[0] == "assets")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, pages, out)


def mkdocs_env(data: Path | None = None) -> dict:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    env.pop("KB_DATA", None)
    if data is not None:
        env["KB_DATA"] = str(data)
    return env


# --------------------------------------------------------------------------- the plain reference


def plain_project(data: Path, out: Path) -> None:
    """Write the plain reference project to ``out`` (mkdocs.yml + docs/) from the project's pages."""
    run = subprocess.run(
        [sys.executable, __file__, "--dump-markdown", str(data), str(out / "docs")],
        cwd=ROOT,
        env=mkdocs_env(data),
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"dumping the project's Markdown failed:\n{run.stdout[-2000:]}{run.stderr[-4000:]}")
    import yaml

    cfg = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    for key in ("hooks",):
        cfg.pop(key, None)
    cfg["theme"].pop("custom_dir", None)
    ours = ("macros", "kb")
    plugins = [p for p in cfg["plugins"] if not (isinstance(p, dict) and set(p) & set(ours)) and p not in ours]
    # The project searches with Pagefind (the kb plugin); a plain Material site has Material's search.
    cfg["plugins"] = ["search", *(p for p in plugins if p != "search" and not (isinstance(p, dict) and "search" in p))]
    cfg["extra"] = {k: v for k, v in (cfg.get("extra") or {}).items() if not k.startswith("kb_")}
    cfg["docs_dir"] = "docs"
    (out / "mkdocs.yml").write_text(yaml.safe_dump(cfg, allow_unicode=True, sort_keys=False), "utf-8")


def dump_markdown(data: Path, dest: Path) -> None:
    """In process: run the project's build up to each page's Markdown (after macros) and write
    it, with the title from its front matter, plus every non-page file, as static files."""
    from mkdocs.commands import build as mk_build
    from mkdocs.config import load_config
    from mkdocs.plugins import BasePlugin, event_priority
    from mkdocs.structure.pages import Page

    class Dump(BasePlugin):
        @event_priority(-1000)
        def on_files(self, files, config, **kw):
            docs = Path(config.docs_dir).resolve()
            for f in files:
                if f.is_documentation_page():
                    continue  # written by on_page_markdown
                if f.generated_by is None and (
                    not f.abs_src_path or docs not in Path(f.abs_src_path).resolve().parents
                ):
                    continue  # the theme's own files: the plain build has them too
                target = dest / f.src_uri
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(f.content_bytes)
            return files

        @event_priority(-1000)
        def on_page_markdown(self, markdown, page, config, files, **kw):
            meta = {k: page.meta[k] for k in ("title", "description") if k in page.meta}
            head = "".join(f"{k}: {json.dumps(str(v), ensure_ascii=False)}\n" for k, v in meta.items())
            target = dest / page.file.src_uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text((f"---\n{head}---\n\n" if head else "") + markdown, "utf-8")
            return markdown

    def no_render(self, config, files):  # the HTML is not needed: skip Markdown and templates
        self.content = ""

    Page.render = no_render
    mk_build._build_page = lambda *a, **kw: None
    import kb.site.plugin
    from kb.site.search import IndexStats

    kb.site.plugin.index_site = lambda *a, **kw: IndexStats()  # no HTML is written: nothing to index
    with tempfile.TemporaryDirectory(prefix="kb-dump-") as site:
        cfg = load_config(str(ROOT / "mkdocs.yml"), site_dir=site)
        cfg.plugins["bench-dump"] = Dump()
        cfg.plugins.on_startup(command="build", dirty=False)
        mk_build.build(cfg)


# --------------------------------------------------------------------------- report


def measure(total: int, args, tmp: Path) -> tuple[dict, dict, Path]:
    briefs, papers = counts(total)
    work = tmp / str(total)
    data = work / "data"
    files, _ = synth.generate(briefs, papers, args.seed)
    synth.write(files, data)
    plain_project(data, work / "plain")
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "-d"]
    runs: dict[str, list[Run]] = {"project": [], "plain": []}
    for _ in range(args.repeat):  # interleaved, so that a busy moment hits both alike
        runs["project"].append(
            timed([*build, str(work / "site-project")], ROOT, mkdocs_env(data), work / "site-project")
        )
        runs["plain"].append(
            timed([*build, str(work / "site-plain")], work / "plain", mkdocs_env(), work / "site-plain")
        )
    result = {}
    for name, rs in runs.items():
        result[name] = {
            "time": statistics.median(r.wall for r in rs),
            "cpu": statistics.median(r.cpu for r in rs),
            "peak": max(r.peak_mb for r in rs),
            "pages": rs[0].pages,
            "bytes": rs[0].out_bytes / rs[0].pages,
        }
    result["briefs"], result["papers"] = briefs, papers
    shutil.rmtree(work / "site-project", ignore_errors=True)
    shutil.rmtree(work / "site-plain", ignore_errors=True)
    return result, runs, data


def validate_time(data: Path, repeat: int, cwd: Path) -> tuple[float, bool]:
    cmd = bench_validate.validate_command(data.resolve(), None)
    walls, ok = [], True
    for _ in range(repeat):
        t = time.perf_counter()
        run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t)
        ok = ok and run.returncode == 0
    return statistics.median(walls), ok


def table(results: dict[int, dict]) -> list[str]:
    head = (
        f"{'size':>5} {'pages':>6} | {'project s':>9} {'ms/page':>7} {'peak MB':>7} {'B/page':>7} | "
        f"{'plain s':>7} {'ms/page':>7} {'peak MB':>7} {'B/page':>7} | {'time x':>6} {'mem x':>5} {'bytes x':>7}"
    )
    lines = [head, "-" * len(head)]
    for size, r in results.items():
        p, q = r["project"], r["plain"]
        lines.append(
            f"{size:>5} {p['pages']:>6} | {p['time']:>9.2f} {1000 * p['time'] / p['pages']:>7.1f} {p['peak']:>7.0f} "
            f"{p['bytes']:>7.0f} | {q['time']:>7.2f} {1000 * q['time'] / q['pages']:>7.1f} {q['peak']:>7.0f} "
            f"{q['bytes']:>7.0f} | {p['time'] / q['time']:>6.2f} {p['peak'] / q['peak']:>5.2f} "
            f"{p['bytes'] / q['bytes']:>7.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--dump-markdown"]:
        dump_markdown(Path(argv[1]), Path(argv[2]))
        return 0
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000,3000", help="total pages per site, comma-separated")
    p.add_argument("--repeat", type=int, default=1, help="builds per size and kind (median time)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--year", default="365,2000", help="briefs,papers of the synthetic year for kb validate")
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    sizes = sorted(int(s) for s in args.sizes.split(",") if s.strip())
    year_briefs, year_papers = (int(x) for x in args.year.split(","))

    results: dict[int, dict] = {}
    with tempfile.TemporaryDirectory(prefix="kb-bench-build-") as tmp_name:
        tmp = Path(tmp_name)
        for size in sizes:
            results[size], _, data = measure(size, args, tmp)
            r = results[size]
            print(
                f"size {size}: {r['briefs']} briefs + {r['papers']} papers -> {r['project']['pages']} pages; "
                f"project {r['project']['time']:.2f} s (cpu {r['project']['cpu']:.2f} s), "
                f"plain {r['plain']['time']:.2f} s (cpu {r['plain']['cpu']:.2f} s)",
                flush=True,
            )
        largest_validate, ok_largest = validate_time(data, max(args.repeat, 3), tmp)
        files, _ = synth.generate(year_briefs, year_papers, args.seed)
        synth.write(files, tmp / "year")
        year_validate, ok_year = validate_time(tmp / "year", 3, tmp)

    segmented = importlib.util.find_spec("jieba") is not None
    print(
        "info plain: Material's search plugin (defaults; Chinese "
        + ("segmented with jieba" if segmented else "not segmented: jieba is not installed")
        + "); project: Pagefind index after the build"
    )
    print()
    for line in table(results):
        print(line)
    print()
    first, last = results[sizes[0]], results[sizes[-1]]
    failed = []

    def check(ok: bool, text: str) -> None:
        print(f"{'ok  ' if ok else 'MISS'} {text}")
        if not ok:
            failed.append(text)

    ratios = [r["project"]["time"] / r["plain"]["time"] for r in results.values()]
    check(
        all(x <= RATIO_TARGET for x in ratios),
        f"project/plain time <= {RATIO_TARGET} at every size: " + ", ".join(f"{x:.2f}" for x in ratios),
    )
    per_page = lambda r: r["project"]["time"] / r["project"]["pages"]  # noqa: E731
    slope = per_page(last) / per_page(first)
    check(
        slope <= SLOPE_TARGET,
        f"time/page at {sizes[-1]} <= {SLOPE_TARGET} x at {sizes[0]}: "
        f"{1000 * per_page(last):.1f} vs {1000 * per_page(first):.1f} ms ({slope:.2f} x)",
    )
    if len(sizes) > 1:
        marginal = [
            (results[b]["project"]["time"] - results[a]["project"]["time"])
            / (results[b]["project"]["pages"] - results[a]["project"]["pages"])
            for a, b in pairwise(sizes)
        ]
        print(
            "     marginal cost per added page (project): "
            + ", ".join(f"{a}->{b}: {1000 * m:.1f} ms" for (a, b), m in zip(pairwise(sizes), marginal, strict=True))
        )
    spread = [r["project"]["bytes"] / first["project"]["bytes"] - 1 for r in results.values()]
    check(
        all(abs(x) <= FLAT_BAND for x in spread),
        f"output bytes/page flat (within +-{FLAT_BAND:.0%} of size "
        f"{sizes[0]}): " + ", ".join(f"{x:+.0%}" for x in spread),
    )
    print(
        f"info kb validate at size {sizes[-1]} ({last['briefs']} briefs / {last['papers']} papers): "
        f"{largest_validate:.2f} s median" + ("" if ok_largest else " (did not validate)")
    )
    check(
        ok_year and year_validate < YEAR_TARGET,
        f"kb validate of a synthetic year ({year_briefs} briefs / "
        f"{year_papers} papers) < {YEAR_TARGET:.1f} s: {year_validate:.2f} s median of 3",
    )
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load_avg > (os.cpu_count() or 1) / 2:
        print(f"note: load average {load_avg:.1f} on {os.cpu_count()} cores: wall times include waiting for the CPU")
    return 1 if args.check and (failed or not ok_largest) else 0


if __name__ == "__main__":
    sys.exit(main())
