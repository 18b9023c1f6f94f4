"""The HTTP rules, against a real local server: batches, one connection, spacing,
retries with backoff and Retry-After, timeouts, resets, empty and malformed answers,
and the time budget."""

from __future__ import annotations

import random
import time
from itertools import pairwise

import pytest

from kb.arxiv.cache import Cache
from kb.arxiv.client import ArxivClient, FetchError, _Retry, parse_retry_after
from kb.arxiv.config import FetchConfig
from kb.arxiv.fetch import NOT_FOUND, Stats, fetch

SAMPLE = "2505.02922"


def config(api, **kw) -> FetchConfig:
    base = dict(api_url=api.url, delay=0.01, backoff=0.01, timeout=2.0, retries=3, max_time=30.0)
    return FetchConfig(**{**base, **kw})


def synthetic_ids(n: int) -> list[str]:
    return [f"2601.{i:05d}" for i in range(1, n + 1)]


def test_250_ids_take_3_requests_on_one_connection(api, tmp_path):
    api.synthesize = True
    ids = synthetic_ids(250)
    stats = Stats()
    got = list(fetch(ids, config(api), Cache(tmp_path), stats=stats))
    assert [g.id for g in got] == ids and all(g.source == "api" for g in got)
    assert [len(r.ids) for r in api.requests] == [100, 100, 50]
    assert stats.requests == 3
    assert api.connections == 1  # keep-alive: one connection for the whole run
    again = list(fetch(ids, config(api), Cache(tmp_path)))
    assert all(g.source == "cache" for g in again)
    assert len(api.requests) == 3  # the second run asks nothing


def test_requests_are_spaced_by_the_delay(api):
    api.synthesize = True
    list(fetch(synthetic_ids(3), config(api, delay=0.2, batch_size=1)))
    gaps = [b.at - a.at for a, b in pairwise(api.requests)]
    assert len(gaps) == 2 and min(gaps) >= 0.19


def test_missing_id_in_a_non_empty_answer_is_not_found(api):
    got = {g.id: g for g in fetch([SAMPLE, "2501.99999"], config(api))}
    assert got[SAMPLE].meta is not None
    assert got["2501.99999"].meta is None and got["2501.99999"].error == NOT_FOUND
    assert len(api.requests) == 1


def test_429_waits_at_least_retry_after(api):
    api.plan = ["429:1"]
    with ArxivClient(config(api)) as client:
        found = client.get_batch([SAMPLE])
    assert SAMPLE in found
    assert [r.behaviour for r in api.requests] == ["429:1", "ok"]
    assert api.requests[1].at - api.requests[0].at >= 0.99


def test_retry_after_beyond_the_longest_wait_gives_up_at_once(api):
    api.plan = ["429:3600"]
    started = time.monotonic()
    with ArxivClient(config(api)) as client, pytest.raises(FetchError, match="asks to wait 3600 s"):
        client.get_batch([SAMPLE])
    assert time.monotonic() - started < 1 and len(api.requests) == 1


@pytest.mark.parametrize(
    "plan", [["503"], ["503", "502", "500"], ["reset"], ["empty"], ["malformed"], ["html"], ["hang"]]
)
def test_transient_failures_are_retried(api, plan):
    api.plan = list(plan)
    started = time.monotonic()
    with ArxivClient(config(api, timeout=0.3)) as client:
        found = client.get_batch([SAMPLE])
    assert SAMPLE in found
    assert len(api.requests) == len(plan) + 1
    assert time.monotonic() - started < 3


@pytest.mark.parametrize(
    "kind, reason",
    [
        ("503", "HTTP 503"),
        ("reset", "connection reset"),
        ("empty", "empty answer to an explicit id list"),
        ("malformed", "malformed XML"),
        ("hang", "no answer within 0.2 s"),
    ],
)
def test_persistent_failures_are_reported_after_the_retries(api, kind, reason):
    api.plan = [kind] * 10
    got = list(fetch([SAMPLE, "2505.11329"], config(api, timeout=0.2, retries=2)))
    assert [g.meta for g in got] == [None, None]
    assert reason in got[0].error and "gave up after 3 tries" in got[0].error
    assert len(api.requests) == 3


@pytest.mark.parametrize("kind, reason", [("error", "incorrect id format"), ("400", "HTTP 400")])
def test_permanent_errors_are_not_retried(api, kind, reason):
    api.plan = [kind]
    with ArxivClient(config(api)) as client, pytest.raises(FetchError, match=reason):
        client.get_batch([SAMPLE])
    assert len(api.requests) == 1


