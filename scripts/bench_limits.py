"""How fast hostile YAML is refused (a report, not a test).

Times `kb validate` on the alias bomb, deep nesting, a huge string and an oversize
file from the hostile corpus, and prints each against the 1 s target.

    python scripts/bench_limits.py [--check]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "fixtures" / "base" / "data"  # the valid base of the fixture overlays (tests/overlay.py)
CORPUS = ROOT / "tests" / "hostile" / "corpus"
CASES = ["papers__alias-bomb.yaml", "papers__deep-nesting.yaml", "papers__huge-string.yaml"]
TARGET = 1.0


def time_validate(fixture_name: str | None, oversize: bool = False) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        shutil.copytree(BASE, data)
        if oversize:
            (data / "papers" / "oversize.yaml").write_text("notes:\n" + "  - x\n" * 2_000_000, "utf-8")
        else:
            shutil.copyfile(CORPUS / fixture_name, data / "papers" / fixture_name.split("__")[1])
        # time the work only: the in-process call, after the interpreter and imports are up
        code = (
            "import time,sys;from kb.data.loader import load;from kb.knowledge.load import build;"
            "t=time.perf_counter();kb=build(load(sys.argv[1]),mentions=False);"
            "print(time.perf_counter()-t);print(next(d.text() for d in kb.errors))"
        )
        run = subprocess.run([sys.executable, "-c", code, str(data)], capture_output=True, text=True, check=True)
        seconds, first_error = run.stdout.splitlines()[:2]
        return float(seconds), "data/papers/" + first_error.split("/papers/", 1)[-1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a case takes longer than the target")
    args = parser.parse_args()
    worst = 0.0
    rows = [(name, *time_validate(name)) for name in CASES] + [("oversize file (12 MB)", *time_validate(None, True))]
    for name, seconds, error in rows:
        worst = max(worst, seconds)
        print(
            f"{name}: refused in {seconds * 1000:.1f} ms (target {TARGET:.0f} s, ratio {seconds / TARGET:.3f})"
            f"\n    {error}"
        )
    return 1 if args.check and worst > TARGET else 0


if __name__ == "__main__":
    sys.exit(main())
