"""A macro call's output goes only where text goes (kb.render.placement): the check the build runs
on the converted page and kb validate runs on its own conversion of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.data.pages import body_start, template_diagnostics
from kb.render.macros import MACROS
from kb.render.placement import Placeholders, misplaced, page_diagnostics
from sitebuild import FIXTURE, ROOT

MKDOCS_YML = ROOT / "mkdocs.yml"


@pytest.fixture
def slots():
    made = Placeholders("kbtest0123")
    for _ in range(2):
        made.add("<p>macro</p>")
    return made


@pytest.mark.parametrize(
    ("html", "where"),
    [
        ('<p><a title="kbtest0123x0x">a</a></p>', "in the attribute 'title' of <a>"),
        ('<h2 id="kbtest0123x0x">kbtest0123x0x</h2>', "in the attribute 'id' of <h2>"),
        ("<kbtest0123x0x>", "in an HTML tag's name"),
        ("<p kbtest0123x0x>", "in an attribute name of <p>"),
        ("<!-- kbtest0123x0x -->", "in an HTML comment"),
        ("<script>kbtest0123x0x</script>", "in a <script> element"),
        ("<p>nothing</p>", "nowhere in the converted page"),
        ("<p>kbtest0123x0x kbtest0123x0x</p>", "2 times"),
    ],
)
def test_a_placeholder_outside_text_is_found(slots, html, where):
    wrong = misplaced(html + "<p>kbtest0123x1x</p>", slots, 2)
    assert list(wrong) == [0] and wrong[0].startswith(where), wrong


def test_placeholders_in_text_pass(slots):
    assert misplaced("<p>kbtest0123x0x</p><table><td><code>kbtest0123x1x</code></td></table>", slots, 2) == {}


@pytest.mark.parametrize("page", ["index.md", "inference.md"])
def test_the_template_pages_of_the_project_and_fixture_pass(page):
    for docs in (ROOT / "docs", FIXTURE / "docs"):
        text = (docs / page).read_text("utf-8")
        calls, _ = template_diagnostics(text, page, MACROS)
        assert page_diagnostics(text, body_start(text), page, calls, MKDOCS_YML) == []


def test_validate_locates_a_call_in_an_attribute():
    text = 'intro\n\n<a href="#x" title="{{ citation_count() }}">x</a>\n'
    calls, _ = template_diagnostics(text, "docs/x.md", MACROS)
    [d] = page_diagnostics(text, 0, "docs/x.md", calls, Path(MKDOCS_YML))
    assert d.text().startswith(
        "docs/x.md:3:21: citation_count(): its output would land in the attribute 'title' of <a>"
    )


def test_placeholders_take_a_paragraphs_place_or_stand_inline():
    slots = Placeholders("kbhtmlabc")
    block, inline = slots.add("<div>block</div>"), slots.add("42")
    converted = f"<p>{block}</p>\n<p>共 {inline} 篇</p>"
    assert slots.swap(converted) == "<div>block</div>\n<p>共 42 篇</p>"


def test_inline_output_alone_in_a_paragraph_keeps_the_paragraph():
    slots = Placeholders("kbhtmlabc")
    token = slots.add('约 432 条 <a href="x">arXiv</a>')
    converted = f"<p>{token}</p>"
    assert slots.swap(converted) == '<p>约 432 条 <a href="x">arXiv</a></p>'


def test_many_placeholders_do_not_clash():
    slots = Placeholders("kbhtmlabc")
    tokens = [slots.add(f"<i>{i}</i>") for i in range(12)]
    assert slots.swap(" ".join(tokens)) == " ".join(f"<i>{i}</i>" for i in range(12))
