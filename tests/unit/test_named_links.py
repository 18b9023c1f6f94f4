"""The papers a record lists, linked in its text where it names them (kb.render.links.named)."""

from __future__ import annotations

import pytest

from kb.knowledge.load import load_kb
from kb.render.links import Linker, named, text
from sitebuild import FIXTURE_DATA

PAGE = Linker("briefs/inference/2026-09-09-e1.md")


@pytest.fixture(scope="module")
def kb():
    return load_kb(FIXTURE_DATA)


def test_the_first_use_of_the_name_is_linked(kb):
    html, unnamed = named(kb, PAGE, "与 FlexLLM 同属调度方向；FlexLLM 更早。", ["flexllm"])
    assert html == '与 <a href="../../papers/flexllm.md">FlexLLM</a> 同属调度方向；FlexLLM 更早。'
    assert unnamed == []


def test_a_paper_its_text_does_not_name_is_left_to_the_caller(kb):
    html, unnamed = named(kb, PAGE, "两者互补。", ["flexllm", "no-such-paper"])
    assert html == "两者互补。" and unnamed == ["flexllm"]  # an unknown id is the loader's to refuse


def test_an_id_that_links_the_page_already_is_enough(kb):
    value = "与 RetroInfer（arXiv:2505.02922）同属一个方向。"
    html, unnamed = named(kb, PAGE, value, ["retroinfer"])
    assert html == text(kb, PAGE, value) and html.count("papers/retroinfer.md") == 1 and unnamed == []


def test_a_name_inside_a_longer_word_or_an_id_is_not_the_name(kb):
    html, unnamed = named(kb, PAGE, "SSRx 与 SSR-2 都不是它；SSR 才是。", ["ssr"])
    assert html.count("<a ") == 1 and '<a href="../../papers/ssr.md">SSR</a> 才是' in html
    assert unnamed == []


def test_no_list_no_change(kb):
    value = "与 FlexLLM（arXiv:2505.02922）同属调度方向。"
    assert named(kb, PAGE, value, []) == (text(kb, PAGE, value), [])
