"""Related papers (:mod:`kb.knowledge.related`) drawn and listed.

* :func:`paper_section` — a paper page's 相关论文: its neighbourhood as a graph, then the same
  papers as a ranked list, each with its score and its reasons (the ties, each linked to where a
  brief records it).  The list is the graph's content for screen readers.
* :func:`section_part` — a section's neighbourhood on its timeline (:mod:`kb.render.timeline`):
  the graph, and each paper with the papers it is joined to as a list.

The graphs are static SVG made here (:func:`graph_svg`): a fixed layout (the centre paper in the
middle, the others on an ellipse in rank order), each node a real link (Tab, Enter and a tap work
without a script), its colours Material's variables (kb.css: both schemes) and a focus ring.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.knowledge.related import BRIEF_CAP, WEIGHTS, Reason, Related, Tie, related_to, section_graph, spelled
from kb.messages import t
from kb.render.html import Html, a, blocks, div, el, esc, heading, ol, p, span, t_html, ul
from kb.render.links import Linker, paper_link, section_link

ANCHOR = "related"
WIDTH, FONT, RADIUS = 360, 12, 7
RX = 60.0  # the ring's half width


@dataclass(frozen=True)
class Node:
    label: str
    href: str | None  # None: the page's own paper (not a link)
    tip: str


def graph_svg(ident: str, title: str, desc: str, nodes: Sequence[Node], edges: Sequence[tuple[int, int, int]]) -> Html:
    """Nodes on an ellipse (the first in the middle when it has no link: the page's own paper);
    ``edges``: (node, node, score), drawn thicker the higher the score."""
    centre = bool(nodes) and nodes[0].href is None
    ring = list(range(1 if centre else 0, len(nodes)))
    rx, ry = RX, min(110.0, 50.0 + 6 * len(ring))
    turn = 0.5 if len(ring) > 1 else 0.25  # a lone neighbour beside the middle, not under it
    at: dict[int, tuple[float, float]] = {0: (0.0, 0.0)} if centre else {}
    for k, i in enumerate(ring):
        angle = 2 * math.pi * (k + turn) / len(ring)
        at[i] = (rx * math.sin(angle), -ry * math.cos(angle))
    # As tall as the nodes are (a few neighbours sit on one line): a node's circle above, and the
    # middle one's label under it.
    ys = [y for _, y in at.values()] or [0.0]
    top = min(ys) - RADIUS - FONT
    height = round(max(ys) + RADIUS + 2 * FONT + 2 - top)
    at = {i: (WIDTH / 2 + x, y - top) for i, (x, y) in at.items()}
    body = [el("title", esc(title), id=f"{ident}-t"), el("desc", esc(desc), id=f"{ident}-d")]
    strokes: dict[str, str] = {}  # the edges of one width as one path
    for i, j, score in edges:
        (x1, y1), (x2, y2) = at[i], at[j]
        strokes[_w(score)] = strokes.get(_w(score), "") + f"M{x1:.0f} {y1:.0f}L{x2:.0f} {y2:.0f}"
    body += [el("path", "", d=d, stroke_width=w) for w, d in sorted(strokes.items())]
    for i, node in enumerate(nodes):
        x, y = at[i]
        body.append(_node(node, x, y, i == 0 and centre))
    return el(
        "svg",
        "".join(body),
        "kb-graph",
        width=WIDTH,
        height=height,
        viewBox=f"0 0 {WIDTH} {height}",
        role="group",
        aria_labelledby=f"{ident}-t",
        aria_describedby=f"{ident}-d",
        font_size=FONT,
    )


def _w(score: int) -> str:
    return str(min(1 + score // 4, 5))


def _node(node: Node, x: float, y: float, middle: bool) -> Html:
    """A circle and its label: beside it, away from the middle, cut to the room left before the
    edge of the drawing; the middle one's under it, cut to the room between the ring's circles
    (a neighbour may sit just below the middle: the page's title says the paper's name whole)."""
    if middle:
        room, anchor, tx, ty = 2 * (RX - RADIUS - 4), "middle", x, y + RADIUS + FONT + 2
    elif x >= WIDTH / 2:
        room, anchor, tx, ty = WIDTH - x - RADIUS - 8, "start", x + RADIUS + 4, y + FONT / 3
    else:
        room, anchor, tx, ty = x - RADIUS - 8, "end", x - RADIUS - 4, y + FONT / 3
    label = _fit(node.label, room)
    inner = el("circle", "", cx=f"{x:.0f}", cy=f"{y:.0f}", r=RADIUS)
    inner += el("text", esc(label), x=f"{tx:.0f}", y=f"{ty:.0f}", text_anchor=anchor if anchor != "start" else None)
    if node.href is None:
        return el("g", inner, "kb-self")
    return a(inner, node.href, aria_label=node.tip)  # its name: the label may be cut


def _fit(label: str, room: float) -> str:
    """``label``, cut with "…" to about ``room`` pixels (CJK characters 1em wide, the rest 0.6em)."""
    used, out = 0.0, ""
    for c in label:
        used += (1.0 if ord(c) >= 0x2E80 else 0.6) * FONT
        if used > room - FONT:
            return out.rstrip() + "…"
        out += c
    return out


# --------------------------------------------------------------------------- a paper's related papers


def paper_section(kb: KnowledgeBase, linker: Linker, paper: str) -> Html:
    """The paper page's 相关论文 (nothing when no brief puts another paper beside it)."""
    found = related_to(kb, paper)
    if not found:
        return ""
    me = kb.papers[paper]
    nodes = [Node(me.short, None, me.short)]
    for r in found:
        other = kb.papers[r.paper]
        tip = t("related.node_tip", paper=other.short, n=r.score)
        nodes.append(Node(other.short, linker.href(paper_page(r.paper)), tip))
    edges = [(0, i, r.score) for i, r in enumerate(found, 1)]
    title = t("related.graph_title", paper=me.short)
    svg = graph_svg("kb-related", title, t("related.graph_desc"), nodes, edges)  # one a page
    intro = t(
        "related.intro",
        **{r.value: str(WEIGHTS[r]) for r in Reason},
        cap=str(BRIEF_CAP),
    )
    rows = [_row(kb, linker, r) for r in found]
    body = blocks(p(esc(intro)), div(svg, "kb-graph-box"), ol(rows))
    return blocks(heading(2, esc(t("related.heading")), ANCHOR), div(body, "kb-related"))


def made_from(kb: KnowledgeBase, paper: str) -> tuple[object, ...]:
    """What :func:`paper_section` shows (the paper page's inputs, :mod:`kb.site.pages.paper`): the
    related papers with their ties, their names, the claims the ties name (the sections' names
    come with the topics, which every page is made from)."""
    found = related_to(kb, paper)
    claims = {tie.where for r in found for tie in r.of(Reason.claim)}
    return (
        spelled(kb, paper),  # one object while kb preview carries the list: compared at once
        [kb.papers[r.paper].short for r in found],
        [(c, s.claim.title, s.brief, s.index) for c in sorted(claims) if (s := kb.claims.get(*c)) is not None],
    )


def _row(kb: KnowledgeBase, linker: Linker, r: Related) -> Html:
    reasons = [_reason(kb, linker, reason, r.of(reason)) for reason in Reason if r.of(reason)]
    score = span(esc(t("related.score", n=r.score)), "kb-related-score")
    return f"{paper_link(kb, linker, r.paper)} {score}：{'；'.join(reasons)}"


def _reason(kb: KnowledgeBase, linker: Linker, reason: Reason, ties: tuple[Tie, ...]) -> Html:
    if reason is Reason.brief:
        return esc(t("related.brief", n=len(ties)))
    return t_html(f"related.{reason.value}", where="、".join(_where(kb, linker, tie) for tie in ties))


def _where(kb: KnowledgeBase, linker: Linker, tie: Tie) -> Html:
    """Where a brief records the tie: the increment or item (by its brief's date), the claim (by
    its title, where raised), the section (in the living document)."""
    if tie.reason is Reason.section:
        return section_link(kb, linker, *tie.where)
    if tie.reason is Reason.claim:
        state = kb.claims.get(*tie.where)
        if state is None:
            return esc(tie.where[1])
        return linker.link(state.claim.title, brief_page(state.brief), f"claim-{state.index}")
    key = tie.where[0]
    spot = f"inc-{tie.at + 1}" if tie.at >= 0 else f"adj-{chr(96 - tie.at)}"
    return linker.link(kb.briefs[key].date.isoformat(), brief_page(key), spot)


# --------------------------------------------------------------------------- a section's neighbourhood


def section_part(kb: KnowledgeBase, linker: Linker, topic: str, section: str) -> Html:
    """A section's neighbourhood on its timeline: nothing when none of its papers is joined to another."""
    g = section_graph(kb, topic, section)
    if not g.edges:
        return ""
    index = {pid: i for i, pid in enumerate(g.papers)}
    nodes = [Node(kb.papers[pid].short, linker.href(paper_page(pid)), kb.papers[pid].short) for pid in g.papers]
    edges = [(index[x], index[y], s) for x, y, s in g.edges]
    info = kb.section(topic, section)
    name = info.section.name if info is not None else section
    title = t("related.section_title", section=name, shown=len(g.papers), total=g.total)
    svg = graph_svg(f"kb-graph-{topic}-{section}", title, t("related.section_desc"), nodes, edges)
    joined: dict[str, list[str]] = {}
    for x, y, _ in g.edges:
        joined.setdefault(x, []).append(y)
        joined.setdefault(y, []).append(x)
    rows = [
        f"{paper_link(kb, linker, pid)}：{'、'.join(paper_link(kb, linker, o) for o in joined[pid])}"
        for pid in g.papers
        if pid in joined
    ]
    return div(blocks(p(esc(title)), div(svg, "kb-graph-box"), ul(rows, "kb-graph-list")), "kb-section-graph")
