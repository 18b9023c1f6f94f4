"""Theme parts made once per build (kb.site.theme, overrides/partials/kb-memo.html) change no byte:
the site equals one built with every part made for each page, and the parts are reused."""

from __future__ import annotations

import re

from sitebuild import build, built_files, copy_project

# remember(part) as a plain pass-through: every page makes every part itself
EACH_PAGE = "{% macro remember(part) -%}{{ caller() }}{%- endmacro %}\n"


def with_aside(project):
    """Hand-written pages outside the nav under no index page: one at the depth of the paper pages
    (its nav has no active tab, theirs has 论文's), one deeper (its links climb one more level), and
    one at the first one's depth in a folder the nav uses (guide/: its link to 如何使用 is ../)."""
    (project / "docs" / "aside" / "more").mkdir(parents=True)
    (project / "docs" / "aside" / "note.md").write_text("# 旁注\n\n不在导航里的一页。\n", "utf-8")
    (project / "docs" / "aside" / "more" / "deep.md").write_text("# 更深\n\n再深一层。\n", "utf-8")
    (project / "docs" / "guide").mkdir()
    (project / "docs" / "guide" / "faq.md").write_text("# 常见问题\n\n指南旁边的一页。\n", "utf-8")
    config = project / "mkdocs.yml"
    text = config.read_text("utf-8")
    assert "\nnot_in_nav: |\n" in text
    config.write_text(text.replace("\nnot_in_nav: |\n", "\nnot_in_nav: |\n  /aside/*\n  /guide/faq.md\n"), "utf-8")
    return project


def test_parts_made_once_equal_parts_made_for_each_page(tmp_path):
    once = with_aside(copy_project(tmp_path / "once"))
    each = with_aside(copy_project(tmp_path / "each"))
    memo = each / "overrides" / "partials" / "kb-memo.html"
    assert "kb_keep(" in memo.read_text("utf-8")
    memo.write_text(EACH_PAGE, "utf-8")
    off = {"KB_CACHE": "off"}
    made_once = build(tmp_path / "site-once", env_extra=off, project=once)
    assert made_once.returncode == 0, made_once.stderr
    made_each = build(tmp_path / "site-each", env_extra=off, project=each)
    assert made_each.returncode == 0, made_each.stderr

    m = re.search(r"theme parts: (\d+) made, (\d+) reused", made_once.stderr)
    assert m, made_once.stderr
    made, reused = int(m.group(1)), int(m.group(2))
    briefs = len(list((tmp_path / "site-once" / "briefs").rglob("index.html")))
    # eight parts (logo, nav, tabs, palette, search, stylesheets, the scripts' settings, scripts) for each
    # group of pages outside the nav: the briefs of the one topic, the papers, and the three hand-written
    # pages' folders; every other brief and paper reuses them
    assert made == 8 * 5 and reused > 8 * briefs
    assert "theme parts: 0 made, 0 reused" in made_each.stderr

    built, expected = built_files(tmp_path / "site-once"), built_files(tmp_path / "site-each")
    assert {"aside/note/index.html", "aside/more/deep/index.html", "guide/faq/index.html"} <= built.keys()
    assert built.keys() == expected.keys()
    differ = [name for name in built if built[name] != expected[name]]
    assert not differ, differ[:5]
