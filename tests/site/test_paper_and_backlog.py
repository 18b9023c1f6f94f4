"""Paper pages (metadata, links out, backlinks), the living document and the backlog."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.knowledge.index import load_kb
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kb():
    """The data's knowledge base plus the mentions in hand-written pages, as the build sees them."""
    from kb.knowledge.pagescan import scan_page

    base = load_kb(FIXTURE_DATA)
    for page in sorted((ROOT / "docs").rglob("*.md")):
        src = page.relative_to(ROOT / "docs").as_posix()
        base.add_page_mentions(src, scan_page(base, src, page.read_text("utf-8")))
    return base


def backlink_rows(pages, pid):
    art = pages.article(f"papers/{pid}/index.html")
    table = art.find(id="backlinks").find_next("table")
    return table.select("tbody tr") if table else []


def test_every_paper_has_a_page_not_in_the_nav(site, pages, kb):
    nav = pages.soup("index.html").select_one("nav.md-nav--primary").get_text(" ")
    for pid, paper in kb.papers.items():
        assert (site / "papers" / pid / "index.html").is_file()
    assert "RetroInfer" not in nav


def test_backlinks_are_exactly_the_mentions(pages, kb):
    for pid in kb.papers:
        rows = backlink_rows(pages, pid)
        assert len(rows) == len(kb.mentions_of(pid)), pid
        hrefs = {a["href"].split("#")[-1] for r in rows for a in r.find_all("td")[1].find_all("a") if "#" in a["href"]}
        assert hrefs == {m.place.anchor for m in kb.mentions_of(pid) if m.place.anchor}, pid


def test_backlinks_hand_checked(pages):
    # TokenWeave: raised by 9-2 (increment 1), named by 9-3's baseline label, related in 9-3 increment 5
    rows = backlink_rows(pages, "tokenweave")
    places = [(r.find("td").get_text(strip=True), r.find_all("td")[1].get_text(" ", strip=True)) for r in rows]
    assert [d for d, _ in places] == ["2026-09-02", "2026-09-03", "2026-09-03"]
    assert "增量 1" in places[0][1] and "状态" in places[1][1] and "增量 5" in places[2][1], places
    # the sentence around a text mention is shown
    ssr = " ".join(r.get_text(" ") for r in backlink_rows(pages, "ssr"))
    assert "arXiv:2608.20359" in ssr and "partial-CoT" in ssr


def test_paper_page_facts_and_links_out(pages):
    art = pages.article("papers/retroinfer/index.html")
    text = art.get_text(" ")
    for fact in ("VLDB 2026", "PVLDB Vol.19 Issue 5, Pages 1016-1031", "极高", "微软研究院"):
        assert fact in text
    hrefs = [a["href"] for a in art.select("a[href]")]
    assert "https://arxiv.org/abs/2505.02922" in hrefs and "https://arxiv.org/pdf/2505.02922" in hrefs
    assert "https://github.com/microsoft/retrievalattention" in hrefs
    crisp = pages.article("papers/crisp/index.html").get_text(" ")
    assert "1197、1199" in crisp and "重复卡" in crisp


def test_arxiv_ids_link_to_paper_pages_or_arxiv(pages):
    art = pages.article("briefs/inference/2026-09-03-e1/index.html")
    link = art.find("a", string="arXiv:2505.02922")
    assert link["href"].endswith("papers/retroinfer/")
    unknown = art.find("a", string="arXiv:2608.01526")
    assert unknown["href"] == "https://arxiv.org/abs/2608.01526"


def test_living_document_sections_and_anchors(pages, kb):
    art = pages.article("inference/index.html")
    for sid in kb.sections["inference"]:
        assert art.find(id=f"sec-{sid}") is not None, sid
    head = art.find(id="sec-head")
    block = head.find_next(class_="kb-anchored")
    assert "FlashAttention-4" in block.get_text() and "2026-09-03" in block.get_text()
    assert block.find("a", href=lambda h: h and "2026-09-03-e1" in h) is not None
    assert "MLCommons MLPerf RAG Benchmark" in art.find(id="unsectioned").find_next(class_="kb-anchored").get_text()
    updates = art.find(id="updates").find_next("table").get_text(" ")
    assert "TokenWeave/Stream2LLM/FlexLLM" in updates and "约 430" in updates
    assert "新路线" in art.find(id="sec-s1-3-vector-storage").get_text()


def test_backlog_lists_exactly_the_pending_items_with_ages(pages):
    art = pages.article("backlog/index.html")
    rows = art.find(id="pending-inference").find_next("table").select("tbody tr")
    got = {r.find("td").get_text(strip=True): int(r.find_all("td")[4].get_text(strip=True)) for r in rows}
    expected = {
        # raised by the 9-1 brief, still pending on 2026-09-03: two days old
        "ReplaySSM": 2, "The Silent Hyperparameter": 2, "SwiftCache": 2, "Albireo": 2,
        "TokenFlow": 2, "NeuroPrefetcher": 2, "Oneiros": 2,
        # raised by the 9-2 brief
        "TokenWeave": 1, "Stream2LLM": 1, "FlexLLM": 1,
        # raised by the 9-3 brief
        "SSR": 0, "RetroInfer": 0, "Meta Llama Inference": 0, "RTP-LLM": 0, "Cascade": 0, "OpScale": 0, "CRISP": 0,
    }
    assert got == expected


def test_backlog_other_lists(pages):
    art = pages.article("backlog/index.html")
    cards = art.find(id="cards-to-write").find_next("table").get_text(" ")
    for ident in ("2608.01526", "2607.09172", "2603.20397", "2609.02812", "2608.30795"):
        assert ident in cards
    claims = [r.find("td").get_text(strip=True) for r in art.find(id="claims").find_next("table").select("tbody tr")]
    assert claims[0] == "P0" and len(claims) == 5
    dups = art.find(id="duplicate-cards").find_next("table").get_text(" ")
    assert "1197、1199" in dups


def test_hand_written_prose_links_ids_and_counts_as_a_backlink(pages):
    art = pages.article("inference/index.html")
    link = art.find("a", string="arXiv:2505.02922")
    assert link is not None and link["href"] == "../papers/retroinfer/"
    assert art.find("a", string="arXiv:2608.01526")["href"] == "https://arxiv.org/abs/2608.01526"
    assert art.find("code", string="2505.02922").find_parent("a") is None
    rows = backlink_rows(pages, "retroinfer")
    assert any("sec-s1-3-vector-storage" in a["href"] for r in rows for a in r.find_all("a"))


def test_references_bib_is_offered(site, pages):
    import bibtexparser

    link = pages.article("papers/index.html").find("a", href="../references.bib")
    assert link is not None
    library = bibtexparser.parse_string((site / "references.bib").read_text("utf-8"))
    assert not library.failed_blocks
    eprints = {e.fields_dict["eprint"].value for e in library.entries if "eprint" in e.fields_dict}
    assert {"2505.02922", "2608.20359", "2609.01925"} <= eprints
    from kb.bib import uncitable  # papers without a year, or without an author or arXiv id, are left out

    assert len(library.entries) == sum(1 for p in load_kb(FIXTURE_DATA).papers.values() if not uncitable(p))


def test_paper_page_shows_a_v1_date_that_contradicts_its_id(pages):
    note = pages.article("papers/ssr/index.html").select_one(".admonition.warning")
    assert note is not None and "2026-06-17" in note.get_text() and "2608.20359" in note.get_text()
    assert pages.article("papers/retroinfer/index.html").select_one(".admonition.warning") is None
