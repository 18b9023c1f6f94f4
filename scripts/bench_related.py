"""What the related papers (kb.knowledge.related, kb.render.related) add to the pages, and cost.

    python scripts/bench_related.py [DATA_DIR] [--briefs 3650 --papers 2850 --topics 10 --seed 1]

Without DATA_DIR it writes a synthetic knowledge base (scripts/synth_kb.py) of the given size to
a temporary directory.  It prints, for the paper pages, the bytes of the related section (the
graph and its list, as the renderer writes it: links still as source paths) against the whole
page's renderer output; for the timeline pages, the bytes of the sections' graphs; and the time
the view takes against the time of loading the knowledge base.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data", type=Path, nargs="?", help="a data directory (default: a synthetic one)")
    p.add_argument("--briefs", type=int, default=3650)
    p.add_argument("--papers", type=int, default=2850)
    p.add_argument("--topics", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        data = args.data or _synthetic(Path(tmp) / "data", args)
        return _measure(data)


def _synthetic(out: Path, args: argparse.Namespace) -> Path:
    topics = ",".join(["inference"] + [f"topic{i}" for i in range(1, args.topics)])
    script = Path(__file__).resolve().parent / "synth_kb.py"
    cmd = [sys.executable, str(script), str(out), "--briefs", str(args.briefs), "--papers", str(args.papers)]
    subprocess.run([*cmd, "--seed", str(args.seed), "--topics", topics], check=True)
    return out


def _measure(data: Path) -> int:
    from kb import bib
    from kb.knowledge.index import paper_page
    from kb.knowledge.load import load_kb
    from kb.knowledge.related import related_papers
    from kb.render import paper, related, timeline
    from kb.render.links import Linker

    start = time.perf_counter()
    kb = load_kb(data, freeze=True)  # as a build loads it
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    related_papers(kb)
    view = time.perf_counter() - start
    added, whole = [], []
    for pid in kb.papers:
        part = related.paper_section(kb, Linker(paper_page(pid)), pid)
        added.append(len(part.encode()))
        whole.append(len(paper.page(kb, pid, bibtex=bib.entry_for(kb.papers[pid], kb)).encode()))
    graphs = []
    for topic in kb.topics:
        linker = Linker(timeline.page_of(topic))
        graphs += [len(related.section_part(kb, linker, topic, sid).encode()) for sid in kb.sections.get(topic, {})]
    n = len(added)
    print(f"{len(kb.briefs)} briefs, {n} papers, {len(kb.topics)} topics")
    print(
        f"paper pages: related section mean {statistics.mean(added):,.0f} B, median {statistics.median(added):,.0f} B, "
        f"max {max(added):,} B, total {sum(added) / 1e6:.2f} MB; "
        f"{sum(added) / sum(whole):.1%} of the pages' renderer output (mean {statistics.mean(whole):,.0f} B)"
    )
    print(f"timeline pages: section graphs total {sum(graphs) / 1e3:,.1f} KB over {len(graphs)} sections")
    print(f"related view: {view / loaded:.2f} x the load time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
