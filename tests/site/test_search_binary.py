"""Which Pagefind indexes the site (kb.site.search.index): its command line as its Python package
documents it (``python -m pagefind``), which runs the extended build (Chinese segmentation) when it
is installed, ``PAGEFIND_BINARY_PATH`` first; without the extended build the error says what to
install."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kb.site.search import index as search_index


def test_the_command_line_runs_the_extended_build_of_the_pinned_version(monkeypatch):
    monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    from pagefind.service import get_executable  # what `python -m pagefind` runs

    found = get_executable()
    assert found is not None and found.name == "pagefind_extended"
    run = subprocess.run([sys.executable, "-m", "pagefind", "--version"], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "pagefind 1.5.2"  # the version pyproject.toml pins


def test_without_the_extended_build_the_error_says_what_to_install(monkeypatch, tmp_path):
    monkeypatch.delenv("PAGEFIND_BINARY_PATH", raising=False)
    monkeypatch.setitem(sys.modules, "pagefind_bin_extended", None)  # as if not installed
    with pytest.raises(RuntimeError, match=r"pip install 'pagefind\[extended\]'"):
        search_index.index_site(tmp_path)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "pagefind"))  # another, named: not refused
    search_index.require_extended()
