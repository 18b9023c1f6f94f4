"""The search index of the written site: one run of Pagefind's command line over it.

After the build :func:`index_site` runs Pagefind as its Python package documents it
(``python -m pagefind``; the extended build, which segments Chinese) over the pages
:mod:`kb.site.search` marked, configured by a ``pagefind.json`` file (:data:`CONFIG`), into
``pagefind/`` beside them.  The bundle is written aside and swapped in, so a served site keeps
its index meanwhile, and a run can be stopped (``kb preview``: the contributor saved again).
Nothing here reads or writes Pagefind's index files, and nothing imports MkDocs (the plugin calls
:func:`index_site` from ``on_post_build``).

``kb build`` runs ``mkdocs build`` and then Pagefind, as two steps, so Pagefind's memory is never
resident beside the build's: :func:`later` names the file in which the plugin of that build leaves
what the second step needs instead of indexing (:func:`leave`, :func:`left`).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from kb.data.atomic import new_dir
from kb.site.search import BODY, EXCLUDE, OUTPUT

__all__ = ["ALLOCATOR", "CONFIG", "LATER_ENV", "IndexStats", "Stop", "Written", "index_site", "later", "leave"]
__all__ += ["left", "pagefind_env", "require_extended", "swap_in"]

Stop = Callable[[], bool]  # asked while Pagefind runs: true stops it (index_site)
SCRATCH = ".kb-pagefind-"  # the bundle being made, in the site's directory (hidden: `mkdocs build` keeps such)
LATER_ENV = "KB_SEARCH_LATER"  # set by `kb build` for its `mkdocs build`: where the plugin leaves what to index
CONFIG = {
    "force_language": "zh",
    # the marked body is the whole document to Pagefind: it skips the header, the navigation and the
    # footer of every page instead of walking them for a body, and reads nothing outside it
    "root_selector": f"[{BODY}]",
    "exclude_selectors": EXCLUDE,
}
POLL = 0.05  # seconds between two looks at a stop request while Pagefind runs


@dataclass
class Written:
    """What a build wrote for the index: its HTML files, and how many of them are marked pages."""

    pages: int = 0
    files: int = 0

    def add(self, indexed: bool) -> None:
        self.pages += indexed
        self.files += 1


@dataclass
class IndexStats:
    pages: int = 0  # what Pagefind indexed
    seconds: float = 0.0
    bytes: int = 0  # the whole bundle on disk
    files: int = 0
    stopped: bool = False  # stopped before its end (index_site's stop): pagefind/ is as it was

    def report(self) -> str:
        if self.stopped:
            return f"search index stopped after {self.seconds:.2f} s (the index as it was)"
        return (
            f"search index of {self.pages} pages in {self.seconds:.2f} s ({self.bytes // 1024} KB, {self.files} files)"
        )


class _Stopped(Exception):
    pass


# Pagefind's memory allocator (jemalloc, read from this variable): one arena instead of one per
# thread, and freed pages handed back after a second instead of ten: a lower peak for the same
# bundle (docs/performance.md).
ALLOCATOR = ("_RJEM_MALLOC_CONF", "narenas:1,dirty_decay_ms:1000")


def pagefind_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment Pagefind runs in: ours, with :data:`ALLOCATOR` unless it is set already."""
    name, value = ALLOCATOR
    return {name: value, **environ}


def require_extended() -> None:
    """Pagefind's extended build (Chinese segmentation) must be the one that runs: the one
    ``python -m pagefind`` picks when it is installed (``PAGEFIND_BINARY_PATH`` names another)."""
    if os.environ.get("PAGEFIND_BINARY_PATH"):
        return
    from importlib.util import find_spec

    if find_spec("pagefind_bin_extended") is None:
        raise RuntimeError(
            "the search index needs Pagefind's extended build (Chinese segmentation): pip install 'pagefind[extended]'"
        )


