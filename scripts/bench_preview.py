"""Latency of ``kb preview`` after one edited brief, at several sizes (a report, not a test).

    python scripts/bench_preview.py [--sizes 1000,3000] [--edits 5] [--seed 1] [--check]

For each size (total pages of the site) it writes a synthetic knowledge base (``tests/kbsynth``;
1,000 pages: 150 briefs + 807 papers, 3,000 pages: 461 briefs + 2,458 papers, with a page per
ISO week of briefs; other sizes in the same proportion) into a throw-away copy of this project
(mkdocs.yml, docs/, hooks/, overrides/), starts ``kb preview`` on it in a subprocess on a free 127.0.0.1 port and waits
for the first build (every page and the search index: what ``mkdocs serve`` redoes on every
save).  Then, --edits times, it appends a new word to the headline (``character.title``) of
the newest brief, as a contributor editing today's brief does, and measures the time from
the write to the served page (HTTP GET of that brief's URL) containing the word: the
polling interval of the file watcher, the rebuild and the serving.

It prints the first build and the median and maximum latency at each size, the server's own
rebuild times, and the ratio of the first build to the median (how much sooner an edit shows
than with a whole rebuild).  Target (--check exits 1 when missed): median <= 3 s at 3,000 pages.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests"))  # tests/kbsynth: the synthetic knowledge base
try:
    import kbsynth as synth
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))
    import kbsynth as synth

CODE = ("mkdocs.yml", "docs", "hooks")  # what a build reads besides data/ (and the kb package)
# pages -> briefs, papers (tests/kbsynth); the briefs make 22 and 66 weeks, a page each
SIZES = {1000: (150, 807), 3000: (461, 2458)}
PAPERS_PER_BRIEF = 2458 / 461
GENERATED_PAGES = 6  # as bench_build's: the indexes, backlog, stats, one topic's timeline, the weeks' index
WEEKS_PER_BRIEF = 1 / 7  # a page per ISO week: the synthetic topic has a brief a day
TARGET_SIZE, TARGET = 3000, 3.0
SERVING = re.compile(r"kb preview: serving .* at (http://127\.0\.0\.1:\d+/)")
BUILT = re.compile(r"kb preview: built ([\d,]+) pages in ([\d.]+) s")
REBUILT = re.compile(r"rebuilt ([\d,]+) of ([\d,]+) pages in ([\d.]+) s")


@dataclass
class Result:
    briefs: int
    papers: int
    pages: int = 0
    first: float = 0.0  # wall time from the start to serving
    latencies: list[float] = field(default_factory=list)
    rebuilds: list[float] = field(default_factory=list)  # the server's own rebuild times
    rebuilt: list[int] = field(default_factory=list)  # pages rebuilt per edit
    peak_mb: float = 0.0  # the preview process's peak resident memory (Linux; 0: unknown)
    updates: tuple[int, int] = (0, 0)  # search index updates the server finished, and stopped (a save came)


def counts(total: int) -> tuple[int, int]:
    if total in SIZES:
        return SIZES[total]
    hand = sum(1 for _ in (ROOT / "docs").rglob("*.md"))
    rest = max(2, total - hand - GENERATED_PAGES)
    briefs = max(1, round(rest / (1 + PAPERS_PER_BRIEF + WEEKS_PER_BRIEF)))
    return briefs, max(1, rest - briefs - synth.weeks(briefs))


def make_project(dest: Path, briefs: int, papers: int, seed: int) -> Path:
    dest.mkdir(parents=True)
    for name in CODE:
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, dest / name)
    files, _ = synth.generate(briefs, papers, seed)
    synth.write(files, dest / "data")
    return dest


class Preview:
    """``kb preview`` in a subprocess; its output lines are read in a thread."""

    def __init__(self, project: Path, timeout: float) -> None:
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        env.pop("KB_DATA", None)
        cmd = [sys.executable, "-m", "kb", "preview", "--dev-addr", "127.0.0.1:0"]
        self.proc = subprocess.Popen(
            cmd, cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        self.lines: list[str] = []
        self._cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        self.timeout = timeout

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()

    def wait_for(self, pattern: re.Pattern[str], after: int = 0) -> re.Match[str]:
        """The first line from index ``after`` on that matches."""
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while True:
                for line in self.lines[after:]:
                    m = pattern.search(line)
                    if m:
                        return m
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    sys.exit("kb preview stopped or timed out:\n" + "\n".join(self.lines[-40:]))
                self._cond.wait(0.5)

    def peak_mb(self) -> float:
        """VmHWM of the process (Linux), in MB; 0 when unknown."""
        try:
            status = Path(f"/proc/{self.proc.pid}/status").read_text()
        except OSError:
            return 0.0
        m = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
        return int(m.group(1)) / 1024 if m else 0.0

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # the process this script started
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as answer:
        return str(answer.read().decode("utf-8"))


def edit(path: Path, word: str) -> None:
    """Append ``word`` to the brief's headline (``character.title``), as an editor saves it."""
    text = path.read_text("utf-8")
    new, n = re.subn(r"(\ncharacter:\n  title: [^\n]*)", lambda m: m.group(1) + " " + word, text, count=1)
    if n != 1:
        sys.exit(f"{path}: no character.title to edit")
    path.write_text(new, "utf-8")


