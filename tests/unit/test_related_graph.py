"""The drawing of a neighbourhood (kb.render.related.graph_svg): every node inside it, and no empty
band above or below its nodes, however few they are."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from kb.render.related import FONT, RADIUS, Node, graph_svg

SVG = "{http://www.w3.org/2000/svg}"


def drawn(count: int) -> tuple[float, list[tuple[float, float]]]:
    nodes = [Node("RetroInfer", None, "")] + [Node(f"P{i}", f"../p{i}/", f"P{i}") for i in range(count)]
    edges = [(0, i, 5) for i in range(1, len(nodes))]
    root = ET.fromstring(str(graph_svg("g", "t", "d", nodes, edges)).replace("<svg", f'<svg xmlns="{SVG[1:-1]}"', 1))
    height = float(root.get("height"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return height, [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")]


@pytest.mark.parametrize("count", [1, 2, 3, 8])
def test_the_nodes_fill_the_drawing_from_top_to_bottom(count: int):
    height, circles = drawn(count)
    ys = [y for _, y in circles]
    assert len(circles) == count + 1
    assert min(ys) - RADIUS >= 0 and max(ys) + RADIUS <= height
    assert min(ys) - RADIUS <= FONT + 1  # no empty band above the top node
    assert height - (max(ys) + RADIUS) <= 2 * FONT + 3  # below it, room for the middle one's label only


def test_a_lone_neighbour_sits_beside_the_paper():
    height, [(x0, y0), (x1, y1)] = drawn(1)
    assert y1 == y0 and x1 > x0
    assert height < 3 * (2 * RADIUS + FONT)  # one line of nodes, not a square with its top half empty
