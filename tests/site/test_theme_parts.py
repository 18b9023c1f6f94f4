"""Theme parts made once per build (kb.site.theme, partials/kb-memo.html) and pages
rendered into frames (kb.site.plugin.frame, partials/kb-slot.html) change no byte: the site
equals one built with every part made for each page and every page rendered in full, and the parts
and frames are reused."""

from __future__ import annotations

import re

from kb.site.theme import TEMPLATES
from sitebuild import build, built_files, copy_project, override

# remember(part) as a plain pass-through: every page makes every part itself
EACH_PAGE = "{% macro remember(part) -%}{{ caller() }}{%- endmacro %}\n"
# slot(name) as a plain pass-through: a frame has no marks for a page's tables of contents, so no
# frame gives the page the template gives, and every page is rendered in full
IN_FULL = "{% macro slot(name) -%}{{ caller() }}{%- endmacro %}\n"


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
    assert "kb_keep(" in (TEMPLATES / "partials" / "kb-memo.html").read_text("utf-8")
    override(each, "partials/kb-memo.html", EACH_PAGE)  # the project's own, before the package's
    assert "kb_slot(" in (TEMPLATES / "partials" / "kb-slot.html").read_text("utf-8")
    override(each, "partials/kb-slot.html", IN_FULL)
    off = {"KB_CACHE": "off"}
    made_once = build(tmp_path / "site-once", env_extra=off, project=once)
    assert made_once.returncode == 0, made_once.stderr
    made_each = build(tmp_path / "site-each", env_extra=off, project=each)
    assert made_each.returncode == 0, made_each.stderr

    m = re.search(r"theme parts: (\d+) made, (\d+) reused", made_once.stderr)
    assert m, made_once.stderr
    made, reused = int(m.group(1)), int(m.group(2))
    briefs = len(list((tmp_path / "site-once" / "briefs").rglob("index.html"))) - 1  # not the index
    papers = len(list((tmp_path / "site-once" / "papers").rglob("index.html"))) - 1
    # a frame for each kind of page outside the nav: the briefs of the one topic, the papers, the
    # three hand-written pages' folders, the timeline, the week pages and the index of weeks; the first
    # page of each is rendered in full, the others filled in
    m = re.search(r"theme frames: (\d+) made, 0 refused, (\d+) pages filled, (\d+) rendered in full", made_once.stderr)
    assert m, made_once.stderr
    frames, filled, in_full = map(int, m.groups())
    assert frames == 8 and filled + in_full == briefs + papers + 6 and in_full == frames, m.group(0)
    assert filled > briefs
    # pages whose tables of contents are the same share them (most paper pages): the equal site below
    # shows that what they share is what each would make
    m = re.search(r"\((\d+) tables of contents reused\)", made_once.stderr)
    assert m and 0 < int(m.group(1)) < filled + in_full, made_once.stderr
    # eight parts (logo, nav, tabs, palette, search, stylesheets, the scripts' settings, scripts) for each
    # kind, made by its first page; its frame and every page rendered in full after it reuse them
    assert made == 8 * frames and reused == 8 * in_full
    assert "theme parts: 0 made, 0 reused" in made_each.stderr
    m = re.search(r"theme frames: 0 made, (\d+) refused, 0 pages filled, (\d+) rendered in full", made_each.stderr)
    assert m and int(m.group(1)) == frames and int(m.group(2)) == filled + in_full, made_each.stderr

    built, expected = built_files(tmp_path / "site-once"), built_files(tmp_path / "site-each")
    assert {"aside/note/index.html", "aside/more/deep/index.html", "guide/faq/index.html"} <= built.keys()
    assert built.keys() == expected.keys()
    differ = [name for name in built if built[name] != expected[name]]
    assert not differ, differ[:5]