def index_site(site_dir: Path, pages: int | None = None, stop: Stop | None = None) -> IndexStats:
    """Index the built site at ``site_dir`` into ``site_dir/pagefind/`` (replacing an older index);
    ``pages``: how many pages the build marked (:func:`kb.site.search.mark`), which Pagefind must
    index at least.  When ``stop()`` becomes true meanwhile, Pagefind is stopped and ``pagefind/``
    stays as it was (``stats.stopped``)."""
    import shutil

    require_extended()
    stats = IndexStats()
    start = time.perf_counter()
    for stale in site_dir.glob(f"{SCRATCH}*"):  # left by a build that was killed
        shutil.rmtree(stale, ignore_errors=True)
    made = new_dir(site_dir, SCRATCH)
    try:
        stats.pages = _run(site_dir, made, stop or _never)
        if pages is not None and stats.pages < pages:  # more: a --dirty build leaves pages it did not write
            raise RuntimeError(f"Pagefind indexed {stats.pages} of {pages} pages")
        for unused in [p for p in made.iterdir() if _unused(p.name)]:
            unused.unlink()
        files = [p for p in made.rglob("*") if p.is_file()]
        stats.files, stats.bytes = len(files), sum(p.stat().st_size for p in files)
        swap_in(made, site_dir / OUTPUT)
    except _Stopped:
        stats.stopped = True
    finally:
        shutil.rmtree(made, ignore_errors=True)
    stats.seconds = time.perf_counter() - start
    return stats


def _run(site_dir: Path, out: Path, stop: Stop) -> int:
    """Pagefind's command line over the written site into ``out``; the number of pages it indexed.
    Raises :class:`_Stopped` (Pagefind stopped) when ``stop()`` becomes true before it ends."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kb-pagefind-") as scratch:
        config = {"site": str(site_dir.resolve()), "output_path": str(out.resolve()), **CONFIG}
        (Path(scratch) / "pagefind.json").write_text(json.dumps(config), "utf-8")
        log = Path(scratch) / "log.txt"
        with log.open("wb") as said:
            cmd = [sys.executable, "-m", "pagefind"]
            proc = subprocess.Popen(cmd, cwd=scratch, env=pagefind_env(os.environ), stdout=said, stderr=said)
            try:
                while proc.poll() is None:
                    if stop():
                        raise _Stopped
                    time.sleep(POLL)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        text = log.read_text("utf-8", "replace")
    if proc.returncode != 0:
        raise RuntimeError(text[-2000:])
    m = re.search(r"Indexed (\d+) page", text)
    if m is None:
        raise RuntimeError(f"Pagefind did not say what it indexed:\n{text[-2000:]}")
    return int(m.group(1))


def _never() -> bool:
    return False


def swap_in(made: Path, out: Path) -> None:
    """The directory ``made`` becomes ``out``: the one there before is renamed aside, then removed
    (a reader meets no bundle only between two renames).  Where the second rename fails (on
    Windows a file of ``out`` held open), ``out`` is put back as it was and the error raised."""
    import shutil

    old = made.with_name(made.name + "-old")
    if out.exists():
        out.rename(old)
    try:
        made.rename(out)
    except OSError:
        if old.exists() and not out.exists():
            old.rename(out)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _unused(name: str) -> bool:
    """Not loaded: Pagefind's own UIs (the header search is assets/kb-search.js), and its web worker
    (kb-search.js runs Pagefind on the page: a query downloads one copy of its code, not two)."""
    from fnmatch import fnmatch

    return fnmatch(name, "pagefind-*ui.*") or name == "pagefind-worker.js"


def later(path: Path) -> str:
    """The value of :data:`LATER_ENV` by which this process asks the ``mkdocs build`` it starts to
    leave what to index in ``path`` (:func:`leave`) instead of indexing."""
    return f"{os.getpid()}:{path}"


def leave(site_dir: str, pages: int) -> bool:
    """Where this process is ``kb build``'s ``mkdocs build``: what to index left for it (true), else
    false and the caller indexes now.  :data:`LATER_ENV` names the ``kb build`` process and the
    file: a process that is not that one's child (``mkdocs serve`` in a shell the variable was
    exported to) indexes as ever."""
    pid, _, target = os.environ.get(LATER_ENV, "").strip().partition(":")
    if not target or pid != str(os.getppid()):
        return False
    Path(target).write_text(json.dumps({"site_dir": site_dir, "pages": pages}), "utf-8")
    return True


def left(path: Path) -> tuple[Path, int] | None:
    """What the build left in ``path`` (:func:`leave`): its site's directory and marked pages;
    None where it left nothing (a configuration without the kb plugin)."""
    if not path.is_file():
        return None
    found = json.loads(path.read_text("utf-8"))
    return Path(found["site_dir"]), int(found["pages"])
