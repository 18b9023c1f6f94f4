"""How long ``kb validate`` takes on a synthetic year of data (a report, not a test).

    python scripts/bench_validate.py [--data DIR] [--briefs 365 --papers 2000 --seed 1] [--repeat 3] [--check]

Without --data it writes a synthetic knowledge base (``tests/kbsynth``) to a temporary
directory.  It times, over --repeat runs, (1) in process: load + index + rules +
figures (``kb.knowledge.load.build(kb.data.loader.load(dir))``) and (2) the wall time of a
``kb validate --data DIR`` subprocess, and prints the medians and their ratio to
the target.  The subprocess runs with Python's bytecode cache, as an installed package
has it: an untimed first run writes it, even where PYTHONDONTWRITEBYTECODE is set (else
each run would also time compiling the package's modules).  Exit status 0, unless --check
and the ``kb validate`` median is over the target (or the data does not validate).

--patch FILE runs ``apply()`` from a Python file first, in process and in the
subprocess, to measure a proposed change without editing src/kb.
--profile N prints the N hottest functions (cProfile, cumulative) of one run.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import resource
import runpy
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # tests/kbsynth: the synthetic knowledge base
try:
    import kbsynth as synth
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import kbsynth as synth


def validate_command(data: Path, patch: Path | None) -> list[str]:
    args = ["validate", "--data", str(data), "--docs", str(data / "no-docs")]
    if patch is None:
        kb = Path(sys.executable).with_name("kb")
        return [str(kb), *args] if kb.exists() else [sys.executable, "-m", "kb.cli", *args]
    code = (
        f"import runpy, sys; runpy.run_path({str(patch)!r})['apply'](); "
        f"from kb.cli import main; sys.exit(main({args!r}))"
    )
    return [sys.executable, "-c", code]


def cached_env() -> dict[str, str]:
    """The environment of a timed ``kb`` process: Python's bytecode cache on, as an installed package
    has it (run the command once untimed first, to write the cache)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def in_process(data: Path) -> tuple[float, float, float, object]:
    from kb.data.loader import load
    from kb.knowledge.load import build

    gc.collect()
    c0, t0 = time.process_time(), time.perf_counter()
    loaded = load(data)
    t1 = time.perf_counter()
    kb = build(loaded)
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, time.process_time() - c0, kb


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, help="existing data directory (default: generate one in a temp dir)")
    p.add_argument("--briefs", type=int, default=365)
    p.add_argument("--papers", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--topics", default="inference")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--target", type=float, default=2.0, help="seconds (default 2.0)")
    p.add_argument("--check", action="store_true", help="exit 1 when the kb validate median is over the target")
    p.add_argument("--patch", type=Path, help="Python file whose apply() is run before timing")
    p.add_argument("--profile", type=int, default=0, metavar="N", help="print the N hottest functions of one run")
    args = p.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        data = args.data
        if data is None:
            data = Path(tmp) / "data"
            t = time.perf_counter()
            files, s = synth.generate(args.briefs, args.papers, args.seed, topics=args.topics.split(","))
            synth.write(files, data)
            print(
                f"generated {s.briefs} briefs, {s.papers} papers, {s.topics} topic(s), {s.bytes / 1e6:.1f} MB "
                f"in {time.perf_counter() - t:.1f} s"
            )
        if args.patch:
            runpy.run_path(str(args.patch))["apply"]()
            print(f"patched with {args.patch}")

        loads, builds, cpus, kb = [], [], [], None
        for _ in range(args.repeat):
            kb = None
            t_load, t_build, cpu, kb = in_process(data)
            loads.append(t_load)
            builds.append(t_build)
            cpus.append(cpu)
        n_briefs, n_papers, errors, warnings = len(kb.briefs), len(kb.papers), len(kb.errors), len(kb.warnings)
        kb = None
        if args.profile:
            from kb.data.loader import load
            from kb.knowledge.load import build

            prof = cProfile.Profile()
            prof.enable()
            build(load(data))
            prof.disable()
            out = io.StringIO()
            pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(args.profile)
            print(out.getvalue())

        walls, child_cpus, ok = [], [], True
        cmd = validate_command(data.resolve(), args.patch.resolve() if args.patch else None)
        env = cached_env()
        subprocess.run(cmd, cwd=tmp, capture_output=True, env=env)  # writes the bytecode cache
        for _ in range(args.repeat):
            c, t = child_cpu(), time.perf_counter()
            run = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, env=env)
            walls.append(time.perf_counter() - t)
            child_cpus.append(child_cpu() - c)
            ok = ok and run.returncode == 0

    size = f"{n_briefs} briefs / {n_papers} papers"
    total = [a + b for a, b in zip(loads, builds, strict=True)]
    med = statistics.median(walls)
    print(
        f"in process, {size}: {statistics.median(total):.2f} s median "
        f"(load {statistics.median(loads):.2f} s + index/rules/figures {statistics.median(builds):.2f} s; "
        f"cpu {statistics.median(cpus):.2f} s); {errors} error(s), {warnings} warning(s)"
    )
    print(
        f"kb validate, {size}: {med:.2f} s median (target {args.target:.1f} s, ratio {med / args.target:.2f}) "
        f"over {args.repeat} run(s): {', '.join(f'{w:.2f}' for w in walls)}; "
        f"cpu {statistics.median(child_cpus):.2f} s median"
    )
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    if load_avg > (os.cpu_count() or 1):
        print(f"note: load average {load_avg:.1f} on {os.cpu_count()} cores: wall times include waiting for the CPU")
    if not ok or errors:
        print("warning: kb validate did not pass on this data; the timings are not meaningful", file=sys.stderr)
    return 1 if args.check and (med > args.target or not ok or errors) else 0


if __name__ == "__main__":
    sys.exit(main())
