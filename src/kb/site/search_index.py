"""The search index of the written site: Pagefind's run over it, and the bundle kept between builds.

After the build :func:`index_site` runs Pagefind (the binary its Python package ships, the
extended build: Chinese is segmented) over the pages :mod:`kb.site.search` marked, into
``pagefind/`` beside them.  A site too large for one run within Pagefind's memory budget is indexed
in parts, merged (:mod:`kb.site.search_parts`).  With the cache on, the bundle is kept in a store
between builds (:mod:`kb.site.search_store`) and brought up to date: Pagefind runs only over the
pages whose indexed text changed, merged into the kept bundle (:mod:`kb.site.search_update`).
Pagefind runs beside the build's process, so the process gives back the memory it has freed first,
and Pagefind's allocator is set to keep its own peak lower (:data:`ALLOCATOR`).

Nothing here imports MkDocs (the plugin calls :func:`index_site` from ``on_post_build``).  The
binary ships inside the ``pagefind[extended]`` wheel and runs locally: no network.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kb.data.atomic import new_dir
from kb.site import search, search_parts, search_store, search_update
from kb.site.search import BODY, EXCLUDE, OUTPUT, SKIP_DIRS

__all__ = ["ALLOCATOR", "CONFIG", "MEMORY_ENV", "MEMORY_MB", "IndexStats", "Written", "index_site", "pagefind_env"]
__all__ += ["Stop", "require_extended", "run_memory"]

MEMORY_MB = 2048  # Pagefind's memory for one run (estimated: kb.site.search_parts); a larger site is indexed in parts
MEMORY_ENV = "KB_SEARCH_MEMORY"  # MB; replaces search_memory of mkdocs.yml (benchmarks, tests)
Stop = Callable[[], bool]  # asked during an update of the kept bundle: true ends it early (index_site)
SCRATCH = ".kb-pagefind-"  # the bundle being made, in the site's directory (hidden: `mkdocs build` keeps such)
CONFIG = {
    "force_language": "zh",
    # the marked body is the whole document to Pagefind: it skips the header, the navigation and the
    # footer of every page instead of walking them for a body (the same bundle, a sixth less of its
    # work), and reads nothing outside it (kb.site.search.digest)
    "root_selector": f"[{BODY}]",
    "exclude_selectors": EXCLUDE,
}


@dataclass
class Written:
    """What a build wrote for the index: how many pages it marked, and what Pagefind will read of
    each HTML file (site-relative): how much (:func:`kb.site.search.weight`, for its memory) and,
    where the index is kept between builds, its digest (:func:`kb.site.search.digest`)."""

    pages: int = 0
    weights: dict[str, int] = field(default_factory=dict)
    digests: dict[str, str] = field(default_factory=dict)
    kept: bool = False  # the index is kept between builds: record each page's digest

    def add(self, path: str, page: str, indexed: bool) -> None:
        self.pages += indexed
        weight = self.weights[path] = search.weight(page)
        if self.kept and weight:
            self.digests[path] = search.digest(page)

    def over(self, before: Written, site_dir: Path) -> Written:
        """What the site at ``site_dir`` holds after a build that wrote some pages (this) over an
        earlier one's (``before``): the pages written since, else as before, less the files gone."""
        weights = {p: w for p, w in {**before.weights, **self.weights}.items() if (site_dir / p).is_file()}
        digests = {p: d for p, d in {**before.digests, **self.digests}.items() if p in weights}
        return Written(sum(1 for w in weights.values() if w), weights, digests, self.kept)


@dataclass
class IndexStats:
    pages: int = 0
    seconds: float = 0.0
    bytes: int = 0  # the whole bundle on disk
    files: int = 0
    reused: int = 0  # files of the bundle kept from the last build (a store: :func:`index_site`)
    parts: int = 1  # Pagefind runs (more than one: the site indexed in parts, merged; none: nothing changed)
    anew: int = 0  # pages Pagefind read (fewer than pages: the kept bundle brought up to date)
    stopped: bool = False  # the update was stopped (index_site's stop): pagefind/ is as it was

    def report(self) -> str:
        if self.stopped:
            return f"search index update of {self.anew} pages stopped after {self.seconds:.2f} s (the index as it was)"
        return (
            f"search index of {self.pages} pages in {self.seconds:.2f} s ({self.bytes // 1024} KB, "
            f"{self.reused} files kept, {self.anew} pages indexed anew, {self.parts} Pagefind runs)"
        )


