"""Interface words come from one message catalogue (kb.render.messages): the theme overrides and
the page scripts write none of their own, and every word a script asks for is in the catalogue."""

from __future__ import annotations

import re
from pathlib import Path

from kb.render.messages import UI, script_words

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e\u3001-\u3011]")
JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)
SCRIPTS = sorted((ROOT / "docs" / "assets").glob("*.js"))
TEMPLATES = sorted((ROOT / "overrides").rglob("*.html"))


def test_scripts_and_templates_write_no_words_of_their_own():
    found = {}
    for path in SCRIPTS + TEMPLATES:
        text = path.read_text("utf-8")
        code = (JS_COMMENT if path.suffix == ".js" else JINJA_COMMENT).sub("", text)
        words = CJK.findall(code)
        if words:
            found[path.relative_to(ROOT).as_posix()] = "".join(words)[:40]
    assert SCRIPTS and TEMPLATES and found == {}


def test_every_word_a_script_asks_for_is_in_the_catalogue():
    asked = {key for path in SCRIPTS for key in re.findall(r'kbWords?\("([^"]+)"', path.read_text("utf-8"))}
    asked.discard("")  # kbWord("") only loads them
    words = {**script_words(), "search.types": []}  # the plugin adds the result types
    assert len(asked) >= 8 and asked - words.keys() == set()


def test_templates_ask_only_for_catalogued_words():
    asked = {
        key for path in TEMPLATES for key in re.findall(r"""kb_ui\[["']([a-z_.]+)["']\]""", path.read_text("utf-8"))
    }
    assert asked and asked - UI.keys() == set()
