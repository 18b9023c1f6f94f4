"""Build cost of the site against plain MkDocs-Material, at several sizes (a report, not a test).

    python scripts/bench_build.py [--sizes 100,1000,3000] [--repeat 1] [--seed 1] [--check]
    python scripts/bench_build.py --team [--repeat 2] [--check]

For each size (total pages of the site) it writes a synthetic knowledge base
(``tests/kbsynth``, briefs : papers about 1 : 5.5 as in a year of data) to a temporary
directory and builds, each in a fresh process, interleaved.  ``--team`` measures instead
one size, a synthetic team year: the ten topics of scripts/team_project.py (3,650 briefs,
3,000 papers), built as the project of that script (a living document per topic):

project  the site from that data (this repository's mkdocs.yml with KB_DATA), built as
         CI builds it, ``kb build --strict`` (``mkdocs build`` in a process of its own,
         then Pagefind's command line once it has ended: kb.cli.build), with no cache
         (``KB_CACHE=off``: no page cache): a full build
         from a clean checkout;
plain    the same pages as a plain MkDocs-Material site (scripts/bench_plain.py),
         ``mkdocs build --strict``: same theme settings, Markdown extensions, validation and nav, no code of
         ours; generated pages written as the Markdown a team would write for them,
         Material's own search plugin (the project ships Pagefind instead);
+1 brief the project after adding one brief to a warm cache: in a copy of the data
         (a contributor's checkout) without its newest brief, built first (untimed,
         filling the cache), the brief is put back and the whole data built (timed):
         what a pull request adding a day costs with a kept cache.

CPU time is user + system time of the build process and every process it waited
for (MkDocs', Pagefind's), start-up included; wall time is shown too.  Peak memory is
the largest resident set of the whole process tree at once (sampled from /proc every
20 ms: every Python process and Pagefind resident at that moment together), output bytes per page the bytes
written outside ``assets/`` divided by the number of HTML pages.  With --repeat N
medians are shown.  Then it times ``kb validate`` on the largest data and on a
synthetic year (--year), with the bytecode cache as ``bench_validate.py`` does.

Every build writes a directory of its own, and no build's output is deleted until the
last build has run (the temporary directory then goes as a whole; a run at 10,000
pages with --repeat 3 holds gigabytes until then; TMPDIR chooses where).  A build that
starts just after thousands of files were deleted pays for the deletion: ext4 without
a journal avoids giving a new file an inode freed in the last minute (up to six while
its inode table block is not yet written back), and scans past every such inode each
time it creates a file.  Deleting the previous build's output before each build made
every build pay for the ones before it, a cost that is neither build's (a build's system
time grew several times over with the deletions in the minutes before it, see
docs/performance.md#method).  The builds themselves still delete
their own scratch files; project and plain take turns to go first.

Targets (--check exits 1 when one is missed): project/plain CPU time <= 0.5 at every
size from 1,000 pages; CPU time per page at every size from 1,000 pages within 1.2x of
that at 1,000 (linear); peak memory <= 4 GB at every size (the bound is for 10,000 pages); the +1
brief build <= 0.3x plain's CPU time; bytes per page flat (every size within +-15% of
the smallest); ``kb validate`` of the year < 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
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
sys.path.insert(0, str(ROOT / "tests"))  # tests/kbsynth: the synthetic knowledge base
try:
    import kbsynth as synth
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    import kbsynth as synth
sys.path.insert(0, str(HERE))
import bench_validate  # noqa: E402  (same directory)
from bench_plain import plain_project  # noqa: E402
from team_project import TEAM_TOPICS, TEAM_YEAR, write_project  # noqa: E402

GENERATED_PAGES = 6  # briefs/, papers/ and weeks/index.md, backlog.md, stats.md, timeline/<topic>.md (one topic)
WEEKS_PER_BRIEF = 1 / 7  # and a page per ISO week (weeks/<week>.md): the synthetic topic has a brief a day
PAPERS_PER_BRIEF = 2000 / 365  # a synthetic year
RATIO_TARGET, LINEAR_TARGET, MEMORY_MB, WARM_TARGET = 0.5, 1.2, 4096, 0.3
MEMORY_PAGES = 10_000  # the size the memory bound is for (a smaller site must stay below it too)
FLAT_BAND, YEAR_TARGET, FROM = 0.15, 2.0, 1000  # the targets hold from FROM pages up


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
    briefs = max(1, round(rest / (1 + PAPERS_PER_BRIEF + WEEKS_PER_BRIEF)))
    return briefs, max(1, rest - briefs - synth.weeks(briefs))


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and all its descendants now (KB), from /proc."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/status") as f:
                total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def timed(cmd: list[str], cwd: Path, env: dict, site: Path) -> Run:
    """Run one build (``cmd``, then ``-d site``) in a fresh process into ``site``, a directory that
    does not exist yet (see the module's notes): CPU time of it and its children, peak memory of
    the tree."""
    import threading

    if site.exists():
        raise FileExistsError(f"{site}: each build gets a new directory")
    with tempfile.TemporaryFile() as log:
        t = time.perf_counter()
        proc = subprocess.Popen([*cmd, "-d", str(site)], cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
        peak = [0]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], _tree_rss_kb(proc.pid))

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        done.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            log.seek(0)
            sys.exit(f"build failed ({' '.join(cmd)} -d {site}):\n{log.read().decode('utf-8', 'replace')[-4000:]}")
    pages = sum(1 for p in site.rglob("*.html") if p.name != "404.html")
    out = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and not p.relative_to(site).parts[0] == "assets")
    return Run(wall, usage.ru_utime + usage.ru_stime, max(peak[0], usage.ru_maxrss) / 1024, pages, out)


def mkdocs_env(data: Path | None = None, cache: Path | None = None) -> dict:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "KB_CACHE": str(cache) if cache else "off"}
    env.pop("KB_DATA", None)
    if data is not None:
        env["KB_DATA"] = str(data)
    return env


def working_copy(data: Path, dest: Path) -> tuple[Path, Path]:
    """A copy of the data directory ``data`` to add a day to, as a contributor's checkout: the copy
    and its newest brief (the day a pull request adds, removed and put back by :func:`measure`)."""
    shutil.copytree(data, dest)
    newest = max((dest / "briefs").rglob("*.yaml"), key=lambda p: p.name)
    return dest, newest


# --------------------------------------------------------------------------- report


def measure(total: int, args, tmp: Path) -> tuple[dict, dict, Path]:
    briefs, papers = TEAM_YEAR if args.team else counts(total)
    topics = TEAM_TOPICS if args.team else ("inference",)
    work = tmp / str(total)
    data = work / "data"
    files, _ = synth.generate(briefs, papers, args.seed, topics=topics)
    synth.write(files, data)
    config = write_project(data, work / "project") if args.team else ROOT / "mkdocs.yml"
    plain_project(data, work / "plain", config)
    day, newest = working_copy(data, work / "checkout")
    added = newest.read_bytes()
    cache = work / "cache"
    build = [sys.executable, "-m", "kb", "build", "--strict", "-f", str(config)]  # as CI builds the site
    plain = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    runs: dict[str, list[Run]] = {"project": [], "plain": [], "warm": []}
    cold = {"project": (build, ROOT, mkdocs_env(data)), "plain": (plain, work / "plain", mkdocs_env())}
    for i in range(args.repeat):  # interleaved, so that a busy moment hits all alike
        sites = {kind: work / f"site-{kind}-{i}" for kind in ("project", "plain", "before", "warm")}
        # project and plain take turns to go first: neither always starts just after the other
        # (the project's build deletes its index's scratch files as it ends; see the notes above)
        for kind in ("project", "plain") if i % 2 == 0 else ("plain", "project"):
            runs[kind].append(timed(*cold[kind], sites[kind]))
        newest.unlink()  # the day before: fills the cache
        timed(build, ROOT, mkdocs_env(day, cache), sites["before"])
        newest.write_bytes(added)  # the pull request's brief, in the same checkout
        runs["warm"].append(timed(build, ROOT, mkdocs_env(day, cache), sites["warm"]))
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
    return result, runs, data


def validate_time(data: Path, repeat: int, cwd: Path) -> tuple[float, bool]:
    cmd = bench_validate.validate_command(data.resolve(), None)
    env = bench_validate.cached_env()
    subprocess.run(cmd, cwd=cwd, capture_output=True, env=env)  # writes the bytecode cache
    walls, ok = [], True
    for _ in range(repeat):
        t = time.perf_counter()
        run = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
        walls.append(time.perf_counter() - t)
        ok = ok and run.returncode == 0
    return statistics.median(walls), ok


def table(results: dict[int, dict]) -> list[str]:
    head = (
        f"{'size':>5} {'pages':>6} | {'project cpu':>11} {'ms/page':>7} {'wall':>6} {'peak MB':>7} {'B/page':>7} | "
        f"{'plain cpu':>9} {'ms/page':>7} {'wall':>6} {'peak MB':>7} {'B/page':>7} | "
        f"{'cpu x':>5} {'wall x':>6} {'mem x':>5} {'bytes x':>7} | {'+1 brief cpu':>12} {'x plain':>7}"
    )
    lines = [head, "-" * len(head)]
    for size, r in results.items():
        p, q, w = r["project"], r["plain"], r["warm"]
        lines.append(
            f"{size:>5} {p['pages']:>6} | {p['cpu']:>11.2f} {1000 * p['cpu'] / p['pages']:>7.1f} {p['time']:>6.1f} "
            f"{p['peak']:>7.0f} {p['bytes']:>7.0f} | {q['cpu']:>9.2f} {1000 * q['cpu'] / q['pages']:>7.1f} "
            f"{q['time']:>6.1f} {q['peak']:>7.0f} {q['bytes']:>7.0f} | {p['cpu'] / q['cpu']:>5.2f} "
            f"{p['time'] / q['time']:>6.2f} {p['peak'] / q['peak']:>5.2f} {p['bytes'] / q['bytes']:>7.2f} | "
            f"{w['cpu']:>12.2f} {w['cpu'] / q['cpu']:>7.2f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="100,1000,3000", help="total pages per site, comma-separated")
    p.add_argument("--repeat", type=int, default=1, help="builds per size and kind (median time)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--year", default="365,2000", help="briefs,papers of the synthetic year for kb validate")
    p.add_argument(
        "--team",
        action="store_true",
        help=f"one size instead of --sizes: a team year ({len(TEAM_TOPICS)} topics, {TEAM_YEAR[0]:,} briefs, "
        f"{TEAM_YEAR[1]:,} papers)",
    )
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    sizes = [sum(TEAM_YEAR)] if args.team else sorted(int(s) for s in args.sizes.split(",") if s.strip())
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
        + ("segmented with jieba" if segmented else "not segmented: jieba, of the test extra, is not installed")
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

    held = {size: r for size, r in results.items() if size >= FROM} or {sizes[-1]: last}
    ratio = {size: r["project"]["cpu"] / r["plain"]["cpu"] for size, r in results.items()}
    print("info project/plain CPU time at every size: " + ", ".join(f"{k}: {v:.2f}" for k, v in ratio.items()))
    check(
        all(ratio[size] <= RATIO_TARGET for size in held),
        f"project/plain CPU time <= {RATIO_TARGET} from {FROM} pages: "
        + ", ".join(f"{size}: {ratio[size]:.2f}" for size in held),
    )
    per_page = {size: r["project"]["cpu"] / r["project"]["pages"] for size, r in held.items()}
    base = per_page[min(per_page)]
    check(
        all(v <= LINEAR_TARGET * base for v in per_page.values()),
        f"CPU time per page within {LINEAR_TARGET} x of {min(per_page)} pages' (linear): "
        + ", ".join(f"{size}: {1000 * v:.1f} ms" for size, v in per_page.items()),
    )
    if len(sizes) > 1:
        marginal = [
            (results[b]["project"]["cpu"] - results[a]["project"]["cpu"])
            / (results[b]["project"]["pages"] - results[a]["project"]["pages"])
            for a, b in pairwise(sizes)
        ]
        print(
            "     marginal CPU time per added page (project): "
            + ", ".join(f"{a}->{b}: {1000 * m:.1f} ms" for (a, b), m in zip(pairwise(sizes), marginal, strict=True))
        )
    print(
        "info project/plain peak memory: "
        + ", ".join(f"{size}: {r['project']['peak'] / r['plain']['peak']:.2f}" for size, r in held.items())
    )
    check(
        all(r["project"]["peak"] <= MEMORY_MB for r in results.values()),
        f"peak memory <= {MEMORY_MB} MB (the bound at {MEMORY_PAGES:,} pages): "
        + ", ".join(f"{size}: {r['project']['peak']:.0f} MB" for size, r in results.items()),
    )
    warm = {size: r["warm"]["cpu"] / r["plain"]["cpu"] for size, r in held.items()}
    check(
        all(v <= WARM_TARGET for v in warm.values()),
        f"one brief added to a warm cache <= {WARM_TARGET} x plain's CPU time: "
        + ", ".join(f"{size}: {v:.2f}" for size, v in warm.items()),
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