def _build(site_dir: Path, out: Path, pages: int, parts: list[list[str]]) -> None:
    """Pagefind's binary (the one the Python API runs: ``pagefind.service.get_executable``, the
    extended build) indexes the written site: in one run, or one run a part (the HTML files of
    each in ``parts``), the parts merged into one bundle (:mod:`kb.site.search_parts`).  The API's
    service is not used: it answers one request per 0.1 s poll and can stop the binary before the
    last file of the bundle is flushed."""
    import shutil
    import tempfile

    if len(parts) <= 1:
        indexed = _run(site_dir, out, None)
    else:
        scratch = Path(tempfile.mkdtemp(prefix=".kb-parts-", dir=out.parent))
        try:
            bundles = [scratch / str(i) for i in range(len(parts))]
            indexed = sum(_run(site_dir, bundle, part) for bundle, part in zip(bundles, parts, strict=True))
            search_parts.merge([b for b in bundles if b.exists()], out)  # a part of unmarked pages has none
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    # more than this build marked: a --dirty build leaves the pages it did not rebuild (marked before)
    if indexed < pages:
        raise RuntimeError(f"Pagefind indexed {indexed} of {pages} pages")


def _run(site_dir: Path, out: Path, files: list[str] | None) -> int:
    """One Pagefind run over the written site (``files``: these HTML files only) into ``out``;
    the number of pages it indexed."""
    import json
    import os
    import subprocess
    import tempfile

    binary = _binary()
    with tempfile.TemporaryDirectory(prefix="kb-pagefind-") as scratch:
        config: dict[str, object] = {"site": str(site_dir.resolve()), "output_path": str(out.resolve()), **CONFIG}
        if files is not None:
            config["glob"] = search_parts.glob_of(files)
        (Path(scratch) / "pagefind.json").write_text(json.dumps(config), "utf-8")
        run = subprocess.run(
            [str(binary)], cwd=scratch, env=pagefind_env(os.environ), capture_output=True, text=True, timeout=600
        )
        if run.returncode != 0:
            if files is not None and "Indexed 0 pages" in run.stdout:  # a part without a marked body
                return 0
            raise RuntimeError((run.stdout + run.stderr)[-2000:])
        m = re.search(r"Indexed (\d+) page", run.stdout)
        if m is None:
            raise RuntimeError(f"Pagefind did not say what it indexed:\n{run.stdout[-2000:]}")
        return int(m.group(1))


# Pagefind's memory allocator (jemalloc, read from this variable): one arena instead of one per
# thread, and freed pages handed back after a second instead of ten.  At 3,000 pages its peak
# resident memory goes from about 880 MB to about 755 MB, with the same page fragments and word
# index and no more CPU time.
ALLOCATOR = ("_RJEM_MALLOC_CONF", "narenas:1,dirty_decay_ms:1000")


def pagefind_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment Pagefind runs in: ours, with :data:`ALLOCATOR` unless it is set already."""
    name, value = ALLOCATOR
    return {name: value, **environ}


def _binary() -> Path:
    """``PAGEFIND_BINARY_PATH``, else the extended build's binary: as ``pagefind.service.get_executable``
    finds it (whose fallback, the build without Chinese segmentation, :func:`require_extended` refuses),
    without loading that module and the asyncio it loads (16 ms of CPU in each process that indexes)."""
    named = os.environ.get("PAGEFIND_BINARY_PATH")
    if named:
        return Path(named)
    try:
        from pagefind_bin_extended import get_executable
    except ImportError:
        raise RuntimeError("the Pagefind binary is missing: pip install 'pagefind[extended]'") from None
    return Path(get_executable())


def _bundle_name() -> str:
    """The store's directory for the Pagefind that runs (its package's version, and which binary:
    ``PAGEFIND_BINARY_PATH`` can name another); another Pagefind, another format."""
    import hashlib
    from importlib.metadata import version

    binary = _binary().resolve()
    st = binary.stat()
    which = hashlib.sha256(f"{binary}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:12]
    return f"{version('pagefind')}-{which}"


def require_extended() -> None:
    """Pagefind's extended build (Chinese segmentation) must be the one that runs."""
    import os

    if os.environ.get("PAGEFIND_BINARY_PATH"):
        return
    try:
        import pagefind_bin_extended  # noqa: F401
    except ImportError:
        raise RuntimeError(
            "the search index needs Pagefind's extended build (Chinese segmentation): pip install 'pagefind[extended]'"
        ) from None


