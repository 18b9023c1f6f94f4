"""The cyclic garbage collector paused while a run makes millions of small acyclic objects.

A module of its own, light to import: loading the knowledge base (a build, ``kb validate``), the
search index's merge and update, and the preview server each pause it around their bulk work.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


@contextmanager
def gc_paused(freeze: bool = False) -> Iterator[None]:
    """Loading makes millions of small acyclic objects that the cyclic garbage collector
    would rescan over and over: pause it meanwhile.
    ``freeze``: what was made is also left out of later collections (the first would scan all of
    it) until ``gc.unfreeze()``: ``kb validate`` keeps it to its end, a build until it ends.  And
    the process is a one-shot command: when it exits, all that is left is frozen, so the
    interpreter's last collection does not walk every object of the build."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        if freeze:
            gc.freeze()
            atexit.unregister(gc.freeze)  # once, however many loads
            atexit.register(gc.freeze)
    finally:
        if enabled:
            gc.enable()
