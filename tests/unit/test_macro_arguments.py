"""Macro arguments are checked in one place (kb.render.macros.problems), which kb validate and the
build both run: types, ranges, and that the topic, section or brief named exists."""

from __future__ import annotations

import pytest

from kb.data.pages import template_diagnostics
from kb.data.template import Call
from kb.render.macros import MACROS, problems
from kb.render.macros import diagnostics as macro_diagnostics
from sitebuild import FIXTURE

TOPIC = "inference"


def call(name, *args, **kwargs):
    return Call(0, 0, name, args, tuple(kwargs.items()))


@pytest.mark.parametrize(
    ("made", "expected"),
    [
        (call("section", "s1", topic_id="../../x"), "unknown topic '../../x'"),
        (call("citation_count", topic_id="../../x"), "unknown topic '../../x'"),
        (call("latest_briefs", 999999999), "limit must be an integer from 1 to 100, not 999999999"),
        (call("latest_briefs", 0), "limit must be an integer from 1 to 100, not 0"),
        (call("latest_briefs", True), "limit must be an integer from 1 to 100, not True"),
        (call("latest_briefs", "5"), "limit must be an integer from 1 to 100, not '5'"),
        (call("section", 5), "section_id must be a string, not 5"),
        (call("section", None), "section_id must be a string, not None"),
        (call("section", "no-such-section"), "unknown section 'no-such-section' in topic 'inference'"),
        (call("anchored_papers", "no-such-section"), "unknown section 'no-such-section'"),
        (call("brief", "../../etc/passwd"), "unknown brief '../../etc/passwd'"),
        (call("section"), "missing a required argument: 'section_id'"),
    ],
)
def test_arguments_the_build_would_refuse_are_named(sample_kb, made, expected):
    found = problems(sample_kb, TOPIC, made)
    assert any(expected in p for p in found), found


@pytest.mark.parametrize(
    "made",
    [
        call("section", "s1-3-kv-cache"),
        call("section", "s1", topic_id="inference"),
        call("anchored_papers"),
        call("latest_briefs"),
        call("latest_briefs", 100),
        call("brief", "inference/2026-09-01-e1"),
        call("unsectioned", topic_id=None),
    ],
)
def test_good_arguments_pass(sample_kb, made):
    assert problems(sample_kb, TOPIC, made) == []


@pytest.mark.parametrize("page", ["index.md", "inference.md"])
def test_the_template_pages_of_the_fixture_pass(sample_kb, page):
    text = (FIXTURE / "docs" / page).read_text("utf-8")
    calls, errors = template_diagnostics(text, page, MACROS)
    assert calls and errors == []
    assert macro_diagnostics(text, page, calls, sample_kb, TOPIC) == []


def test_a_refused_argument_is_located_at_its_call(sample_kb):
    text = "intro\n\n  {{ latest_briefs(999999999) }}\n"
    calls, _ = template_diagnostics(text, "docs/x.md", MACROS)
    [d] = macro_diagnostics(text, "docs/x.md", calls, sample_kb, TOPIC)
    assert d.text().startswith("docs/x.md:3:3: latest_briefs(999999999): limit must be an integer")