def index_site(
    site_dir: Path,
    pages: int,
    store: Path | None = None,
    weights: Mapping[str, int] | None = None,
    memory_mb: int = MEMORY_MB,
    digests: Mapping[str, str] | None = None,
    stop: Stop | None = None,
) -> IndexStats:
    """Index the built site at ``site_dir``, where ``pages`` pages are marked
    (:func:`kb.site.search.mark`), into ``site_dir/pagefind/`` (replacing an older index).

    ``weights``: the characters of indexed HTML of each page's file (site-relative path); Pagefind's
    memory is kept near ``memory_mb`` (``KB_SEARCH_MEMORY`` replaces it) by indexing the site in parts
    when it would need more (:mod:`kb.site.search_parts`).  With a ``store`` (the cache's, kept between
    builds) the bundle is kept there and the site gets links to it.  With the ``digests`` of the
    pages (:func:`kb.site.search.digest`) too, Pagefind runs only over the pages whose digest changed
    since the bundle was made, and the kept bundle is brought up to date
    (:mod:`kb.site.search_update`); else it runs over the whole site, and writes only the files it
    finds missing in the store (each is named by its content's hash).  When ``stop()`` becomes true
    during such an update (``kb preview``: the contributor saved again), the update ends where it
    is, ``pagefind/`` as it was, the kept bundle too where it can stay whole (``stats.stopped``)."""
    import shutil

    require_extended()
    _return_freed_memory()
    budget = search_parts.part_size(run_memory(memory_mb))
    stats = IndexStats(pages=pages, anew=pages)
    start = time.perf_counter()
    # the files on disk, not only those this build wrote: a --dirty build's older pages are indexed too
    on_disk = _weights(site_dir, weights or {})
    parts = search_parts.plan(on_disk, budget)
    stats.parts = max(1, len(parts))
    for stale in site_dir.glob(f"{SCRATCH}*"):  # left by a build that was killed
        shutil.rmtree(stale, ignore_errors=True)
    made = new_dir(site_dir, SCRATCH)  # the served pagefind/ stays meanwhile
    stopping = stop or _never
    try:
        if store is None:
            _build(site_dir, made, pages, parts)
        else:
            bundle = store / _bundle_name()
            with search_store.locked(store):  # two builds at once (`mkdocs serve` and a build) take turns
                for old in [d for d in store.iterdir() if d.is_dir() and d != bundle]:
                    shutil.rmtree(old)  # an older Pagefind's
                update = _pending(site_dir, bundle, weights, digests, budget, on_disk)
                done = update is not None and _update(site_dir, bundle, update, digests or {}, pages, stats, stopping)
                if not done and stopping():  # stopped where the store could not stay whole: the next run is full
                    stats.stopped = True
                elif not done:
                    _whole(site_dir, bundle, pages, parts, digests, stats)
                if not stats.stopped:
                    search_store.link_tree(bundle, made, _unused)
        if not stats.stopped:
            _put_in_place(made, site_dir / OUTPUT, stats)
    finally:
        shutil.rmtree(made, ignore_errors=True)
    stats.seconds = time.perf_counter() - start
    return stats


def _whole(
    site_dir: Path,
    bundle: Path,
    pages: int,
    parts: list[list[str]],
    digests: Mapping[str, str] | None,
    stats: IndexStats,
) -> None:
    """Pagefind over the whole site, into the store's ``bundle`` (its files kept where they are alike)."""
    stats.anew, stats.parts = pages, max(1, len(parts))
    search_update.forget(bundle, digests, fingerprint())  # and what a new file could clash with
    stats.reused = search_store.update(bundle, lambda dest: _build(site_dir, dest, pages, parts))
    if digests is not None:
        search_update.remember(bundle, digests, fingerprint())


def _put_in_place(made: Path, out: Path, stats: IndexStats) -> None:
    """The bundle ``made`` becomes ``out`` (:func:`kb.site.search_store.swap_in`); its size counted in ``stats``."""
    for unused in [p for p in made.iterdir() if _unused(p.name)]:
        unused.unlink()
    files = [p for p in made.rglob("*") if p.is_file()]
    stats.files, stats.bytes = len(files), sum(p.stat().st_size for p in files)
    search_store.swap_in(made, out)


