"""Killing ``kb paper refresh`` at any moment leaves every paper and cache file valid
and every hand-written byte in place.

The command runs in a subprocess against a slow fake API (one id per request,
every answer different, so every answer is a write) and is SIGKILLed: at random
moments, and deterministically in the middle of the k-th atomic write (after
the temporary file is written, before the rename; and before its fsync).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from ownedblock import without_block

from kb.data import paperfile
from kb.data.loader import load
from kb.data.models import ArxivMeta

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

# Run kb; optionally SIGKILL ourselves when os.<hook> is called for the k-th time.
LAUNCH = """
import os, signal, sys
hook, k = os.environ.get("KILL_HOOK"), int(os.environ.get("KILL_AT", "0"))
if hook:
    real, calls = getattr(os, hook), [0]
    def trap(*a, **kw):
        calls[0] += 1
        if calls[0] == k:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(*a, **kw)
    setattr(os, hook, trap)
from kb.cli import main
sys.exit(main())
"""

HAND_MADE = (
    "# RetroInfer: hand-written, with comments\n"
    "id: retroinfer\n"
    "arxiv: '2505.02922'   # quoted on purpose\n"
    "arxiv_meta:\n"
    "  title: stale\n"
    "# the rest is mine\n"
    'short: "RetroInfer"\n'
    "notes:\n"
    "  - keep me\n"
)


@pytest.fixture
def slow_api(api):
    api.slow = 0.02
    api.stamp = True
    return api


def snapshot(data_dir):
    return {p.name: without_block(p.read_text("utf-8")) for p in sorted((data_dir / "papers").glob("*.yaml"))}


def assert_all_valid(data_dir, cache_dir, hand_written):
    loaded = load(data_dir)
    assert not [d for d in loaded.diagnostics if d.is_error], [d.text() for d in loaded.diagnostics]
    assert len(loaded.papers) == len(hand_written)
    assert snapshot(data_dir) == hand_written  # hand-written bytes intact
    for path in (cache_dir / "arxiv").glob("*.json") if (cache_dir / "arxiv").is_dir() else ():
        record = json.loads(path.read_text("utf-8"))
        ArxivMeta.model_validate(record["meta"])


def launch(data_dir, api, cache_dir, **env_extra) -> subprocess.Popen:
    env = {
        **os.environ,
        "KB_ARXIV_API_URL": api.url,
        "KB_CACHE_DIR": str(cache_dir),
        "KB_ARXIV_DELAY": "0",
        **env_extra,
    }
    argv = [
        sys.executable,
        "-c",
        LAUNCH,
        "paper",
        "refresh",
        "--all",
        "--data",
        str(data_dir),
        "--batch-size",
        "1",
        "--refetch",
        "--quiet",
    ]
    return subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def test_random_kills_leave_valid_files(slow_api, data_dir, tmp_path):
    (data_dir / "papers" / "retroinfer.yaml").write_text(HAND_MADE, "utf-8")
    hand_written = snapshot(data_dir)
    cache_dir = tmp_path / "killcache"
    rng = random.Random(20260903)
    killed = 0
    for _ in range(5):
        seen = len(slow_api.requests)
        proc = launch(data_dir, slow_api, cache_dir)
        deadline = time.monotonic() + 20
        while len(slow_api.requests) == seen and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.35))
        proc.kill()
        killed += proc.wait() == -signal.SIGKILL
        assert_all_valid(data_dir, cache_dir, hand_written)
    assert killed >= 3  # most runs really died part-way
    done = launch(data_dir, slow_api, cache_dir)
    assert done.wait(timeout=60) == 0, done.stderr.read().decode()
    assert_all_valid(data_dir, cache_dir, hand_written)
    text = (data_dir / "papers" / "retroinfer.yaml").read_text("utf-8")
    assert "stale" not in text and paperfile.current_meta(text).title.startswith("RetroInfer")


@pytest.mark.parametrize("hook, k", [("replace", 1), ("replace", 4), ("replace", 9), ("fsync", 3), ("fsync", 8)])
def test_kill_in_the_middle_of_a_write(slow_api, data_dir, tmp_path, hook, k):
    (data_dir / "papers" / "retroinfer.yaml").write_text(HAND_MADE, "utf-8")
    hand_written = snapshot(data_dir)
    before = {p.name: p.read_bytes() for p in (data_dir / "papers").glob("*.yaml")}
    cache_dir = tmp_path / "killcache"
    proc = launch(data_dir, slow_api, cache_dir, KILL_HOOK=hook, KILL_AT=str(k))
    assert proc.wait(timeout=60) == -signal.SIGKILL
    assert_all_valid(data_dir, cache_dir, hand_written)
    after = {p.name: p.read_bytes() for p in (data_dir / "papers").glob("*.yaml")}
    changed = sum(before[n] != after[n] for n in before)
    assert changed < len(before)  # it really died part-way
    leftovers = [p.name for p in (data_dir / "papers").iterdir() if p.name.startswith(".")]
    assert all(name.endswith(".tmp") for name in leftovers)  # at most a dot-file the loader skips
