"""The section timelines (kb.knowledge.sections.anchorings_by_section, kb.render.timeline) on a copy of
the fixture knowledge base where FlashAttention-4, anchored in the head section by the 09-03 brief, is
anchored there again on 09-04 (the 09-04 brief) and moved to §1.(2) 推理调度 by the 09-05 brief: each
section lists each anchoring at its date, oldest first, with its recording brief."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from kb import messages
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import load_kb
from kb.knowledge.sections import anchored_by_section, anchorings_by_section
from kb.render import living, timeline
from sitebuild import FIXTURE_DATA

BRIEFS = "briefs/inference"
HEAD, SCHEDULING = "head", "s1-2-scheduling"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text("utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), "utf-8")


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    data = tmp_path_factory.mktemp("timeline") / "data"
    shutil.copytree(FIXTURE_DATA, data)
    carried = "  - {paper: meta-llama-inference, status: anchored, anchored_in: s1-1-engines"
    again = f"  - {{paper: flashattention-4, status: anchored, anchored_in: {HEAD}, anchored_since: 2026-09-04}}\n"
    edit(data / BRIEFS / "2026-09-04-e1.yaml", carried, again + carried)
    candidate = "  - {paper: replayssm, status: net-new, note: 作者仍记为 NET-new}\n"
    moved = f"  - {{paper: flashattention-4, status: anchored, anchored_in: {SCHEDULING}}}\n"
    edit(data / BRIEFS / "2026-09-05-e1.yaml", candidate, candidate + moved)
    return load_kb(data)


def rows(kb: KnowledgeBase, section: str) -> list[tuple[str, str, str]]:
    return [(r.known_by.isoformat(), r.brief, r.paper) for r in anchorings_by_section(kb, "inference")[section]]


def test_a_section_lists_each_anchoring_at_its_date_oldest_first(kb):
    assert rows(kb, HEAD) == [
        ("2026-09-03", "inference/2026-09-03-e1", "flashattention-4"),
        ("2026-09-04", "inference/2026-09-04-e1", "flashattention-4"),
    ]


def test_a_paper_moved_elsewhere_is_in_both_sections_at_their_dates(kb):
    assert rows(kb, SCHEDULING) == [
        ("2026-09-05", "inference/2026-09-05-e1", "cascade"),
        ("2026-09-05", "inference/2026-09-05-e1", "flashattention-4"),
    ]
    # the living document shows where it is now: only the new section
    current = anchored_by_section(kb, "inference")
    assert "flashattention-4" not in {r.paper for r in current.get(HEAD, ())}
    assert "flashattention-4" in {r.paper for r in current[SCHEDULING]}


def test_the_page_shows_the_sections_in_order_with_dated_rows_linked(kb):
    soup = BeautifulSoup(timeline.page(kb, "inference"), "lxml")
    ids = [h["id"] for h in soup.select("h2, h3, h4, h5, h6")]
    assert ids == [*kb.sections["inference"], timeline.UNSECTIONED]  # the document's order, anchored by id
    summary = soup.find(id=HEAD).find_next("p", class_=None).get_text()
    assert summary == "头部 · 要闻：2026-09-03 至 2026-09-05 共记录锚入 2 次，涉及 1 篇论文。"
    head = soup.find(id=HEAD).find_next("table")
    cells = [[td.get_text() for td in tr.select("td")] for tr in head.select("tbody tr")]
    assert [c[0] for c in cells] == ["2026-09-03", "2026-09-04"]
    assert [c[3] for c in cells] == ["1", "1"]  # one paper, anchored twice
    links = [a["href"] for a in head.select("tbody a")]
    assert links == [
        "../briefs/inference/2026-09-03-e1.md",
        "../papers/flashattention-4.md",
        "../briefs/inference/2026-09-04-e1.md",
        "../papers/flashattention-4.md",
    ]
    chart = soup.find(id=SCHEDULING).find_next("svg")
    assert chart.select_one("title").get_text().endswith("（2026-09-05 至 2026-09-05）")
    assert [c["data-count"] for c in chart.select("circle")] == ["2"]


def test_each_living_document_section_links_to_its_timeline(kb):
    html = living.section(kb, "inference", SCHEDULING, "inference.md")
    soup = BeautifulSoup(html, "lxml")
    link = soup.select_one(f"h3#sec-{SCHEDULING} + p.kb-timeline-link a")
    assert link is not None and link["href"] == f"timeline/inference.md#{SCHEDULING}"
    assert link.get_text() == messages.UI["living.timeline_link"]
