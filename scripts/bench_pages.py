#!/usr/bin/env python3
"""Time per MB of the work done on a hand-written page, from 10 KB to 4 MB: it must be flat
(linear time on any input).  Each size is measured on hostile shapes that once were
super-linear plus ordinary prose:

  heading-spaces  a heading line of runs of spaces (the old heading regex backtracked)
  ids             one paragraph of arXiv ids (autolinking and mention scanning)
  open-braces     unclosed "{{" (the template scanner)
  prose           Chinese/English prose with headings, ids and macro calls

Stages: ``scan`` (kb.knowledge.pagescan: mentions for backlinks), ``template``
(kb.data.template.scan of a template page), ``check`` (kb.data.pages.check_page),
``autolink`` (kb.render.autolink on the page's HTML), ``sanitize`` (nh3) and ``markdown``
(Python-Markdown with mkdocs.yml's extensions, as the build and ``kb validate`` render it).

    .venv/bin/python scripts/bench_pages.py              # 10 KB .. 4 MB
    .venv/bin/python scripts/bench_pages.py --max-kb 64  # a quick run (the smoke test)

Prints one row per (shape, size) with milliseconds per MB for each stage, then the ratio of
the largest to the smallest per-MB time of each stage (about 1 when flat).  Exit 1 when a
ratio passes --fail-ratio (default 4: timing noise on a shared machine, not a trend).
"""

from __future__ import annotations

import argparse
import html
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
STAGES = ("scan", "template", "check", "autolink", "sanitize", "markdown")
FLOOR_MS = 20.0  # per MB: below this a stage is too fast to time reliably

SIZES_KB = (10, 40, 160, 640, 2048, 4096)


def shape(name: str, size: int) -> str:
    if name == "heading-spaces":
        unit = "## a" + " " * 4000 + "b \n\n"
    elif name == "ids":
        unit = " ".join(f"arXiv:25{m:02d}.{n:05d}" for m in range(1, 13) for n in range(10, 20)) + " "
    elif name == "open-braces":
        unit = "{{ " * 64
    else:
        unit = (
            "## 推理引擎 { #engines }\n\n投机解码的接受率与草稿长度 arXiv:2505.02922 一起看，"
            'RetroInfer 在 VLDB 2026 给出 `code {{ x }}` 数据。\n\n{{ section("s1") }}\n\n'
        )
    text = unit * (size // len(unit.encode("utf-8")) + 1)
    return text[: max(1, size * len(text) // len(text.encode("utf-8")))]


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def stages(text: str):
    from kb.data import template as tpl
    from kb.data.pages import check_page
    from kb.knowledge.pagescan import scan_page
    from kb.render import sanitize
    from kb.render.autolink import autolink

    class KB:  # what scan_page reads: no paper is known, no section either
        by_arxiv: dict = {}

        @staticmethod
        def find_section(_):
            return None

    vocab = {"section": lambda ctx, section_id, topic_id=None: ""}
    page_html = "<p>" + html.escape(text).replace("\n\n", "</p>\n<p>") + "</p>"

    def target(ident):
        return ident.abs_url, f"arXiv {ident}"

    return {
        "scan": lambda: scan_page(KB, "bench.md", text),
        "template": lambda: tpl.scan(text, vocab),
        "check": lambda: check_page("bench.md", text, "docs/bench.md", frozenset({"bench.md"}), vocab),
        "autolink": lambda: autolink(page_html, target),
        "sanitize": lambda: sanitize.clean(page_html),
        "markdown": lambda: sanitize.render_markdown(text, ROOT / "mkdocs.yml"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--max-kb", type=int, default=4096)
    ap.add_argument("--fail-ratio", type=float, default=4.0)
    args = ap.parse_args(argv)
    sizes = [s for s in SIZES_KB if s <= args.max_kb] or [SIZES_KB[0]]
    names = ("heading-spaces", "ids", "open-braces", "prose")
    per_mb: dict[tuple[str, str], list[float]] = {}
    print(f"{'shape':<15} {'size':>8}  " + "  ".join(f"{s:>12}" for s in STAGES) + "   (ms per MB)")
    for name in names:
        for kb in sizes:
            text = shape(name, kb * 1024)
            mb = len(text.encode("utf-8")) / (1024 * 1024)
            row = []
            for stage, fn in stages(text).items():
                ms = timed(fn) * 1000 / mb
                per_mb.setdefault((name, stage), []).append(ms)
                row.append(f"{ms:12.0f}")
            print(f"{name:<15} {kb:>6}KB  " + "  ".join(row), flush=True)
    print("\nlargest / smallest time per MB (flat: about 1; sizes under 100 KB skipped when larger ones exist):")
    worst = 0.0
    for (name, stage), values in sorted(per_mb.items()):
        big = [v for s, v in zip(sizes, values, strict=True) if s >= 100] or values
        ratio = max(max(big), FLOOR_MS) / max(min(big), FLOOR_MS)
        worst = max(worst, ratio)
        print(f"  {name:<15} {stage:<9} {ratio:5.2f}")
    return 1 if worst > args.fail_ratio else 0


if __name__ == "__main__":
    raise SystemExit(main())
