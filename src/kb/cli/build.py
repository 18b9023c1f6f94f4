"""``kb build [-f mkdocs.yml] [-d site] [--strict] [--dirty] [-q|-v] [--data DIR]``: the site as
``mkdocs build`` builds it, in a process of its own, then its search index by Pagefind's command
line once that process has ended (:mod:`kb.site.search.index`): the same site, and Pagefind's
memory never resident beside the build's.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from kb.cli.summary import emit, summary
from kb.data.diagnostics import Diagnostic, Severity, UserError

DESCRIPTION = (
    "Build the site as `mkdocs build` does, then its Pagefind search index.  MkDocs runs in a "
    "process of its own and Pagefind's command line indexes the site once that process has ended: "
    "the two are never resident at once.  "
    "`mkdocs build` alone makes the same site, indexing it from its own process.  The exit status "
    "is MkDocs' (with --strict a warning fails the build), else 1 when the index fails."
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("build", help="build the site (mkdocs build), then its search index", description=DESCRIPTION)
    p.add_argument("-f", "--config-file", default=None, help="the project's mkdocs.yml (MkDocs' default: mkdocs.yml)")
    p.add_argument("-d", "--site-dir", default=None, help="where the site goes (default: site_dir of mkdocs.yml)")
    p.add_argument("-s", "--strict", action="store_true", help="a warning fails the build")
    p.add_argument("--dirty", action="store_true", help="build only the files changed since the last build")
    p.add_argument("--data", default=None, help="data directory (default: $KB_DATA, else the kb plugin's data_dir)")
    loud = p.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true", help="warnings and errors only")
    loud.add_argument("-v", "--verbose", action="store_true", help="MkDocs' debug messages too")
    p.add_argument(
        "--json",
        action="store_true",
        help="then print one JSON summary on stdout (as kb validate --json): ok, counts (errors and "
        "warnings of the build, pages indexed, the index's KB), the located errors; the build's own "
        "messages stay on stderr",
    )
    p.set_defaults(func=run)


def mkdocs_command(args: argparse.Namespace) -> list[str]:
    """The ``mkdocs build`` the options ask for (this Python's MkDocs)."""
    cmd = [sys.executable, "-m", "mkdocs", "build"]
    if args.config_file is not None:
        cmd += ["--config-file", args.config_file]
    if args.site_dir is not None:
        cmd += ["--site-dir", args.site_dir]
    flags = (("--strict", args.strict), ("--dirty", args.dirty), ("--quiet", args.quiet), ("--verbose", args.verbose))
    return cmd + [flag for flag, on in flags if on]


def run(args: argparse.Namespace) -> int:
    if args.data is not None and not Path(args.data).is_dir():
        raise UserError(f"--data: {args.data} is not a directory")
    if args.config_file is not None and not Path(args.config_file).is_file():
        raise UserError(f"--config-file: {args.config_file}: no such file")
    from kb.site.search import index as search_index  # light: no data layer, no MkDocs

    env = dict(os.environ)
    # the theme's notice of its end of life (May 2027) is for whoever maintains the project, printed on
    # every build; contributors and CI read the build's own messages (set it to an empty value to see it)
    env.setdefault("NO_MKDOCS_2_WARNING", "1")
    if args.data is not None:
        env["KB_DATA"] = str(Path(args.data).resolve())
    said = Said() if args.json else None
    with tempfile.TemporaryDirectory(prefix="kb-build-") as scratch:
        note = Path(scratch) / "search.json"
        env[search_index.LATER_ENV] = search_index.later(note)
        status = _mkdocs(mkdocs_command(args), env, said)
        if status < 0:
            print(f"ERROR   -  mkdocs build ended by signal {-status}", file=sys.stderr)
            return _told(said, 128 - status)
        left = search_index.left(note)
        if status != 0 or left is None:  # failed; or no kb plugin in this configuration: nothing to index
            return _told(said, status)
    try:
        stats = search_index.index_site(*left)
    except Exception as exc:  # the binary missing or failing: as the plugin says it from mkdocs build
        print(f"ERROR   -  search index (Pagefind): {exc}", file=sys.stderr)
        return _told(said, 1, errors=1)
    if not args.quiet:
        print(f"INFO    -  kb: {stats.report()}", file=sys.stderr)
    return _told(said, 0, pages_indexed=stats.pages, search_kb=stats.bytes // 1024)


# a kb diagnostic as Diagnostic.text() prints it (the plugin's errors list them, one a line)
_LOCATED = re.compile(
    r"(?P<path>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): "
    r"(?:(?P<kind>warning|note): )?(?P<message>.*?)(?: \[(?P<key>[^\]]*)\])?"
)


class Said:
    """What the build printed, for the summary: its warnings and errors, and the located ones."""

    def __init__(self) -> None:
        self.warnings = 0
        self.errors = 0
        self.located: list[Diagnostic] = []

    def line(self, text: str) -> None:
        self.warnings += text.startswith("WARNING")
        self.errors += text.startswith("ERROR")
        if m := _LOCATED.fullmatch(text.strip()):
            kind = Severity(m["kind"]) if m["kind"] else Severity.ERROR
            where = (m["path"], int(m["line"]), int(m["col"]))
            self.located.append(Diagnostic(*where, m["message"], key=m["key"] or "", severity=kind))


def _told(said: Said | None, status: int, errors: int = 0, **counts: int) -> int:
    """``status``, after the summary (``--json``) when it is asked for."""
    if said is not None:
        tally = {"errors": said.errors + errors, "warnings": said.warnings, **counts}
        emit(summary("build", status == 0, tally, said.located, exit_status=status))
    return status


def _mkdocs(cmd: list[str], env: dict[str, str], said: Said | None = None) -> int:
    """Run ``cmd`` (the build) to its end; its exit status (negative: the signal that ended it).
    Stopped meanwhile (Ctrl-C, or SIGTERM: a CI job cancelled), the build is stopped too.  With
    ``said``, every line it prints goes to stderr and is told to ``said`` (stdout is the summary's)."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    out, err = (subprocess.PIPE, subprocess.STDOUT) if said is not None else (None, None)
    proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=err, text=True)
    try:
        if said is not None and proc.stdout is not None:
            for text in proc.stdout:
                sys.stderr.write(text)
                said.line(text.rstrip("\n"))
        return proc.wait()
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
        signal.signal(signal.SIGTERM, previous)