def fingerprint() -> str:
    """What the store's bundle depends on besides the pages: Pagefind's configuration (the
    store's directory already names the Pagefind)."""
    import hashlib
    import json

    return hashlib.sha256(json.dumps(CONFIG, sort_keys=True).encode()).hexdigest()[:16]


def _pending(
    site_dir: Path,
    bundle: Path,
    weights: Mapping[str, int] | None,
    digests: Mapping[str, str] | None,
    budget: int,
    on_disk: Mapping[str, int],
) -> search_update.Pending | None:
    """The pages to index again, where the kept bundle can be brought up to date: it is complete,
    every HTML file on disk (``on_disk``: :func:`_weights`) with a marked body is one this build
    wrote (a ``--dirty`` build leaves others), and what changed fits one run."""
    if weights is None or digests is None or not search_store.complete(bundle):
        return None
    others = set(on_disk) - set(weights)  # the theme's 404 page: nothing Pagefind reads
    if any(search.weight((site_dir / p).read_text("utf-8", "replace")) for p in others):
        return None
    update = search_update.pending(bundle, digests, fingerprint())
    if update is None or sum(weights[p] for p in update.numbers) > budget:
        return None
    return update


def _update(
    site_dir: Path,
    bundle: Path,
    update: search_update.Pending,
    digests: Mapping[str, str],
    pages: int,
    stats: IndexStats,
    stop: Stop,
) -> bool:
    """The kept bundle brought up to date: Pagefind over the pages of ``update`` alone, merged in.
    False where that came out otherwise than expected (the caller runs over the whole site); true
    too when ``stop()`` ended it early (``stats.stopped``: the kept bundle as it was)."""
    import shutil
    import tempfile

    stats.anew, stats.parts = len(update.numbers), 0
    if not update.numbers:
        stats.reused = search_store.count(bundle)
        return True  # nothing Pagefind reads changed
    stats.parts = 1
    scratch = Path(tempfile.mkdtemp(prefix=".kb-update-", dir=bundle.parent))
    try:
        fresh = scratch / "bundle"
        if _run(site_dir, fresh, sorted(update.numbers)) != len(update.numbers):
            return False
        if stop():
            raise search_store.Stopped
        kept = search_store.edit(bundle, lambda: search_update.apply(bundle, fresh, update, digests, stop) >= pages)
    except search_update.Unfit:
        return False
    except search_store.Stopped:
        stats.stopped = True
        return True
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if kept is None:
        return False
    stats.reused = kept
    return True


def _never() -> bool:
    return False


def run_memory(configured: int) -> int:
    """Pagefind's memory for one run in MB: ``KB_SEARCH_MEMORY``, else ``configured``."""
    import os

    value = os.environ.get(MEMORY_ENV, "").strip()
    if not value:
        return configured
    if not value.isdigit():
        raise ValueError(f"{MEMORY_ENV}: expected a whole number of MB, got {value!r}")
    return int(value)


def _weights(site_dir: Path, weights: Mapping[str, int]) -> dict[str, int]:
    """The HTML files Pagefind reads, each with its weight (``weights``, else its size: more)."""
    return {rel: weights[rel] if rel in weights else (site_dir / rel).stat().st_size for rel in _html_files(site_dir)}


def _html_files(site_dir: Path) -> Iterator[str]:
    """The HTML files Pagefind reads (site-relative)."""
    for path in site_dir.rglob("*.html"):
        rel = path.relative_to(site_dir).as_posix()
        if not rel.startswith(SKIP_DIRS):
            yield rel


def _return_freed_memory() -> None:
    """What this process has freed goes back to the system before Pagefind starts, which is
    resident beside it (glibc's ``malloc_trim``; nothing where the C library has none).  At 3,000
    pages the build's process is about 90 MB smaller while Pagefind runs."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return
    trim(0)


def _unused(name: str) -> bool:
    """Not loaded: Pagefind's own UIs (the header search is assets/kb-search.js), and its web worker
    (kb-search.js runs Pagefind on the page: a query downloads one copy of its code, not two)."""
    from fnmatch import fnmatch

    return fnmatch(name, "pagefind-*ui.*") or name == "pagefind-worker.js"