def measure(total: int, args: argparse.Namespace, tmp: Path) -> Result:
    briefs, papers = counts(total)
    result = Result(briefs, papers)
    project = make_project(tmp / str(total), briefs, papers, args.seed)
    newest = sorted((project / "data" / "briefs").rglob("*.yaml"))[-1]
    key = newest.relative_to(project / "data" / "briefs").with_suffix("").as_posix()
    start = time.perf_counter()
    preview = Preview(project, args.timeout)
    try:
        url = preview.wait_for(SERVING).group(1)
        result.first = time.perf_counter() - start
        result.pages = int(preview.wait_for(BUILT).group(1).replace(",", ""))
        page = f"{url}briefs/{key}/"
        fetch(page)
        for i in range(args.edits):
            word = f"zqpreview{i}x{total}"
            seen = len(preview.lines)
            time.sleep(args.pause)  # the watcher must see a later modification time
            t = time.perf_counter()
            edit(newest, word)
            while word not in fetch(page):
                if time.perf_counter() - t > args.timeout:
                    sys.exit(f"the edit did not show within {args.timeout} s:\n" + "\n".join(preview.lines[-20:]))
                time.sleep(0.02)
            result.latencies.append(time.perf_counter() - t)
            m = preview.wait_for(REBUILT, seen)
            result.rebuilt.append(int(m.group(1).replace(",", "")))
            result.rebuilds.append(float(m.group(3)))
        result.peak_mb = preview.peak_mb()
        said = preview.lines[:]
        done, stopped = ("search index brought up to date", "search index update stopped")
        result.updates = (sum(done in x for x in said), sum(stopped in x for x in said))
    finally:
        preview.stop()
    shutil.rmtree(project, ignore_errors=True)
    return result


def report(results: dict[int, Result]) -> list[str]:
    head = (
        f"{'size':>5} {'pages':>6} | {'first s':>7} | {'median s':>8} {'max s':>6} | "
        f"{'rebuild s':>9} {'pages rebuilt':>13} | {'first/median':>12} | {'peak MB':>7}"
    )
    lines = [head, "-" * len(head)]
    for size, r in results.items():
        med = statistics.median(r.latencies)
        lines.append(
            f"{size:>5} {r.pages:>6} | {r.first:>7.1f} | {med:>8.2f} {max(r.latencies):>6.2f} | "
            f"{statistics.median(r.rebuilds):>9.2f} {statistics.median(r.rebuilt):>13.0f} | {r.first / med:>11.1f}x | "
            f"{r.peak_mb:>7.0f}"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="1000,3000", help="total pages per run, comma-separated (default 1000,3000)")
    p.add_argument("--edits", type=int, default=5, help="edits per size (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pause", type=float, default=1.0, help="seconds between edits (default 1)")
    p.add_argument("--timeout", type=float, default=900, help="seconds to wait for a build (default 900)")
    p.add_argument("--check", action="store_true", help=f"exit 1 when the median at {TARGET_SIZE} pages > {TARGET} s")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    results: dict[int, Result] = {}
    with tempfile.TemporaryDirectory(prefix="kb-bench-preview-") as tmp:
        for size in sizes:
            r = results[size] = measure(size, args, Path(tmp))
            print(
                f"size {size}: {r.briefs} briefs + {r.papers} papers -> {r.pages} pages; first build {r.first:.1f} s; "
                f"after an edit: {', '.join(f'{x:.2f}' for x in r.latencies)} s; search index updates: "
                f"{r.updates[0]} done, {r.updates[1]} stopped by a save",
                flush=True,
            )
    print()
    print("\n".join(report(results)))
    print()
    target = results.get(TARGET_SIZE)
    if target is None:
        print(f"median at {TARGET_SIZE} pages <= {TARGET} s: not measured")
        return 0
    med = statistics.median(target.latencies)
    ok = med <= TARGET
    print(f"median at {TARGET_SIZE} pages <= {TARGET} s: {med:.2f} s, {'ok' if ok else 'MISSED'}")
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
