"""Published size of the site with monthly editions over the years, and the time of one deployment
(a report, not a test).

    python scripts/bench_editions.py [--years 1,2] [--horizon 5] [--seed 1] [--keep DIR] [--team] [--check]

For each measured size (in simulated years of daily briefs: 365 briefs and 2,000
papers a year, as tests/kbsynth's year; with ``--team`` a team year: the ten topics of
scripts/team_project.py, 3,650 briefs and 3,000 papers a year, built as that script's
project) it writes a synthetic knowledge base, builds
the site (a fresh ``kb build --strict``, as the publish workflow does, timed) and freezes it into an
edition with kb.editions, then measures in bytes: the whole site (the current
site, latest/), its search index (Pagefind's pagefind/, which only latest/ keeps),
one edition, and the index pages (briefs/, papers/, backlog/, stats/)
an edition leaves to latest/.

Then it models the gh-pages tree month by month up to --horizon years.  Sizes
are linear in the years of data (records and index rows grow linearly), so the
site S(y) and one edition E(y) are fitted as a + b*y through the measured
points (least squares; exact with two points) and

    published(Y) = S(Y) + sum over months m <= 12Y of E(m/12)

for the layout here, against mike's layout, a whole site per month:
sum over m of S(m/12).  With a single measured size the line goes through 0.

Last it times one deployment for real at the largest measured size: the site is
published into a throw-away git repository with scripts/publish_edition.py as
one month and then as the next (extract the branch, lay out, git add and commit;
the push and GitHub's own Pages deployment are not included), and the tree is
written as a tar archive (what GitHub's Pages deployment uploads) to time that.

Targets (--check exits 1 when one is missed): published size at the horizon
< 1 GB (1e9 bytes; GitHub Pages refuses a larger site); the deployment step < 60 s
(GitHub Pages times a deployment out after 10 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/kbsynth: the synthetic knowledge base
sys.path.insert(0, str(HERE))
from team_project import TEAM_TOPICS, TEAM_YEAR, write_project  # noqa: E402  (same directory)

try:
    import kbsynth as synth
    from kb.editions.freeze import freeze, site_pages
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    import kbsynth as synth
    from kb.editions.freeze import freeze, site_pages

BRIEFS_PER_YEAR, PAPERS_PER_YEAR = 365, 2000
LIMIT = 1_000_000_000  # GitHub Pages: a published site may be at most 1 GB
DEPLOY_TARGET = 60.0
INDEX_PAGES = ("briefs/index.html", "papers/index.html", "backlog/index.html", "stats/index.html")


@dataclass
class Point:
    years: float
    briefs: int
    papers: int
    pages: int
    build_s: float
    site: int
    search: int
    edition: int
    indexes: int


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def build(data: Path, dest: Path, config: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "KB_DATA": str(data), "KB_CACHE": "off"}  # a fresh build
    t = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "kb", "build", "--strict", "-f", str(config), "-d", str(dest)],  # as published
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        sys.exit(f"build failed:\n{run.stdout[-2000:]}{run.stderr[-4000:]}")
    return time.perf_counter() - t


def measure(years: float, seed: int, tmp: Path, team: bool = False) -> tuple[Point, Path]:
    per_year = TEAM_YEAR if team else (BRIEFS_PER_YEAR, PAPERS_PER_YEAR)
    briefs, papers = max(2, round(per_year[0] * years)), max(4, round(per_year[1] * years))
    data, site, edition = tmp / f"data-{years}", tmp / f"site-{years}", tmp / f"edition-{years}"
    files, _ = synth.generate(briefs, papers, seed, topics=TEAM_TOPICS if team else ("inference",))
    synth.write(files, data)
    config = write_project(data, tmp / f"project-{years}") if team else ROOT / "mkdocs.yml"
    seconds = build(data, site, config)
    frozen = freeze(site, edition, "2031-01")
    search = site / "pagefind"
    point = Point(
        years,
        briefs,
        papers,
        len(site_pages(site)),
        seconds,
        tree_bytes(site),
        tree_bytes(search) if search.is_dir() else 0,
        frozen.bytes,
        sum((site / p).stat().st_size for p in INDEX_PAGES if (site / p).is_file()),
    )
    shutil.rmtree(data)
    shutil.rmtree(edition)
    return point, site


def fit(points: list[Point], value) -> tuple[float, float]:
    """a + b*years through the points (least squares); one point: through the origin."""
    xs, ys = [p.years for p in points], [float(value(p)) for p in points]
    if len(set(xs)) < 2:
        return 0.0, ys[0] / xs[0]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    return my - b * mx, b


def model(points: list[Point], horizon: int) -> list[dict]:
    site, edition = fit(points, lambda p: p.site), fit(points, lambda p: p.edition)
    search, indexes = fit(points, lambda p: p.search), fit(points, lambda p: p.indexes)
    at = lambda line, y: max(0.0, line[0] + line[1] * y)  # noqa: E731
    rows = []
    for year in range(1, horizon + 1):
        months = [m / 12 for m in range(1, 12 * year + 1)]
        editions = sum(at(edition, y) for y in months)
        current = at(site, year)
        rows.append(
            {
                "year": year,
                "current": current,
                "editions": editions,
                "published": current + editions,
                "no_search": current - at(search, year) + editions,
                "with_indexes": current + editions + sum(at(indexes, y) for y in months),
                "mike": sum(at(site, y) for y in months),
            }
        )
    return rows


def deploy_time(site: Path, tmp: Path) -> dict:
    """Publish ``site`` twice (two consecutive months) into a throw-away repository; time the second."""
    repo = tmp / "pages"
    repo.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@example.invalid",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, env=env, check=True)
    tool = [sys.executable, str(HERE / "publish_edition.py"), "deploy", "--site", str(site)]
    times = []
    for edition in ("2030-12", "2031-01"):
        t = time.perf_counter()
        subprocess.run([*tool, "--edition", edition], cwd=repo, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    out = tmp / "tree"
    out.mkdir()
    archive = subprocess.Popen(["git", "archive", "--format=tar", "gh-pages"], cwd=repo, stdout=subprocess.PIPE)
    with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
        tar.extractall(out, filter="data")
    archive.wait()
    t = time.perf_counter()
    with tarfile.open(tmp / "pages.tar", "w") as tar:
        tar.add(out, arcname=".")
    tar_s = time.perf_counter() - t
    files = sum(1 for p in out.rglob("*") if p.is_file())
    result = {
        "first": times[0],
        "second": times[1],
        "tar": tar_s,
        "tar_bytes": (tmp / "pages.tar").stat().st_size,
        "files": files,
    }
    shutil.rmtree(out)
    (tmp / "pages.tar").unlink()
    shutil.rmtree(repo)
    return result


def mb(n: float) -> str:
    return f"{n / 1e6:,.1f}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--years", default="1,2", help="measured sizes in simulated years, comma-separated (fractions allowed)"
    )
    p.add_argument("--horizon", type=int, default=5, help="years to model (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--keep", type=Path, help="keep the largest built site here (to look at it)")
    p.add_argument(
        "--team", action="store_true", help=f"years of a team ({len(TEAM_TOPICS)} topics, scripts/team_project.py)"
    )
    p.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = p.parse_args(argv)
    sizes = sorted({float(x) for x in args.years.split(",") if x.strip()})
    if not sizes or min(sizes) <= 0:
        p.error("--years needs positive sizes")

    points: list[Point] = []
    with tempfile.TemporaryDirectory(prefix="bench-editions-") as tmp_name:
        tmp = Path(tmp_name)
        largest: Path | None = None
        for years in sizes:
            point, site = measure(years, args.seed, tmp, args.team)
            points.append(point)
            print(
                f"measured {years:g} year(s): {point.briefs} briefs + {point.papers} papers -> {point.pages} pages, "
                f"built in {point.build_s:.1f} s; site {mb(point.site)} MB (search index {mb(point.search)} MB), "
                f"one edition {mb(point.edition)} MB, index pages {mb(point.indexes)} MB",
                flush=True,
            )
            if largest is not None:
                shutil.rmtree(largest)
            largest = site
        assert largest is not None
        deploy = deploy_time(largest, tmp)
        if args.keep:
            shutil.rmtree(args.keep, ignore_errors=True)
            shutil.copytree(largest, args.keep)

    print()
    print(" years  briefs  papers  pages | build s | site MB  search MB  edition MB  index pages MB | bytes/page")
    for pt in points:
        print(
            f"{pt.years:6g} {pt.briefs:7d} {pt.papers:7d} {pt.pages:6d} | {pt.build_s:7.1f} | {mb(pt.site):>7} "
            f"{mb(pt.search):>10} {mb(pt.edition):>11} {mb(pt.indexes):>15} | {pt.site / pt.pages:10.0f}"
        )
    rows = model(points, args.horizon)
    print()
    print("modelled gh-pages tree at the end of each year (MB; editions: one a month):")
    print(
        " year | latest/  editions  published  share of 1 GB | published w/o search | editions with indexes "
        "| mike (whole copies)  mike/published"
    )
    for r in rows:
        print(
            f"{r['year']:5d} | {mb(r['current']):>7} {mb(r['editions']):>9} {mb(r['published']):>10} "
            f"{r['published'] / LIMIT:13.0%} | {mb(r['no_search']):>20} | {mb(r['with_indexes']):>21} | "
            f"{mb(r['mike']):>19} {r['mike'] / r['published']:15.2f}"
        )
    far = model(points, 30)
    crossing = {
        key: next((r["year"] for r in far if r[key] >= LIMIT), None) for key in ("published", "no_search", "mike")
    }
    print(
        "first year whose end passes 1 GB (same model, beyond the horizon): "
        + ", ".join(f"{key} {'after 30' if year is None else year}" for key, year in crossing.items())
    )
    print()
    big = points[-1]
    print(
        f"deployment at {big.years:g} year(s) ({deploy['files']} files, {mb(deploy['tar_bytes'])} MB tree): "
        f"first {deploy['first']:.1f} s, next month {deploy['second']:.1f} s (extract, lay out, git add + commit; "
        f"no push); tar of the tree {deploy['tar']:.1f} s"
    )
    horizon = rows[-1]
    ok_size = horizon["published"] < LIMIT
    ok_time = deploy["second"] < DEPLOY_TARGET
    print(
        f"published size after {args.horizon} years < 1 GB: {mb(horizon['published'])} MB "
        f"({horizon['published'] / LIMIT:.0%}) -> {'ok' if ok_size else 'MISSED'}"
    )
    print(
        f"one deployment < {DEPLOY_TARGET:.0f} s: {deploy['second']:.1f} s "
        f"({deploy['second'] / 600:.1%} of GitHub Pages' 10 minutes) -> {'ok' if ok_time else 'MISSED'}"
    )
    print(json.dumps({"points": [pt.__dict__ for pt in points], "model": rows, "deploy": deploy}), file=sys.stderr)
    return 1 if args.check and not (ok_size and ok_time) else 0


if __name__ == "__main__":
    sys.exit(main())
