"""Which Pagefind binary indexes the site (kb.site.search_index._binary): the one Pagefind's own
Python API would run, ``PAGEFIND_BINARY_PATH`` first, found without loading that API (its module
loads asyncio: 16 ms of CPU in each process that runs Pagefind)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kb.site import search_index


def test_the_binary_is_the_one_pagefinds_api_runs(monkeypatch):
    monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    from pagefind.service import get_executable

    api = get_executable()
    assert api is not None
    assert search_index._binary() == Path(api)
    assert search_index._binary().name == "pagefind_extended"  # the build that segments Chinese


def test_a_binary_named_in_the_environment_comes_first(monkeypatch, tmp_path):
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "pagefind"))
    assert search_index._binary() == tmp_path / "pagefind"


def test_without_the_extended_build_the_error_says_what_to_install(monkeypatch):
    monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    monkeypatch.setitem(sys.modules, "pagefind_bin_extended", None)  # import fails
    with pytest.raises(RuntimeError, match=r"pip install 'pagefind\[extended\]'"):
        search_index._binary()


def test_finding_it_loads_no_event_loop():
    code = (
        "import sys\n"
        "from kb.site.search_index import _binary, _bundle_name\n"
        "_binary(), _bundle_name()\n"
        "print([m for m in ('asyncio', 'ssl', 'pagefind.service') if m in sys.modules])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PAGEFIND_BINARY_PATH"}
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert run.stdout.strip() == "[]"
