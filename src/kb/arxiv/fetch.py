"""Ids -> metadata: the cache first, then the API in batches of at most 100 ids.

:func:`fetch` yields one :class:`Fetched` per id as soon as it is known (cache
hits first, then batch by batch), so the caller can write each paper file right
away and an interrupted run keeps what it already got.  N ids missing from the
cache cost ceil(N / batch size) requests, plus retries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from kb.arxiv.cache import Cache
from kb.arxiv.client import ArxivClient, FetchError
from kb.arxiv.config import FetchConfig
from kb.data.models import ArxivMeta

NOT_FOUND = "not found on arXiv (the answer did not include it)"


@dataclass(frozen=True)
class Fetched:
    id: str  # base id, without version
    meta: ArxivMeta | None
    source: str  # "api", "cache", or "" when it failed
    error: str | None = None


@dataclass
class Stats:
    requests: int = 0
    cache_errors: list[str] | None = None


def fetch(
    ids: Iterable[str],
    config: FetchConfig,
    cache: Cache | None = None,
    *,
    max_age: dt.timedelta | None = None,
    refetch: bool = False,
    client_factory: Callable[[FetchConfig], ArxivClient] = ArxivClient,
    stats: Stats | None = None,
) -> Iterator[Fetched]:
    """Metadata for base ids (deduplicated, in order); never raises for a failed id."""
    wanted = list(dict.fromkeys(ids))
    missing: list[str] = []
    for base in wanted:
        meta = None if (cache is None or refetch) else cache.get(base, max_age)
        if meta is not None:
            yield Fetched(base, meta, "cache")
        else:
            missing.append(base)
    if not missing:
        return
    client = client_factory(config)
    try:
        for start in range(0, len(missing), config.batch_size):
            batch = missing[start : start + config.batch_size]
            try:
                found = client.get_batch(batch)
            except FetchError as exc:
                for base in batch:
                    yield Fetched(base, None, "", str(exc))
                continue
            finally:
                if stats is not None:
                    stats.requests = client.requests
            for base in batch:
                yield _answer(base, found.get(base), cache, stats)
    finally:
        client.close()


def _answer(base: str, got: ArxivMeta | str | None, cache: Cache | None, stats: Stats | None) -> Fetched:
    """What the API said of one id: its metadata (kept in the cache), an error, or not found."""
    if got is None:
        return Fetched(base, None, "", NOT_FOUND)
    if isinstance(got, str):
        return Fetched(base, None, "", got)
    if cache is not None:
        try:
            cache.put(base, got)
        except OSError as exc:  # a cache that cannot be written only costs a re-fetch
            if stats is not None:
                stats.cache_errors = (stats.cache_errors or []) + [f"{base}: {exc}"]
    return Fetched(base, got, "api")
