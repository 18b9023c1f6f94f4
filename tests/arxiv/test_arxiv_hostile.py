"""Answers and cache files that must not be trusted: redirects to other hosts, answers
with duplicate or stray ids, oversized (or compressed-oversized) bodies, and cache
records for another id, from the future or without a time zone."""

from __future__ import annotations

import datetime as dt
import json
import time
import tracemalloc

import pytest
from fakeapi import FakeArxiv

from kb.arxiv.cache import Cache, fresh
from kb.arxiv.client import ArxivClient, FetchError, match_answer, same_host
from kb.arxiv.config import FetchConfig
from kb.data.models import ArxivMeta

SAMPLE = "2505.02922"
MiB = 1024 * 1024


def config(api, **kw) -> FetchConfig:
    base = dict(api_url=api.url, delay=0.01, backoff=0.01, timeout=2.0, retries=3, max_time=30.0)
    return FetchConfig(**{**base, **kw})


def get(api, ids=(SAMPLE,), **kw):
    with ArxivClient(config(api, **kw)) as client:
        return client.get_batch(list(ids))


# --------------------------------------------------------------------------- redirects


def test_a_redirect_on_the_same_host_is_followed(api):
    api.plan = [f"redirect:/api/query?id_list={SAMPLE}&start=0&max_results=1"]
    assert SAMPLE in get(api)
    assert [r.behaviour.partition(":")[0] for r in api.requests] == ["redirect", "ok"]
    assert api.requests[1].ids == [SAMPLE]


def test_a_redirect_to_another_host_is_refused(api):
    other = FakeArxiv().start()
    try:
        elsewhere = other.url.replace("127.0.0.1", "localhost") + f"?id_list={SAMPLE}"
        api.plan = [f"redirect:{elsewhere}"]
        with pytest.raises(FetchError, match="redirected to http://localhost:.*another host; refusing") as err:
            get(api)
        assert "KB_ARXIV_API_URL" in str(err.value)
        assert other.requests == [] and len(api.requests) == 1  # not followed, not retried
    finally:
        other.stop()


def test_a_redirect_to_another_port_or_scheme_is_refused(api):
    api.plan = ["redirect:http://127.0.0.1:9/api/query", "redirect:ftp://127.0.0.1/api/query"]
    for _ in range(2):
        with pytest.raises(FetchError, match="another host"):
            get(api)


def test_redirect_loops_end(api):
    api.plan = ["redirect:/api/query"] * 10
    with pytest.raises(FetchError, match="more than 3 redirects"):
        get(api)
    assert len(api.requests) == 4


@pytest.mark.parametrize(
    "start, target, same",
    [
        ("https://export.arxiv.org/api/query", "https://export.arxiv.org/api/query?x=1", True),
        ("http://export.arxiv.org/api/query", "https://export.arxiv.org/api/query", True),  # upgrade
        ("https://export.arxiv.org/api/query", "http://export.arxiv.org/api/query", False),  # downgrade
        ("https://export.arxiv.org/api/query", "https://EXPORT.arxiv.org/x", True),
        ("https://export.arxiv.org/api/query", "https://arxiv.org/api/query", False),
        ("https://export.arxiv.org/api/query", "https://export.arxiv.org.evil.example/", False),
        ("https://export.arxiv.org/api/query", "https://export.arxiv.org@evil.example/", False),
        ("https://export.arxiv.org/api/query", "https://export.arxiv.org:8443/", False),
        ("http://127.0.0.1:8000/api", "http://127.0.0.1:8000/other", True),
        ("http://127.0.0.1:8000/api", "http://localhost:8000/api", False),
        ("https://export.arxiv.org/api/query", "https://export.arxiv.org:x/", False),
        ("http://127.0.0.1/api", "http://127.0.0.1:0/api", False),  # port 0 is no default port
    ],
)
def test_same_host(start, target, same):
    assert same_host(start, target) is same


# --------------------------------------------------------------------------- ids in the answer


def test_an_answer_with_an_id_twice_is_refused(api):
    api.plan = ["duplicate"]
    with pytest.raises(FetchError, match=f"lists arXiv {SAMPLE} more than once; refusing it"):
        get(api)
    assert len(api.requests) == 1  # no retry: the answer cannot be trusted


def test_an_answer_with_an_id_not_asked_for_is_refused(api, tmp_path):
    from kb.arxiv.fetch import fetch

    api.plan = ["stray:2601.00042"]
    got = list(fetch([SAMPLE], config(api), Cache(tmp_path)))
    assert got[0].meta is None and "not asked for (2601.00042)" in got[0].error
    assert not (tmp_path / "arxiv").exists()  # nothing cached


def test_match_answer_maps_answers_to_the_ids_asked():
    meta = ArxivMeta(title="T")
    assert match_answer(["math.GT/0309136", SAMPLE], {"math/0309136": meta}) == {"math.GT/0309136": meta}
    with pytest.raises(FetchError, match="more than once"):
        match_answer(["math.GT/0309136"], {"math/0309136": meta, "math.GT/0309136": meta})
    with pytest.raises(
        FetchError, match=r"not asked for \(2601.00001, 2601.00002, 2601.00003, 2601.00004, 2601.00005, …\)"
    ):
        match_answer([SAMPLE], {f"2601.{i:05d}": meta for i in range(1, 8)})


# --------------------------------------------------------------------------- size


