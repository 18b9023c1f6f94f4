"""Chart text is readable: every count drawn on a heat-table cell reaches 4.5:1 (WCAG AA)
against the cell, and darker cells mean more; the charts' interface words come from the
message catalogue (no Chinese literal left in the renderers' code)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from lxml import etree

from kb.render import charts

SRC = Path(charts.__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"


def test_heat_cells_counts_reach_aa_and_shades_grow_with_the_count():
    previous = None
    for top in (1, 2, 3, 6, 9, 40):
        lum = []
        for n in range(1, top + 1):
            fill = charts._shade(n, top)
            ink = charts._text_on(fill)
            assert charts._contrast(ink, fill) >= 4.5, (n, top, fill, ink)
            lum.append(charts._luminance(fill))
        assert lum == sorted(lum, reverse=True), top  # more is darker
        previous = lum
    assert previous


def test_fixture_chart_text_on_cells(sample_kb):
    svg = charts.increments_svg(sample_kb, "inference")
    root = etree.fromstring(svg.encode())
    cells = root.findall(f".//{SVG}g[@class='kb-cell']")
    assert cells
    for g in cells:
        rect, text = g.find(f"{SVG}rect"), g.find(f"{SVG}text")
        if text is not None:
            assert charts._contrast(text.get("fill"), rect.get("fill")) >= 4.5


def test_no_chinese_literals_in_the_renderers_code():
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for rel in ("render/charts.py", "render/feeds.py", "demos/render.py"):
        tree = ast.parse((SRC / rel).read_text("utf-8"))
        docstrings = {
            id(n.body[0].value)
            for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and n.body
            and isinstance(n.body[0], ast.Expr)
            and isinstance(n.body[0].value, ast.Constant)
        }
        found = [
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant)
            and isinstance(n.value, str)
            and id(n) not in docstrings
            and cjk.search(n.value)
        ]
        assert found == [], rel
