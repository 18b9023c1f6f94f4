"""Write a synthetic, schema-valid knowledge base (a data directory) from a seed.

    python scripts/synth_kb.py OUT_DIR --briefs 365 --papers 2000 --seed 1 [--topics inference,rag,agent]

OUT_DIR becomes a data directory (topics/, papers/, briefs/, demos/); check it with
``kb validate --data OUT_DIR``.  Same arguments, same bytes.  The generator is
``tests/kbsynth``; this is only its command line.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/kbsynth: the synthetic knowledge base
try:
    import kbsynth as synth
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import kbsynth as synth

LAYOUT = ("topics", "papers", "briefs", "demos")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out", type=Path, help="data directory to write (created; must be empty unless --force)")
    p.add_argument("--briefs", type=int, default=365, help="number of briefs, spread over the topics (default 365)")
    p.add_argument("--papers", type=int, default=2000, help="number of paper files (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--topics", default="inference", help="comma-separated topic ids (default: inference)")
    p.add_argument("--start", type=dt.date.fromisoformat, default=dt.date(2026, 1, 1), help="date of the first brief")
    p.add_argument(
        "--disagree-rate",
        type=float,
        default=0.02,
        help="share of briefs with one stated figure deliberately off (each gives one warning)",
    )
    p.add_argument("--force", action="store_true", help="replace the *.yaml files of an existing data directory")
    args = p.parse_args(argv)

    out: Path = args.out
    if out.exists() and any(out.iterdir()):
        if not args.force:
            print(f"error: {out} is not empty (use --force to replace its data files)", file=sys.stderr)
            return 2
        for kind in LAYOUT:
            for old in sorted((out / kind).rglob("*.yaml")) if (out / kind).is_dir() else []:
                old.unlink()
    topics = [t.strip() for t in args.topics.split(",") if t.strip()]
    try:
        files, summary = synth.generate(
            args.briefs, args.papers, args.seed, topics=topics, start=args.start, disagree_rate=args.disagree_rate
        )
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    synth.write(files, out)
    print(
        f"wrote {summary.files} files ({summary.bytes / 1e6:.1f} MB) to {out}: {summary.briefs} briefs, "
        f"{summary.papers} papers, {summary.topics} topic(s); {summary.disagreements} stated figure(s) deliberately off"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
