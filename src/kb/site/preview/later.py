"""A job run on a thread of its own once nothing has happened for a while, unless settled
first: ``kb preview``'s search index update (:mod:`kb.site.preview.serve`), run when the contributor has
stopped saving, and stopped where it can when they save again."""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["Job", "Later"]

Job = Callable[[Callable[[], bool]], bool]  # asks its argument whether to stop; true: it ran to its end


class Later:
    """A job run on a thread of its own after ``delay`` seconds, unless settled first (one that has
    started is asked to stop where it can)."""

    def __init__(self, delay: float, job: Job) -> None:
        self._wake, self._stop, self._job, self._done = threading.Event(), threading.Event(), job, False
        self._thread = threading.Thread(target=self._run, args=(delay,), name="kb-search-index", daemon=True)
        self._thread.start()

    def _run(self, delay: float) -> None:
        self._wake.wait(delay)
        if not self._stop.is_set():
            self._done = self._job(self._stop.is_set)

    def settle(self, run: bool) -> Job | None:
        """Run the job now (``run``), else drop it, or stop it if it has started; then wait for it
        to end.  Returns the job unless it ran to its end."""
        if not run:
            self._stop.set()
        self._wake.set()
        self._thread.join()
        return None if self._done else self._job
