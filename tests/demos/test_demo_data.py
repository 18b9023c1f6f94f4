"""The declared demos in data/demos/: valid, linked to real records, one per kernel at least."""

from __future__ import annotations

import pytest

from demopage import KERNELS
from kb.data.loader import load
from kb.knowledge.load import build
from sitebuild import FIXTURE_DATA

DATA = FIXTURE_DATA


@pytest.fixture(scope="module")
def kb():
    return build(load(DATA))


def test_demo_files_load_without_diagnostics(kb):
    assert kb.demos, "no data/demos/*.yaml"
    about_demos = [d for d in kb.diagnostics if "/demos/" in str(d.path).replace("\\", "/")]
    assert about_demos == []


def test_every_kernel_is_demonstrated(kb):
    assert {d.kernel for d in kb.demos.values()} == set(KERNELS)


def test_links_resolve(kb):
    for demo in kb.demos.values():
        assert demo.papers or demo.sections, f"{demo.id} is placed nowhere"
        for p in demo.papers:
            assert p in kb.papers
        for s in demo.sections:
            assert kb.find_section(s) is not None


def test_attention_demo_ties_to_sparse_attention_papers(kb):
    attn = [d for d in kb.demos.values() if d.kernel == "attention-decode"]
    assert any({"retroinfer", "crisp"} <= set(d.papers) for d in attn)
