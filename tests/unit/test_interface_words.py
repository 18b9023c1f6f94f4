"""Interface words come from one message catalogue (kb.messages): the theme overrides and
the page scripts write none of their own, and every word a script asks for is in the catalogue."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from kb.messages import UI, script_words
from kb.site.theme import ASSETS, words_script
from kb.site.theme import TEMPLATES as THEME_TEMPLATES

ROOT = Path(__file__).resolve().parents[2]
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uff01-\uff5e\u3001-\u3011]")
JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.S)
SCRIPTS = sorted(ASSETS.glob("*.js"))  # the theme the kb package brings (kb.site.theme)
TEMPLATES = sorted(THEME_TEMPLATES.rglob("*.html"))


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
    words = {**script_words(), "search.types": [], "search.dialog": ""}  # the plugin adds these (kb.site.theme)
    assert len(asked) >= 8 and asked - words.keys() == set()


def test_templates_ask_only_for_catalogued_words():
    asked = {
        key for path in TEMPLATES for key in re.findall(r"""kb_ui\[["']([a-z_.]+)["']\]""", path.read_text("utf-8"))
    }
    assert asked and asked - UI.keys() == set()


# Python renderers, the knowledge index and the site adapter: no Chinese word in a string literal
# (docstrings and comments are not interface text).  Full-width punctuation between catalogued
# words (、：；（）) may stay inline.
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
RENDERERS = [p for p in sorted((ROOT / "src" / "kb" / "render").glob("*.py")) if not p.name.startswith("messages")]
EDITIONS = sorted((ROOT / "src" / "kb" / "editions").glob("*.py"))
# the knowledge index names the places of mentions (a backlink's 位置), the site adapter what it adds
KNOWLEDGE = sorted((ROOT / "src" / "kb" / "knowledge").rglob("*.py"))
SITE = sorted((ROOT / "src" / "kb" / "site").rglob("*.py"))
# (file, literal): why it stays in the code
ALLOWED: dict[tuple[str, str], str] = {
    ("knowledge/findings/brief.py", r"(\d+)\s*(?:日|天|days?)"): "reads the author's window: data",
    ("knowledge/views.py", "The round's character (本棒性质), as written."): "the API schema's: its word",
}


def _string_literals(tree: ast.AST) -> list[ast.Constant]:
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_renderers_write_no_words_of_their_own():
    found = []
    for path in RENDERERS + EDITIONS + KNOWLEDGE + SITE:
        name = path.relative_to(ROOT / "src" / "kb").as_posix()
        for node in _string_literals(ast.parse(path.read_text("utf-8"))):
            if HAN.search(node.value) and (name, node.value) not in ALLOWED:
                found.append(f"{name}:{node.lineno}: {node.value[:40]!r}")
    assert len(RENDERERS) >= 12 and len(EDITIONS) >= 3 and len(KNOWLEDGE) >= 10 and len(SITE) >= 10 and found == []


def test_the_allowlist_is_still_needed():
    literals = {
        (path.relative_to(ROOT / "src" / "kb").as_posix(), node.value)
        for path in RENDERERS + EDITIONS + KNOWLEDGE + SITE
        for node in _string_literals(ast.parse(path.read_text("utf-8")))
    }
    assert set(ALLOWED) <= literals


def test_every_other_name_belongs_to_one_term():
    """The header search asks for each name of a term (kb-search.js): a name in two groups would
    join unrelated terms."""
    from kb.messages import SYNONYMS

    names = [name.lower() for group in SYNONYMS for name in group]
    assert all(len(group) >= 2 for group in SYNONYMS)
    assert len(names) == len(set(names))


def test_a_terms_index_word_is_made_alike_in_the_page_and_in_the_search():
    """kb-search.js makes a term's index word from its first name as kb.site.search.words does:
    lower case, letters and digits of a Latin name."""
    from kb.messages import SYNONYMS
    from kb.site.search.words import term_word

    for group in SYNONYMS:
        assert group[0].isascii(), group  # the word is made of its first name
        assert term_word(group) == "kbsyn" + re.sub(r"[^0-9a-z]", "", group[0].lower())


def test_the_words_script_carries_the_words_the_pages_do_not():
    """The site's assets/kb-words.js is the theme's with the words written in (kb.site.theme.words_script);
    the templates no longer put them in every page."""
    made = words_script({"tables.sort": "按此列排序", "search.types": ["简报"]})
    assert 'var words = {"search.types": ["简报"], "tables.sort": "按此列排序"};' in made
    source = (ASSETS / "kb-words.js").read_text("utf-8")
    assert made.partition("var words = ")[0] == source.partition("var words = ")[0]  # the code as it is
    assert not any('id="kb-words"' in path.read_text("utf-8") for path in TEMPLATES)
