"""The search index made after the build's process has ended (``kb build``).

Pagefind holds every page it indexes until it writes the index.  Run from ``mkdocs build``'s own
process (the plugin's ``on_post_build``), it is resident beside all the build's process still holds
(3,000 synthetic pages: about 265 MB of Python heap that does not go back to the system, beside
about 750 MB of Pagefind), and the sum is the build's peak.  ``kb build`` runs ``mkdocs build`` in
a child process with :data:`LATER_ENV` naming itself and a file (:func:`later`): the plugin writes
there what the index needs (:class:`Request`) instead of indexing.  Once the child has ended,
:func:`index` indexes the site in runs sized to the memory the child itself needed at its peak
(:func:`budget`; a site larger than one run is indexed in parts and merged,
:mod:`kb.site.search_parts`), so the command as a whole needs no more memory than the MkDocs build
did.

Nothing here imports MkDocs, and importing it loads nothing of the index code (:func:`run` does).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the index code loads when it runs: kb build waits beside MkDocs without it
    from kb.site.search_index import IndexStats, Stop, Written

__all__ = ["LATER_ENV", "SMALLEST_MB", "Request", "budget", "index", "later", "leave", "request", "run"]

LATER_ENV = "KB_SEARCH_LATER"  # set by `kb build` for its `mkdocs build`: where the plugin leaves its Request (later)
# The least memory (MB) a run is given: Pagefind's dictionaries alone take some 70 MB of every run
# (search_parts.BASE_MB), so a budget much smaller than this is mostly spent on them, once a run.
SMALLEST_MB = 256


@dataclass(frozen=True)
class Request:
    """What :func:`kb.site.search_index.index_site` needs of a build: its written site and the
    pages it marked, the cache's store, the pages' weights and digests, the configured memory."""

    site_dir: str
    pages: int
    store: str | None
    weights: dict[str, int]
    memory_mb: int
    digests: dict[str, str]

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), ensure_ascii=False), "utf-8")

    @classmethod
    def load(cls, path: Path) -> Request:
        return cls(**json.loads(path.read_text("utf-8")))


def request(site_dir: str, config_file: str, written: Written, memory_mb: int) -> Request:
    """What indexing the pages ``written`` into ``site_dir`` needs, for a build of the project
    configured by ``config_file`` (its cache's store of the index, :mod:`kb.site.cache`),
    ``memory_mb`` configured (``search_memory``)."""
    from kb.site import cache  # the plugin's, loaded already: kb build's index step does without it

    where = cache.location(Path(config_file).resolve().parent)
    store = str(where / cache.SEARCH) if where else None
    return Request(site_dir, written.pages, store, written.weights, memory_mb, written.digests)


def run(request: Request, memory_mb: int, stop: Stop | None = None) -> IndexStats:
    """Index the site ``request`` describes, a run's memory ``memory_mb`` (``KB_SEARCH_MEMORY``
    replaces it): :func:`kb.site.search_index.index_site`."""
    from kb.site import search_index

    store = Path(request.store) if request.store is not None else None
    return search_index.index_site(
        Path(request.site_dir), request.pages, store, request.weights, memory_mb, request.digests, stop
    )


def leave(request: Request) -> bool:
    """Where this process is ``kb build``'s ``mkdocs build``: ``request`` left for it (true),
    else false and the caller indexes now.  :data:`LATER_ENV` names the ``kb build`` process and
    the file (:func:`later`): a process that is not that one's child (``mkdocs serve`` in a shell
    the variable was exported to) indexes as ever."""
    pid, _, target = os.environ.get(LATER_ENV, "").strip().partition(":")
    if not target or pid != str(os.getppid()):
        return False
    request.save(Path(target))
    return True


def later(path: Path) -> str:
    """The value of :data:`LATER_ENV` by which this process asks the ``mkdocs build`` it starts
    to leave its request in ``path`` (:func:`leave`)."""
    return f"{os.getpid()}:{path}"


def budget(configured_mb: int, build_peak_mb: int, own_mb: int) -> int:
    """One Pagefind run's memory (MB): what the build needed at its peak less what this process
    holds, at least :data:`SMALLEST_MB`, at most what is configured (``search_memory``)."""
    return min(configured_mb, max(SMALLEST_MB, build_peak_mb - own_mb))


def index(request: Request, build_peak_mb: int, own_mb: int) -> tuple[IndexStats, int]:
    """Index the site ``request`` describes, after a build that needed ``build_peak_mb`` at its peak,
    from a process holding ``own_mb``; a run's memory from :func:`budget` (``KB_SEARCH_MEMORY``
    replaces it).  The statistics and a run's memory."""
    from kb.site import search_index

    memory = budget(request.memory_mb, build_peak_mb, own_mb)
    return run(request, memory), search_index.run_memory(memory)
