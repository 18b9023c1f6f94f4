"""Paper pages (metadata, links out, backlinks), the living document and the backlog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def kb(site):
    """The data's knowledge base plus the mentions in the hand-written pages of the project the
    site was built from (the live pages with the fixture's laid over them), as the build sees them."""
    from kb.knowledge.pagescan import scan_page

    docs = Path((site / ".project").read_text("utf-8")) / "docs"
    base = load_kb(FIXTURE_DATA)
    found = {}
    for page in sorted(docs.rglob("*.md")):
        src = page.relative_to(docs).as_posix()
        found[src] = scan_page(base, src, page.read_text("utf-8-sig"))
    base.add_pages_mentions({src: ms for src, ms in found.items() if ms})
    return base


def fixture_briefs() -> list[dict]:
    """The fixture's brief files as plain YAML, oldest first."""
    files = sorted((FIXTURE_DATA / "briefs").glob("*/*.yaml"))
    return sorted((yaml.safe_load(f.read_text("utf-8")) for f in files), key=lambda b: (b["date"], b["round"]))


def short_names() -> dict[str, str]:
    return {f.stem: yaml.safe_load(f.read_text("utf-8"))["short"] for f in (FIXTURE_DATA / "papers").glob("*.yaml")}


def backlink_rows(pages, pid):
    art = pages.article(f"papers/{pid}/index.html")
    table = art.find(id="backlinks").find_next("table")
    return table.select("tbody tr") if table else []


def test_every_paper_has_a_page_not_in_the_nav(site, pages, kb):
    nav = pages.soup("index.html").select_one("nav.md-nav--primary").get_text(" ")
    for pid in kb.papers:
        assert (site / "papers" / pid / "index.html").is_file()
    assert "RetroInfer" not in nav


def test_backlinks_are_exactly_the_mentions(pages, kb):
    """One row per place that mentions the paper (a brief part, a section, a page), each place once."""
    for pid in kb.papers:
        rows = backlink_rows(pages, pid)
        assert len(rows) == len({(m.place.page, m.place.anchor) for m in kb.mentions_of(pid)}), pid
        hrefs = {a["href"].split("#")[-1] for r in rows for a in r.find_all("td")[1].find_all("a") if "#" in a["href"]}
        assert hrefs == {m.place.anchor for m in kb.mentions_of(pid) if m.place.anchor}, pid


def test_backlinks_hand_checked(pages):
    # TokenWeave: raised by 9-2 (increment 1), related in 9-3 increment 5, in 9-3's carried-over list
    # (the update label naming it is in the topic's log now, not in a brief)
    rows = backlink_rows(pages, "tokenweave")
    places = [(r.find("td").get_text(strip=True), r.find_all("td")[1].get_text(" ", strip=True)) for r in rows]
    assert [d for d, _ in places] == ["2026-09-02", "2026-09-03", "2026-09-03"]
    assert "增量 1" in places[0][1] and "增量 5" in places[1][1] and "沿用件" in places[2][1], places
    # RetroInfer: anchored by 9-4 (a candidate), so the living document's section is a backlink, and the
    # 9-4 LMCache v2 increment relates to it
    retro = [r.find_all("td")[1].get_text(" ", strip=True) for r in backlink_rows(pages, "retroinfer")]
    assert any("2026-09-04 E1" in r and "候选" in r for r in retro) and any("增量 2 · LMCache v2" in r for r in retro)
    assert any("向量存储引擎化" in r and "E1" not in r for r in retro), retro
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


def test_paper_category_names_a_topic_by_its_title(pages):
    """A category that is a topic of the knowledge base reads as the site names the topic, linked to
    its living document; any other as the paper file writes it."""
    facts = pages.article("papers/retroinfer/index.html").select_one(".kb-identity")
    line = next(li for li in facts.find_all("li") if li.get_text().startswith("主分类"))
    assert line.get_text(" ", strip=True) == "主分类 ： LLM 推理"
    assert line.a["href"] == "../../inference/"
    crisp = pages.article("papers/crisp/index.html").select_one(".kb-identity")
    line = next(li for li in crisp.find_all("li") if li.get_text().startswith("主分类"))
    assert "llm-infra" in line.get_text() and "LLM 推理" in line.get_text()
    assert [a["href"] for a in line.find_all("a")] == ["../../inference/"]


def test_arxiv_ids_link_to_paper_pages_or_arxiv(pages):
    art = pages.article("briefs/inference/2026-09-03-e1/index.html")
    link = art.find("a", string="arXiv:2505.02922")
    assert link["href"].endswith("papers/retroinfer/")
    unknown = art.find("a", string="arXiv:2608.01526")
    assert unknown["href"] == "https://arxiv.org/abs/2608.01526"
    # on the paper's own page, its id quoted from a brief goes to arXiv, not to the page itself
    own = pages.article("papers/retroinfer/index.html").select(".kb-backlinks a")
    quoted = [a["href"] for a in own if "2505.02922" in a.get_text()]
    assert quoted and set(quoted) == {"https://arxiv.org/abs/2505.02922"}


def anchored_block(art, sid):
    """The block of papers anchored in a section: every section has one right after its heading."""
    return art.find(id=sid).find_next(class_=["kb-anchored", "kb-empty"])


def test_living_document_sections_and_anchors(pages, kb):
    art = pages.article("inference/index.html")
    for sid in kb.sections["inference"]:
        assert art.find(id=f"sec-{sid}") is not None, sid
    # FlashAttention-4: the 9-3 brief's carried-over list records it anchored in the head, no date stated
    block = anchored_block(art, "sec-head")
    assert "FlashAttention-4" in block.get_text() and "锚入日期未注明，最晚 2026-09-03" in block.get_text()
    assert block.find("a", href=lambda h: h and "2026-09-03-e1" in h) is not None
    # RetroInfer: 9-4 states the date; Meta: 9-4 anchors it (the brief's date); Cascade: 9-5
    block = anchored_block(art, "sec-s1-3-vector-storage")
    assert "RetroInfer" in block.get_text() and "锚入于 2026-09-04" in block.get_text()
    assert block.find("a", href=lambda h: h and "2026-09-04-e1" in h) is not None
    assert "锚入于 2026-09-04" in anchored_block(art, "sec-s1-1-engines").get_text()
    assert "Cascade" in anchored_block(art, "sec-s1-2-scheduling").get_text()
    assert "MLCommons MLPerf RAG Benchmark" in anchored_block(art, "unsectioned").get_text()
    # the outline links every section (the block of papers anchored without one is where the page
    # puts it, which a macro cannot know: an entry for it could point at nothing)
    outline = {a["href"] for a in art.find(id="outline").find_next("ul").find_all("a")}
    assert outline == {f"#sec-{sid}" for sid in kb.sections["inference"]}
    # pending candidates, first seen by the one definition: LMCache v2 was an adjacent item on 9-2
    pending = art.find(id="sec-s1-3-kv-cache").find_next(class_="kb-pending").get_text(" ")
    assert "LMCache v2" in pending and "首次出现 2026-09-02" in pending
    # update labels and the citation count come from the topic's update log
    updates = art.find(id="updates").find_next("table").get_text(" ")
    assert "TokenWeave/Stream2LLM/FlexLLM" in updates and "约 430" in updates and "约 432" in updates
    assert "约 432 条 arXiv" in art.get_text(" ")
    assert "新路线" in art.find(id="sec-s1-3-vector-storage").get_text()


def test_living_document_says_none_anchored_only_where_nothing_waits(pages, kb):
    """Under each section: its anchored papers, else the line that says there are none, except where
    papers wait for the section (their list says what the section holds so far)."""
    art = pages.article("inference/index.html")
    said = {"pending": 0, "empty": 0}
    for sid in kb.sections["inference"]:
        head = art.find(id=f"sec-{sid}")
        own = []
        for node in head.find_next_siblings():
            if node.name and re.fullmatch(r"h[1-6]", node.name):
                break
            own.append(node)
        classes = {c for node in own if node.name for c in node.get("class", [])}
        if "kb-anchored" in classes:
            assert "kb-empty" not in classes, sid
        elif "kb-pending" in classes:
            assert "kb-empty" not in classes, sid
            said["pending"] += 1
        else:
            assert "kb-empty" in classes, sid
            said["empty"] += 1
    assert said["pending"] and said["empty"], said  # the fixture has sections of both kinds


def expected_pending() -> dict[str, int]:
    """Straight from the brief files: papers a brief puts forward (a main increment, an adjacent
    item, a candidate or the carried-over list; not a claim or the citable list alone) that no entry
    marks anchored, aged from their first mention in any brief (any kind of item) to the latest brief."""
    briefs = fixture_briefs()
    first: dict[str, object] = {}
    raised: set[str] = set()
    anchored: set[str] = set()
    for b in briefs:
        named = [
            p
            for part in ("increments", "adjacent", "claims")
            for item in b.get(part) or []
            for p in item.get("papers", [])
        ]
        named += [e["paper"] for part in ("candidates", "carried", "citable") for e in b.get(part) or []]
        for pid in named:
            first.setdefault(pid, b["date"])
        raised |= {p for part in ("increments", "adjacent") for it in b.get(part) or [] for p in it.get("papers", [])}
        raised |= {e["paper"] for part in ("candidates", "carried") for e in b.get(part) or []}
        anchored |= {
            p for inc in b.get("increments") or [] if inc["status"] == "anchored" for p in inc.get("papers", [])
        }
        anchored |= {
            e["paper"] for part in ("candidates", "carried") for e in b.get(part) or [] if e.get("status") == "anchored"
        }
    today = briefs[-1]["date"]
    names = short_names()
    return {names[p]: (today - first[p]).days for p in raised - anchored}


def test_backlog_lists_exactly_the_pending_items_with_ages(pages):
    art = pages.article("backlog/index.html")
    rows = art.find(id="pending-inference").find_next("table").select("tbody tr")
    got = {r.find("td").get_text(strip=True): int(r.find_all("td")[4].get_text(strip=True)) for r in rows}
    expected = expected_pending()
    # hand-checked, as of 2026-09-05: an adjacent mention counts as first seen (LMCache v2, 9-2);
    # anchored papers left (RetroInfer and Meta on 9-4, Cascade on 9-5); 9-1's candidates are 4 days old
    assert expected["LMCache v2"] == 3 and expected["PrefixPool"] == 1 and expected["ReplaySSM"] == 4
    assert not {"RetroInfer", "Meta Llama Inference", "Cascade", "FlashAttention-4"} & set(expected)
    assert got == expected
    first = {r.find("td").get_text(strip=True): r.find_all("td")[3].get_text(" ", strip=True) for r in rows}
    assert first["LMCache v2"].startswith("2026-09-02") and "邻接预备" in first["LMCache v2"]


def expected_increment_statuses() -> dict[str, list[str | None]]:
    """Straight from the brief files, per brief (``<date>-<round>``): each main increment's status
    by the definitions (anchored: every paper recorded anchored by this brief or an earlier one;
    net-new: a paper first mentioned in this brief, by any kind of item, and not anchored; else
    pending)."""
    first: dict[str, str] = {}
    anchored: set[str] = set()
    out: dict[str, list[str | None]] = {}
    for b in fixture_briefs():
        key = f"{b['date']}-{b['round'].lower()}"
        named = [
            p for part in ("increments", "adjacent", "claims") for it in b.get(part) or [] for p in it.get("papers", [])
        ]
        named += [e["paper"] for part in ("candidates", "carried", "citable") for e in b.get(part) or []]
        for pid in named:
            first.setdefault(pid, key)
        anchored |= {
            p for inc in b.get("increments") or [] if inc["status"] == "anchored" for p in inc.get("papers", [])
        }
        anchored |= {
            e["paper"] for part in ("candidates", "carried") for e in b.get(part) or [] if e.get("status") == "anchored"
        }
        statuses = []
        for inc in b.get("increments") or []:
            papers = inc.get("papers", [])
            if not papers:
                statuses.append(None)  # an item naming no paper has no computed status
            elif all(p in anchored for p in papers):
                statuses.append("anchored")
            elif any(first[p] == key and p not in anchored for p in papers):
                statuses.append("net-new")
            else:
                statuses.append("pending")
        out[key] = statuses
    return out


def test_net_new_counts_only_increments_first_seen_in_their_brief(site, pages):
    """The computed NET-new count is the number of increments whose status is net-new, not of all
    increments: the fixture has increments that are pending (LMCache v2 on 9-4, seen on 9-2) and
    anchored (Cascade on 9-5), so counting every increment shows on the page and in the API."""
    expected = expected_increment_statuses()
    assert expected["2026-09-04-e1"] == ["net-new", "pending"] and expected["2026-09-05-e1"] == ["anchored"]
    api = {b["key"].split("/")[-1]: b for b in json.loads((site / "api" / "briefs.json").read_text("utf-8"))["briefs"]}
    assert set(api) == set(expected)
    for key, statuses in expected.items():
        assert [inc["computed_status"] for inc in api[key]["increments"]] == statuses, key
        assert api[key]["computed"]["net_new"] == statuses.count("net-new"), key
    # 9-4 states 1 NET-new, as computed: its status line shows no check beside the figure
    status = pages.article("briefs/inference/2026-09-04-e1/index.html").find(id="status").find_next("li")
    assert api["2026-09-04-e1"]["stated"]["net_new"] == expected["2026-09-04-e1"].count("net-new")
    assert "NET-new" in status.get_text() and not status.select("a.kb-check")
    increments = pages.article("briefs/inference/2026-09-04-e1/index.html").find(id="increments")
    assert len(increments.find_all_next(class_="kb-status-pending")) >= 1


def test_backlog_other_lists(pages):
    art = pages.article("backlog/index.html")
    cards = art.find(id="cards-to-write").find_next("table").get_text(" ")
    for ident in ("2608.01526", "2607.09172", "2603.20397", "2609.02812", "2608.30795"):
        assert ident in cards
    table = art.find(id="claims").find_next("table")
    rows = table.select("tbody tr")
    heads = [th.get_text(strip=True) for th in table.select("thead th")]
    claim_at, priority_at = heads.index("说法"), heads.index("优先级")
    assert claim_at == 0  # the claim heads its row (and its card on a phone)
    briefs = fixture_briefs()
    closed = {
        u["claim"] for b in briefs for u in b.get("claim_updates") or [] if u["action"] in ("resolved", "dropped")
    }
    raised = {c["id"]: c["title"] for b in briefs for c in b.get("claims") or []}
    open_titles = [t for cid, t in raised.items() if cid not in closed]
    titles = [r.find_all("td")[claim_at].find("a").get_text(" ", strip=True) for r in rows]
    assert sorted(titles) == sorted(open_titles)  # each open claim once; the resolved RTP-LLM claim gone
    assert "rtp-llm-open-source" in closed and raised["rtp-llm-open-source"] not in titles
    assert rows[0].find_all("td")[priority_at].get_text(strip=True) == "P0"
    # the history: SSR's claim was raised on 9-3 and re-prioritised (P1) on 9-4
    ssr = next(r for r in rows if "SSR" in r.find_all("td")[claim_at].get_text())
    assert ssr.find_all("td")[priority_at].get_text(strip=True) == "P1"
    history = ssr.find("details")
    assert history is not None and "2026-09-03 提出" in history.get_text() and "2026-09-04 有更新" in history.get_text()
    # a claim's title as written, with the editors' note on it
    hf = next(r for r in rows if "收购" in r.find_all("td")[claim_at].get_text())
    note = hf.find_all("td")[claim_at].find(class_="kb-editor-note")
    assert note is not None and note.get_text(strip=True).startswith("编者注：原文标题把收购方也写成了 HF")
    dups = art.find(id="duplicate-cards").find_next("table").find("tbody").find_all("tr")
    # one row per repeated id, naming each place that records the repeat (the paper file, the 9-3 card list)
    assert len(dups) == 1, [r.get_text(" ", strip=True) for r in dups]
    cells = [td.get_text("", strip=True) for td in dups[0].find_all("td")]
    assert cells[2] == "1197、1199" and cells[3] == "论文文件、2026-09-03 新卡清单", cells


def test_hand_written_prose_links_ids_and_counts_as_a_backlink(pages):
    art = pages.article("inference/index.html")
    # the hand-written paragraph (docs/inference.md), not the section blocks the macros fill in
    prose = next(p for p in art.find_all("p") if "开出这条路线的是" in p.get_text())
    link = prose.find("a", string="arXiv:2505.02922")
    assert link is not None and link["href"] == "../papers/retroinfer/" and "kb-arxiv" in link["class"]
    assert prose.find("a", string="arXiv:2608.01526")["href"] == "https://arxiv.org/abs/2608.01526"
    # an id in a code span stays text: no link inside the code element (what linking it would produce:
    # <code><a ...>2505.02922</a></code>) and none around it
    code = next(c for c in art.find_all("code") if c.get_text() == "2505.02922")
    assert code.find("a") is None and code.find_parent("a") is None
    rows = backlink_rows(pages, "retroinfer")
    assert any("sec-s1-3-vector-storage" in a["href"] for r in rows for a in r.find_all("a"))


def test_references_bib_is_offered(site, pages):
    import bibtexparser

    link = pages.article("papers/index.html").find("a", href="../references.bib")
    assert link is not None
    library = bibtexparser.parse_string((site / "references.bib").read_text("utf-8"))
    assert not library.failed_blocks
    for entry in library.entries:  # what is offered as citable is complete
        fields = entry.fields_dict
        assert fields["author"].value and fields["title"].value and fields["year"].value.isdigit(), entry.key
    eprints = {e.fields_dict["eprint"].value for e in library.entries if "eprint" in e.fields_dict}
    assert "2608.20359" in eprints
    from kb.bib import uncitable  # papers without an author, a full title or a year are left out

    papers = load_kb(FIXTURE_DATA).papers
    citable = {pid for pid, p in papers.items() if not uncitable(p)}
    assert len(library.entries) == len(citable)
    # the papers index promises a BibTeX entry on exactly the pages of the papers the file holds
    with_entry = {pid for pid in papers if pages.article(f"papers/{pid}/index.html").select_one("pre.kb-bibtex")}
    assert with_entry == citable and with_entry != set(papers)
    assert "不生成" in pages.article("papers/index.html").find("p").get_text()


def test_a_paper_without_a_complete_entry_says_what_is_missing_and_how_to_add_it(pages):
    article = pages.article("papers/retroinfer/index.html")  # no authors in the fixture
    assert article.find(id="bibtex") is not None and article.select_one("pre.kb-bibtex") is None
    note = article.select_one(".kb-bib-incomplete").get_text()
    assert "缺作者" in note and "kb paper refresh retroinfer" in note and "data/papers/retroinfer.yaml" in note
    assert "完整标题" not in note  # its full title is known
    short_only = pages.article("papers/flashattention-4/index.html").select_one(".kb-bib-incomplete").get_text()
    assert "完整标题（现在只有简称）" in short_only and "年份" not in short_only  # MLSys 2026 names the year
    no_year = pages.article("papers/replayssm/index.html").select_one(".kb-bib-incomplete").get_text()
    assert "年份" in no_year and "published" in no_year


def test_the_bibtex_block_is_a_named_region_keyboard_users_can_reach(pages):
    block = pages.article("papers/ssr/index.html").select_one("pre.kb-bibtex")
    assert block["tabindex"] == "0" and block["role"] == "region" and block["aria-label"] == "BibTeX"


def test_paper_page_shows_a_v1_date_that_contradicts_its_id(pages):
    """The finding, in Chinese, stays visible with the reason it was acknowledged for."""
    note = pages.article("papers/ssr/index.html").select_one(".admonition.warning")
    assert note is not None and "2026-06-17" in note.get_text() and "2608.20359" in note.get_text()
    assert "不在其 arXiv 号" in note.get_text() and "已知悉" in note.get_text() and "尚未核对" in note.get_text()
    assert pages.article("papers/retroinfer/index.html").select_one(".admonition.warning") is None


def test_paper_page_says_where_it_is_anchored(pages):
    anchored = lambda pid: pages.article(f"papers/{pid}/index.html").find(id="anchored").find_next("ul")  # noqa: E731
    retro = anchored("retroinfer")
    assert "锚入于 2026-09-04" in retro.get_text()  # the 9-4 brief states the date
    assert any(a["href"].endswith("inference/#sec-s1-3-vector-storage") for a in retro.find_all("a"))
    assert any("2026-09-04-e1" in a["href"] for a in retro.find_all("a"))
    meta = anchored("meta-llama-inference").get_text()
    assert "锚入于 2026-09-04" in meta  # anchored by the 9-4 brief: its date, typed nowhere
    ssr = anchored("ssr")
    assert "尚未锚入" in ssr.get_text() and "现为待锚入" in ssr.get_text()  # NET-new on 9-3, pending since
    # the brief named is the last that lists it as an item; one that only mentions it is a backlink
    assert (
        "最近一次把它列为条目的简报：inference · E1 预消化简报（2026-09-03）（只在正文里提到它的，见反向链接）"
        in ssr.get_text()
    )
    assert [a["href"] for a in ssr.find_all("a") if "briefs/" in a["href"]] == ["../../briefs/inference/2026-09-03-e1/"]
    first = "".join(pages.article("papers/lmcache-v2/index.html").get_text().split())
    assert "首次出现：2026-09-02" in first and "（邻接预备）" in first  # an adjacent item counts


def test_home_and_papers_index_show_news(pages, sample_kb):
    home = "".join(pages.article("index.html").get_text().split())  # a term's tooltip splits no text
    latest = [sample_kb.briefs[k] for k in sample_kb.by_topic["inference"][-2:]]
    for b in latest:  # the headline as written and every main increment's title
        if b.character:
            assert "".join(b.character.title.split()) in home
        for inc in b.increments:
            assert "".join(inc.title.split()) in home
    index = pages.article("papers/index.html")
    row = next(r for r in index.select("tbody tr") if r.find("td").get_text(strip=True) == "RetroInfer")
    assert "已锚入" in row.get_text() and "2026-09-04" in row.get_text()
    category = [td.get_text(strip=True) for td in row.find_all("td")][4]
    assert category == "LLM 推理"  # the topic as the site names it (the paper file writes inference)


def test_home_page_says_a_reconstructed_briefs_increments_are_unknown_not_none(pages, sample_kb):
    """A reconstructed brief recorded without its main increments: the home page's digest says they
    are unknown (as its page and the briefs index say 不明), not that the brief had none."""
    unknown = [k for k, b in sample_kb.briefs.items() if b.reconstructed and not b.increments]
    assert unknown
    items = {
        li.find("a").get_text(strip=True): li.get_text(" ", strip=True)
        for li in pages.article("index.html").select(":scope > ul > li")
    }
    for key in unknown:
        date = sample_kb.briefs[key].date.isoformat()
        shown = next(text for title, text in items.items() if date in title)
        assert "主增量不明" in shown and "没有主增量" not in shown, shown


@pytest.mark.parametrize(
    "kind, word", [("system", "类型：系统"), ("benchmark", "类型：基准测试"), ("report", "类型：报告")]
)
def test_a_paper_that_is_no_paper_says_what_it_is(kind, word):
    """`kind:` entered in a paper file shows on its page; the default (a paper) adds no line."""
    from kb.render.paper import page

    kb = load_kb(FIXTURE_DATA)
    assert "类型：" not in page(kb, "retroinfer")
    kb.papers["retroinfer"] = kb.papers["retroinfer"].model_copy(update={"kind": kind})
    html = page(kb, "retroinfer")
    assert f"<strong>{word.split('：')[0]}</strong>：{word.split('：')[1]}" in html


def test_briefs_index_gives_a_reconstructed_brief_no_empty_lower_bound(pages, sample_kb):
    """A reconstructed brief with nothing recorded of a count reads 不明 there, as on its page, not "≥0"."""
    text = pages.article("briefs/index.html").get_text(" ")
    assert "≥0" not in text and "（计算 ？" not in text
    partial = [k for k, f in sample_kb.figures.items() if f.partial and f.increments == 0]
    assert partial
    for key in partial:
        date = sample_kb.briefs[key].date.isoformat()
        row = next(r for r in pages.article("briefs/index.html").select("tbody tr") if date in r.get_text())
        assert "？（不明）" in row.get_text(), row.get_text()


def test_briefs_index_counts_read_as_the_brief_page_does():
    """A stated count with a computed one beside it only where the brief's page marks one: for a
    reconstructed brief a computed figure below the stated one is no disagreement (a lower bound)."""
    from kb.render.indexes import _figure

    assert _figure(5, 5, False) == "5" and _figure(None, 3, False) == "3"
    assert _figure(5, 3, True) == "5" and _figure(5, 0, True) == "5"  # below the stated: a lower bound
    assert _figure(None, 0, True) == "？（不明）" and _figure(None, 2, True) == "≥2"
    assert _figure(3, 5, False) == "3（计算 5）" and _figure(3, 5, True) == "3（计算 ≥5）"
    # a reconstructed brief's count the next brief gives: that brief's word (the stated one comes first)
    assert _figure(None, 1, True, 6) == "6（据下一期；数据中列出 1）" and _figure(4, 1, True, 6) == "4"
    assert _figure(None, 3, True, 3) == "3（据下一期）"
    assert _figure(None, 1, False, 6) == "1"  # a brief that is no reconstruction counts its own items


def test_a_reconstructed_brief_shows_the_counts_the_next_brief_gives_it(pages, sample_kb):
    """9-3 says 9-2 had 3 main increments and 6 adjacent items; 9-2's record names one adjacent item:
    its page and the briefs index show 3 and 6 as 9-3's word, with what the data lists beside it."""
    key = "inference/2026-09-02-e1"
    assert sample_kb.figures[key].told == {"increments": 3, "adjacent": 6} and sample_kb.figures[key].adjacent == 1
    status = pages.article(f"briefs/{key}/index.html").find(id="status").find_next("li")
    marks = [m.get_text(strip=True) for m in status.select(".kb-told")]
    assert marks == ["据 2026-09-03 E1 简报", "据 2026-09-03 E1 简报；数据中列出 1 条"], marks
    assert "3 条主增量" in status.get_text() and "6 条邻接预备" in status.get_text()
    row = next(r for r in pages.article("briefs/index.html").select("tbody tr") if "2026-09-02" in r.get_text())
    assert "主增量 3（据下一期）" in row.get_text(), row.get_text()
    assert "邻接预备 6（据下一期；数据中列出 1）" in row.get_text(), row.get_text()


def test_the_home_page_explains_the_terms_it_uses_first(pages):
    """The home page's digest uses NET-new, 主增量, 待锚入 … : each is explained where it first
    appears there (a tooltip from the glossary), as on every page but the glossary itself."""
    abbrs = {a.get_text(): a["title"] for a in pages.article("index.html").select("abbr[title]")}
    assert "NET-new" in abbrs and "第一次出现" in abbrs["NET-new"]


def test_a_paper_the_living_document_names_but_no_brief_anchored_says_so():
    """SSR named in the living document's prose (here: its §1.(1) Speculative Decoding part) but not
    anchored by any brief: its page says the prose names it and no brief has recorded an anchoring,
    linking the section, so the backlink there does not read as a contradiction."""
    from kb.knowledge.pagescan import scan_page
    from kb.render.paper import page

    kb = load_kb(FIXTURE_DATA)
    text = (FIXTURE_DATA.parent / "docs" / "inference.md").read_text("utf-8")
    assert '{{ section("s1-1-spec-decoding") }}' in text
    text = text.replace(
        '{{ section("s1-1-spec-decoding") }}',
        '{{ section("s1-1-spec-decoding") }}\n\nSSR（arXiv:2608.20359）也在这一路。',
        1,
    )
    kb.add_pages_mentions({"inference.md": scan_page(kb, "inference.md", text)})
    assert kb.history.anchor("ssr", "inference") is None
    html = page(kb, "ssr")
    assert "「LLM 推理」活文档的正文提到了它（" in html and "但还没有简报记录它的锚入" in html
    assert (
        'href="../inference.md#sec-s1-1-spec-decoding">Speculative Decoding</a>'
        in html.split("正文提到了它", 1)[1].split("</li>", 1)[0]
    )
    assert "正文提到了它" not in page(kb, "retroinfer")  # anchored: the anchoring is what it says


@pytest.mark.parametrize("page", ["papers/index.html", "backlog/index.html"])
def test_an_id_column_beside_the_papers_name_goes_out_to_arxiv(pages, page):
    """In the papers index and the backlog, each row links the paper's page by its name; its arXiv
    id goes to the abstract on arXiv (before, both went to the paper's page)."""
    rows = pages.article(page).select("tbody tr")
    ids = [a for r in rows for a in r.find_all("a") if a.get_text().startswith("arXiv:")]
    assert ids
    for a in ids:
        assert a["href"] == f"https://arxiv.org/abs/{a.get_text().removeprefix('arXiv:')}", a.parent