def test_time_budget_bounds_the_whole_run(api):
    api.plan = ["503"] * 100
    started = time.monotonic()
    got = list(fetch(synthetic_ids(5), config(api, retries=50, backoff=0.2, max_time=0.6, batch_size=1)))
    assert time.monotonic() - started < 1.5
    assert all(g.meta is None for g in got)
    assert any("time budget" in g.error for g in got)


def test_hanging_server_is_bounded_by_the_timeout(api):
    api.plan = ["hang"]
    started = time.monotonic()
    with (
        ArxivClient(config(api, timeout=0.3, retries=0)) as client,
        pytest.raises(FetchError, match="no answer within"),
    ):
        client.get_batch([SAMPLE])
    assert time.monotonic() - started < 1.5


def test_backoff_doubles_with_jitter_and_honours_retry_after():
    waits: list[float] = []
    now = [0.0]
    client = ArxivClient(
        FetchConfig(api_url="http://127.0.0.1:9/", delay=0, backoff=1, backoff_cap=30, max_time=1000),
        clock=lambda: now[0],
        sleep=waits.append,
        rng=random.Random(7),
    )
    for attempt in range(4):
        client._back_off(attempt, _Retry("HTTP 503"))
    for attempt, wait in enumerate(waits):
        step = 2**attempt
        assert step / 2 <= wait <= step
    assert len(set(round(w / 2**i, 6) for i, w in enumerate(waits))) > 1  # jittered
    client._back_off(0, _Retry("HTTP 429", retry_after=7))
    assert waits[-1] == 7
    tight = ArxivClient(FetchConfig(api_url="http://127.0.0.1:9/", max_time=5), clock=lambda: 0.0, sleep=waits.append)
    with pytest.raises(FetchError, match="time budget"):
        tight._back_off(0, _Retry("HTTP 429", retry_after=10))
    tight.close()
    client.close()


def test_parse_retry_after():
    assert parse_retry_after("120") == 120
    assert parse_retry_after("0.5") == 0.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412470.0) == 10.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412490.0) == 0.0


def test_config_from_env_and_overrides():
    cfg = FetchConfig.from_env({"KB_ARXIV_DELAY": "0.5", "KB_ARXIV_BATCH_SIZE": "7"}, delay=None, timeout=4)
    assert (cfg.delay, cfg.batch_size, cfg.timeout) == (0.5, 7, 4)
    with pytest.raises(ValueError, match="between 1 and 100"):
        FetchConfig.from_env({"KB_ARXIV_BATCH_SIZE": "101"})
    with pytest.raises(ValueError, match="must be a number"):
        FetchConfig.from_env({"KB_ARXIV_DELAY": "soon"})
    with pytest.raises(ValueError, match="http"):
        FetchConfig(api_url="ftp://example")


def test_cache_ignores_corrupt_and_old_files(tmp_path, api):
    import datetime as dt
    import json

    cache = Cache(tmp_path)
    meta = next(iter(fetch([SAMPLE], config(api)))).meta
    cache.put(SAMPLE, meta)
    assert cache.get(SAMPLE) == meta
    assert cache.get(SAMPLE, max_age=dt.timedelta(0)) is None
    path = cache.path(SAMPLE)
    assert path == tmp_path / "arxiv" / "2505.02922.json"
    assert json.loads(path.read_text())["meta"]["title"] == meta.title
    path.write_text("{not json")
    assert cache.get(SAMPLE) is None
    assert Cache(tmp_path).path("hep-th/9901001").name == "hep-th_9901001.json"


def test_a_host_name_that_does_not_resolve_fails_at_once():
    """Offline or without DNS, waiting does not bring the name back: one try, no back-off."""
    import socket

    import requests

    waits: list[float] = []
    client = ArxivClient(FetchConfig(api_url="http://export.arxiv.org/api/query", retries=4), sleep=waits.append)

    def unresolved(*args, **kwargs):
        try:
            raise socket.gaierror(-2, "Name or service not known")
        except socket.gaierror as exc:
            raise requests.ConnectionError("Max retries exceeded") from exc

    client.session.get = unresolved  # type: ignore[method-assign]
    with pytest.raises(FetchError, match="cannot find the host export.arxiv.org: its name does not resolve"):
        client.get_batch([SAMPLE])
    assert client.requests == 1 and waits == []
    client.close()


def test_a_refused_connection_is_still_retried(api):
    """Only a name that does not resolve skips the retries."""
    api.plan = ["reset", "ok"]
    with ArxivClient(config(api)) as client:
        assert SAMPLE in client.get_batch([SAMPLE])
        assert client.requests == 2