def test_a_declared_oversized_answer_is_refused_before_reading(api):
    api.plan = [f"huge:{60 * MiB}"]
    started = time.monotonic()
    with pytest.raises(FetchError, match=r"larger than 1 MiB, the most accepted \(KB_ARXIV_MAX_BYTES\)"):
        get(api, max_bytes=MiB)
    assert time.monotonic() - started < 1 and len(api.requests) == 1


@pytest.mark.parametrize("kind", ["endless", "gzipbomb"])
def test_an_oversized_stream_is_cut_at_the_limit(api, kind):
    api.plan = [f"{kind}:{64 * MiB}"]
    tracemalloc.start()
    try:
        with pytest.raises(FetchError, match="larger than 1 MiB") as err:
            get(api, max_bytes=MiB)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * MiB, peak  # streamed: never the whole answer in memory
    assert "--batch-size" in str(err.value)


def test_the_default_limit_is_a_few_mebibytes():
    assert 4 * MiB <= FetchConfig().max_bytes <= 16 * MiB
    assert FetchConfig.from_env({"KB_ARXIV_MAX_BYTES": "2048"}).max_bytes == 2048
    with pytest.raises(ValueError, match="1024 bytes or more"):
        FetchConfig(max_bytes=10)


# --------------------------------------------------------------------------- cache records


def write_record(cache: Cache, base: str, **record) -> None:
    cache.path(base).parent.mkdir(parents=True, exist_ok=True)
    cache.path(base).write_text(json.dumps(record), "utf-8")


def now_iso(delta: dt.timedelta = dt.timedelta(0)) -> str:
    return (dt.datetime.now(dt.UTC) + delta).isoformat(timespec="seconds")


@pytest.mark.parametrize(
    "record",
    [
        {"id": SAMPLE, "fetched": now_iso(dt.timedelta(days=3650))},  # from the future: fresh forever
        {"id": SAMPLE, "fetched": now_iso(dt.timedelta(minutes=5))},
        {"id": SAMPLE, "fetched": dt.datetime.now().isoformat()},  # no time zone
        {"id": SAMPLE, "fetched": "yesterday"},
        {"id": SAMPLE, "fetched": 1788912000},
        {"id": "2608.20359", "fetched": now_iso()},  # a record for another id
        {"id": SAMPLE, "fetched": now_iso(), "format": 0},
    ],
)
def test_untrusted_records_are_treated_as_missing(tmp_path, record):
    cache = Cache(tmp_path)
    write_record(cache, SAMPLE, **{"format": 1, "meta": {"title": "Attacker title"}, **record})
    assert cache.get(SAMPLE, max_age=dt.timedelta(days=30)) is None
    assert cache.get(SAMPLE) is None


def test_a_good_record_is_used(tmp_path):
    cache = Cache(tmp_path)
    write_record(cache, SAMPLE, format=1, id=SAMPLE, fetched=now_iso(-dt.timedelta(days=1)), meta={"title": "T"})
    assert cache.get(SAMPLE, max_age=dt.timedelta(days=30)).title == "T"
    assert cache.get(SAMPLE, max_age=dt.timedelta(hours=1)) is None


@pytest.mark.parametrize("raw", [b"[" * 100_000, b" " * (2 * MiB) + b"{}", b"\xff\xfe\x00", b"[]"])
def test_hostile_files_are_treated_as_missing(tmp_path, raw):
    cache = Cache(tmp_path)
    cache.path(SAMPLE).parent.mkdir(parents=True)
    cache.path(SAMPLE).write_bytes(raw)
    assert cache.get(SAMPLE) is None


def test_fresh_caps_the_age_by_now():
    now = dt.datetime(2026, 9, 3, tzinfo=dt.UTC)
    assert fresh("2026-09-02T00:00:00+00:00", dt.timedelta(days=30), now)
    assert fresh("2026-09-03T00:00:00+00:00", dt.timedelta(0), now)
    assert not fresh("2026-09-03T00:00:01+00:00", None, now)
    assert not fresh("2126-09-03T00:00:00+00:00", dt.timedelta(days=30), now)
    assert not fresh("2026-07-01T00:00:00+00:00", dt.timedelta(days=30), now)


def test_refresh_ignores_a_committed_cache_entry_from_the_future(api, data_dir, run_kb, tmp_path):
    from kb.knowledge.load import load_kb

    cache = Cache(tmp_path / "cache")
    write_record(
        cache,
        SAMPLE,
        format=1,
        id=SAMPLE,
        fetched="2999-01-01T00:00:00+00:00",
        meta={"title": "Attacker title", "authors": ["Mallory"]},
    )
    code, out, err = run_kb("paper", "refresh", SAMPLE, "--data", data_dir)
    assert code == 0, err
    assert "1 fetched, 0 from cache" in out and len(api.requests) == 1
    meta = load_kb(data_dir).papers["retroinfer"].arxiv_meta
    assert meta.title.startswith("RetroInfer") and "Mallory" not in meta.authors
    record = json.loads(cache.path(SAMPLE).read_text("utf-8"))
    assert record["fetched"] < now_iso(dt.timedelta(minutes=1)) and record["meta"]["title"] == meta.title


@pytest.mark.parametrize("days", ["-1", "1e9", "nan"])
def test_max_age_out_of_range_is_a_user_error(data_dir, run_kb, days):
    code, _, err = run_kb("paper", "refresh", "--all", "--data", data_dir, "--max-age", days)
    assert code == 1 and err.startswith("error: --max-age must be between 0 and 36500 days")
