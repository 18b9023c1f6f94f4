#!/usr/bin/env python3
"""What the week pages cost a build, and what a preview would pay without their inputs (a report,
not a test).

A build makes every week page (``weeks/<week>.md``) and their index; a ``kb preview`` rebuild makes
the index and the week pages whose declared inputs changed (kb.site.pages.weeks), without those
inputs it would make them all.  This measures these costs on a synthetic knowledge base
(``tests/kbsynth``; default a year: 365 briefs, 2,000 papers), loaded once with the garbage
collector frozen after loading, as a build does: the week view (kb.knowledge.week), the week pages
with the index (kb.render.weeks, the view included), the weeks' feed, and for scale the section
timelines and the briefs' index (a headline's edit remakes the second).  Each figure is the median of
--repeat runs on a fresh view (the memo cleared).

    .venv/bin/python scripts/bench_weeks.py                         # a year
    .venv/bin/python scripts/bench_weeks.py --briefs 30 --papers 100 --repeat 1   # the smoke test

Prints the weeks, each part's median in ms, the pages' bytes and the ratio of the week pages to the
timelines.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # tests/kbsynth: the synthetic knowledge base

import kbsynth  # noqa: E402
from kb.knowledge.index import KnowledgeBase  # noqa: E402
from kb.knowledge.load import load_kb  # noqa: E402
from kb.knowledge.week import weeks  # noqa: E402
from kb.render import indexes, timeline, weekfeed  # noqa: E402
from kb.render import weeks as week_pages  # noqa: E402


def median_ms(kb: KnowledgeBase, work: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        kb.derived.clear()  # the views are memoised per knowledge base: measure them made afresh
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--briefs", type=int, default=365)
    p.add_argument("--papers", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        for rel, text in kbsynth.build(args.briefs, args.papers, args.seed).items():
            (data / rel).parent.mkdir(parents=True, exist_ok=True)
            (data / rel).write_text(text, "utf-8")
        kb = load_kb(data)
    gc.collect()
    gc.freeze()  # as a build leaves what it loaded (kb.gcpause)

    def pages() -> list[str]:
        return [week_pages.page(kb, w.id) for w in weeks(kb)] + [week_pages.index(kb)]

    parts = {
        "week view": lambda: weeks(kb),
        "week pages + index": pages,
        "weeks' feed": lambda: weekfeed.feed_files(kb, "", lambda src: src[:-3] + "/"),
        "timelines": lambda: [timeline.page(kb, topic) for topic in kb.topics],
        "briefs' index": lambda: indexes.briefs(kb),
    }
    ms = {name: median_ms(kb, work, args.repeat) for name, work in parts.items()}
    print(f"{len(kb.briefs)} briefs, {len(kb.papers)} papers: {len(weeks(kb))} weeks")
    for name, value in ms.items():
        print(f"{name:<20} {value:8.1f} ms")
    print(f"week pages' bytes    {sum(len(page.encode()) for page in pages()):8d}")
    print(f"week pages / timelines {ms['week pages + index'] / max(ms['timelines'], 1e-6):.2f}")


if __name__ == "__main__":
    main()
