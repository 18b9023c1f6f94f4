"""What is computed from a loaded knowledge base, kept while that knowledge base lives.

A build asks the same question of one knowledge base from several pages (the items still
pending anchoring: the backlog, the charts, the living document, the page descriptions, the
JSON views).  :func:`memo` computes each answer once per knowledge base object, kept on the object
itself (:attr:`KnowledgeBase.derived`), so a later build (the preview's next knowledge base) never
sees it.  The answers must be immutable (tuples, frozen records): every caller shares them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, TypeVar, cast

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

T = TypeVar("T")


def memo(kb: KnowledgeBase, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, once per knowledge base object and ``key``."""
    kept = kb.derived
    if key not in kept:
        kept[key] = compute()
    return cast(T, kept[key])  # stored by compute() under this key: each key has one type
