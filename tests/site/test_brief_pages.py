"""Brief pages: the news first, every part of the seed in its order, every fact of
the brief, the author's words and figures as recorded with the computed checks
beside them (never in their place)."""

from __future__ import annotations

import enum
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from kb.knowledge.load import load_kb
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]
SEED_KEY = "inference/2026-09-03-e1"
SEED_PAGE = f"briefs/{SEED_KEY}/index.html"
SEED_TEXT = ROOT.parent / "shared" / "seeds" / "2026-09-03-inference-e1-brief.txt"
PARTS = [
    "status",
    "sources",
    "increments",
    "adjacent",
    "claims",
    "arxiv-ids",
    "carried",
    "summary",
    "comparison",
    "source-lists",
    "sources-included",
    "sources-excluded",
    "signature",
    "checks",
]
# fields holding ids of other records (shown as their names and links), not the author's prose
REFERENCE_FIELDS = {
    "paper",
    "papers",
    "section",
    "sections",
    "anchored_in",
    "claim",
    "finding",
    "topic",
    "id",
    "confirmed_pending",
    "round",
}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def page_of(key: str) -> str:
    return f"briefs/{key}/index.html"


def test_build_is_strict_and_warning_free(site):
    log = (site / ".build-log").read_text("utf-8")
    assert "WARNING" not in log and "ERROR" not in log


def test_parts_in_seed_order(pages):
    art = pages.article(SEED_PAGE)
    ids = [el["id"] for el in art.select("[id]")]
    positions = [ids.index(p) for p in PARTS]
    assert positions == sorted(positions)
    for i in range(1, 6):
        assert f"inc-{i}" in ids and f"claim-{i}" in ids
    for letter in "abcdef":
        assert f"adj-{letter}" in ids


def test_news_first(pages, sample_kb):
    """Before the first part of the brief: the headline and one line per main increment, with
    its title, section, value and status."""
    art = pages.article(SEED_PAGE)
    status = art.find(id="status")
    lede = []
    for el in art.find("h1").find_all_next():
        if el is status:
            break
        lede.append(el)
    headline = next(el for el in lede if "kb-headline" in (el.get("class") or []))
    brief = sample_kb.briefs[SEED_KEY]
    assert norm(brief.character.title) in norm(headline.get_text())
    glance = next(el for el in lede if "kb-glance" in (el.get("class") or []))
    items = glance.find_all("li")
    assert len(items) == len(brief.increments)
    for li, inc in zip(items, brief.increments, strict=True):
        text = norm(li.get_text(" "))
        assert norm(inc.label) in text and "⭐" * inc.value in text and norm(inc.summary.status) in text
        assert li.find("a", href=re.compile(r"^#inc-\d$"))


def test_every_fact_of_the_seed_is_on_the_page(pages):
    text = norm(pages.article(SEED_PAGE).get_text(" "))
    facts = [
        ln
        for ln in (ROOT / "tests/fixtures/seed_facts.txt").read_text("utf-8").splitlines()
        if ln and not ln.startswith("#")
    ]
    missing = [f for f in facts if norm(f) not in text]
    assert not missing


@pytest.mark.skipif(not SEED_TEXT.exists(), reason="the seed brief is not beside this checkout")
def test_every_id_path_and_figure_of_the_seed_text(pages):
    seed = SEED_TEXT.read_text("utf-8")
    text = norm(pages.article(SEED_PAGE).get_text(" "))
    wanted = set(re.findall(r"\b\d{4}\.\d{4,5}\b", seed))
    wanted |= set(re.findall(r"(?:inbox|paper_cards|organized)/[\w./\-]+\.md|work-queue\.md", seed))
    wanted |= {norm(x) for x in re.findall(r"[-+~<>]?\s?\d+(?:\.\d+)?\s?(?:%|×)", seed)}
    assert not [w for w in wanted if norm(w) not in text]


def _author_strings(value, name: str = "") -> list[tuple[str, str]]:
    """Every string the author wrote in a record, with the field it sits in."""
    if isinstance(value, enum.Enum) or name in REFERENCE_FIELDS:
        return []
    if isinstance(value, str):
        return [(name, value)]
    if isinstance(value, BaseModel):
        return [s for field in type(value).model_fields for s in _author_strings(getattr(value, field), field)]
    if isinstance(value, list):
        return [s for item in value for s in _author_strings(item, name)]
    return []


@pytest.mark.parametrize("key", sorted(load_kb(FIXTURE_DATA).briefs))
def test_every_author_written_field_appears_verbatim(pages, sample_kb, key):
    brief = sample_kb.briefs[key]
    text = norm(pages.article(page_of(key)).get_text(" "))
    missing = [(field, value) for field, value in _author_strings(brief) if norm(value) not in text]
    assert not missing


def _stated_and_computed(kb, key):
    b, f = kb.briefs[key], kb.figures[key]
    return [
        (b.stated.increments, f.increments),
        (b.stated.net_new, f.net_new),
        (b.stated.adjacent_ingested, f.adjacent_ingested),
        (b.stated.adjacent, f.adjacent),
    ]


@pytest.mark.parametrize("key", sorted(load_kb(FIXTURE_DATA).briefs))
def test_status_line_shows_stated_figures_with_checks(pages, sample_kb, key):
    """Each stated figure of the 状态 line as stated; the computed value beside it only when they
    differ; a figure the brief does not state shown and marked as computed (or as a lower bound), or,
    for a reconstructed brief, as the next brief gives it, said to be that brief's word."""
    item = pages.article(page_of(key)).find(id="status").find_next("ul").find("li")
    checks = [a.get_text(strip=True) for a in item.select("a.kb-check")]
    computed_marks = [s.get_text(strip=True) for s in item.select(".kb-computed")]
    told_marks = [s.get_text(strip=True) for s in item.select(".kb-told")]
    expect_checks, expect_computed, expect_told = [], 0, []
    f = sample_kb.figures[key]
    partial = f.partial
    told = {0: f.told.get("increments"), 3: f.told.get("adjacent")}  # _stated_and_computed's order
    for i, (stated, computed) in enumerate(_stated_and_computed(sample_kb, key)):
        if stated is None and partial and told.get(i) is not None:
            nxt = sample_kb.briefs[f.next]
            by = f"{nxt.date.isoformat()}{nxt.round}简报"  # its date and round
            expect_told.append(f"据{by}" + ("" if computed == told[i] else f"；数据中列出{computed}条"))
        elif stated is None:
            expect_computed += 1
        elif stated != computed and not (partial and computed < stated):
            expect_checks.append(f"核对：计算得{computed}")
    assert [norm(c) for c in checks] == expect_checks
    assert len(computed_marks) == expect_computed
    assert [norm(m) for m in told_marks] == expect_told
    text = norm(item.get_text(" "))
    for stated, _ in _stated_and_computed(sample_kb, key):
        if stated is not None:
            assert str(stated) in text


def test_seed_status_summary_and_signature_show_the_authors_figures(pages, sample_kb):
    art = pages.article(SEED_PAGE)
    status = norm(art.find(id="status").find_next("ul").find("li").get_text(" "))
    assert "5条主增量（3条NET-new核对：计算得5+2条paper_card邻接入库核对：计算得1）+6条邻接预备" in status
    summary = norm(art.find(id="summary").find_next("p").get_text(" "))
    assert "净增量=5条主增量（3条NET-new核对：计算得5+2条邻接入库核对：计算得1）+6条邻接预备" in summary
    signature = art.select_one(".kb-signature")
    assert norm(signature.get_text(" ")) == norm(sample_kb.briefs[SEED_KEY].signature)
    check = norm(art.select_one(".kb-sigcheck").get_text(" "))
    assert "NET-new3核对：计算得5" in check and "20+" in check and "分项合计15" in check and "22个不同文件" in check
    # the line names what it checks; 核对 is said by each mark, once (it read 核对：NET-new 3 核对：计算得 5)
    assert check.startswith("签名里的数字：") and check.count("核对") == len(art.select(".kb-sigcheck .kb-check"))


def test_checks_link_to_chinese_findings(pages, sample_kb):
    art = pages.article(SEED_PAGE)
    findings = art.find(id="checks").find_next("ol").find_all("li", recursive=False)
    noted = sample_kb.findings("brief", SEED_KEY)
    assert len(findings) == len(noted) > 0
    text = " ".join(li.get_text(" ") for li in findings)
    assert "分项合计 15" in text and "22 个不同文件" in text and "FlashAttention-4" in text
    assert not re.search(r"\bthe brief states\b", text)  # the reader's language, not the contributors'
    targets = {a["href"][1:] for a in art.select("a.kb-check") if a["href"].startswith("#")}  # (a paper's: its page)
    ids = {el["id"] for el in art.select("[id]")}
    assert targets and targets <= ids
    for li, n in zip(findings, noted, strict=True):
        if n.acknowledged:
            assert norm(n.acknowledged.reason) in norm(li.get_text(" "))


def test_comparison_with_a_reconstructed_previous_brief(pages, sample_kb):
    """The author says 9-2 had 6 adjacent items; only one is known: shown as stated, marked partial."""
    art = pages.article(SEED_PAGE)
    line = norm(art.find(id="comparison").find_next("p").get_text(" "))
    prev = sample_kb.figures[sample_kb.previous(SEED_KEY)]
    assert prev.partial and prev.adjacent == 1
    assert "3条主增量+6（原文6；重建后仅知1条）条邻接预备" in line


def test_reconstructed_brief_has_no_signature_and_lower_bounds(pages, sample_kb):
    key = "inference/2026-09-01-e1"
    art = pages.article(page_of(key))
    assert sample_kb.briefs[key].reconstructed and sample_kb.briefs[key].signature is None
    assert art.select_one(".kb-signature.kb-empty") is not None
    status = art.find(id="status").find_next("ul").find("li")
    assert all(("≥" in s.get_text() or "不明" in s.get_text()) for s in status.select(".kb-computed"))
    # nothing known of its carried-over items: unknown, as the briefs index says, not none
    assert art.find(id="carried").find_next("p").get_text(strip=True) == "？（不明）"
    # its 核对 section does not speak of an original it never had; the seed's does
    intro = lambda page: pages.article(page).find(id="checks").find_next("p").get_text()  # noqa: E731
    assert intro(page_of(key)).startswith("这一期没有原文") and "原文的文字和数字照录" not in intro(page_of(key))
    assert intro(SEED_PAGE).startswith("原文的文字和数字照录在上面")


def test_editor_notes_are_marked(pages, sample_kb):
    art = pages.article(SEED_PAGE)
    notes = art.select(".kb-editor-note")
    assert notes and all("编者注" in n.get_text() for n in notes)
    claim = next(c for c in sample_kb.briefs[SEED_KEY].claims if c.editor_notes)
    assert norm(claim.editor_notes[0].text) in norm(notes[0].get_text())
    bullets = art.find(id="claims").find_all_next("li")
    assert not any("收购方应为 NVIDIA" in li.get_text() for li in bullets)


def test_statuses_and_values(pages):
    art = pages.article(SEED_PAGE)
    increments = art.find(id="increments")
    assert len(increments.find_all_next(class_="kb-status-net-new")) >= 5
    rows = art.find(id="summary").find_next("table").select("tbody tr")
    assert [r.find("td").get_text(strip=True) for r in rows] == list("12345ABCDEF")
    stars = [r.find_all("td")[3].get_text(strip=True).count("⭐") for r in rows]
    assert stars == [3, 5, 5, 4, 4, 4, 3, 4, 3, 4, 4]


def test_sources_lists(pages):
    art = pages.article(SEED_PAGE)
    inc = art.find(id="sources-included").find_next("ul").find_all("li")
    exc = art.find(id="sources-excluded").find_next("ul").find_all("li")
    assert len(inc) == 17 and len(exc) == 6


def test_carried_list_as_written_with_its_check(pages, sample_kb):
    art = pages.article(SEED_PAGE)
    carried = art.find(id="carried")
    items = carried.find_next("ul").find_all("li", recursive=False)
    brief = sample_kb.briefs[SEED_KEY]
    assert len(items) == len(brief.carried) == 12
    for li, entry in zip(items, brief.carried, strict=True):
        assert norm(entry.note) in norm(li.get_text())
    check = norm(carried.find_next(class_="kb-check-line").get_text(" "))
    assert "12件（其中2件已锚入）" in check


def test_previous_next_and_index(pages, sample_kb):
    art = pages.article(SEED_PAGE)
    prev = [a for a in art.select(".kb-prevnext a")]
    assert prev and prev[0]["href"].endswith("2026-09-02-e1/")
    index = pages.article("briefs/index.html")
    dates = [r.find("td").get_text(strip=True) for r in index.select("table tbody tr")]
    assert dates == sorted((b.date.isoformat() for b in sample_kb.briefs.values()), reverse=True)


def test_every_brief_has_a_page(site):
    kb = load_kb(FIXTURE_DATA)
    for key in kb.briefs:
        assert (site / "briefs" / key / "index.html").is_file()


def test_suggested_sections_link_to_living_document_anchors(pages):
    art = pages.article(SEED_PAGE)
    links = [a["href"] for a in art.select("a[href*='inference/#sec-']")]
    assert "../../../inference/#sec-s1-3-kv-cache" in links
    assert "../../../inference/#sec-s1-1-spec-decoding" in links


def _section_hrefs(cell) -> set[str]:
    return {a["href"].rsplit("#", 1)[1] for a in cell.find_all("a", href=True) if "#sec-" in a["href"]}


@pytest.mark.parametrize("key", sorted(load_kb(FIXTURE_DATA).briefs))
def test_entered_values_and_sections_are_on_the_page(pages, sample_kb, key):
    """What a contributor enters as numbers and references shows too: each adjacent item's value
    (its stars) and sections in its row, each increment's sections in its part of the page (in the
    heading, or on a line of their own where the heading shows the author's `where:` instead)."""
    brief = sample_kb.briefs[key]
    art = pages.article(page_of(key))
    if brief.adjacent:
        rows = art.find(id="adjacent").find_next("table").select("tbody tr")
        assert len(rows) == len(brief.adjacent)
        for row, item in zip(rows, brief.adjacent, strict=True):
            cells = row.find_all("td")
            assert cells[4].get_text(strip=True) == "⭐" * item.value, item.title  # the 价值 column
            assert {f"sec-{s}" for s in item.sections} <= _section_hrefs(cells[6]), item.title
    for i, inc in enumerate(brief.increments, 1):
        part = art.find(id=f"inc-{i}")
        block = [part, *part.find_next_siblings()]
        block = block[: next((n for n, el in enumerate(block[1:], 1) if el.name in ("h2", "h3")), len(block))]
        own = [li for el in block for li in el.find_all("li") if li.get_text().startswith("所属章节：")]
        suggested = {x.section for x in inc.suggested}
        if inc.where and not set(inc.sections) <= suggested:  # the heading shows the author's words
            (line,) = own
            assert _section_hrefs(line) == {f"sec-{s}" for s in inc.sections}, (i, line)
        else:  # in the heading (no where:), or among the suggested sections, linked
            assert not own, (i, own)
            heading = norm(part.get_text(" "))
            hrefs = set().union(*(_section_hrefs(el) for el in block))
            for s in inc.sections:
                info = sample_kb.section(brief.topic, s)
                assert f"sec-{s}" in hrefs or (info and norm(info.section.title) in heading), (i, s)


def test_the_sources_check_under_the_signature_shows_only_where_figures_disagree(tmp_path):
    """ "核对" under the signature marks a disagreement: where the stated "20+" sources and the
    breakdown agree with the 22 files listed, no sources mark is shown (and no finding)."""
    import shutil

    from kb.render.brief import page

    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    path = tmp_path / "data" / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = path.read_text("utf-8")
    text = text.replace("    - {label: tom radar, count: 3}", "    - {label: tom radar, count: 10}")  # sums to 22
    text = text.replace("  - finding: stated/sources_breakdown\n", "  - finding: stated/sources_breakdown_gone\n")
    path.write_text(text, "utf-8")
    kb = load_kb(tmp_path / "data")
    assert not [n for n in kb.noted[("brief", SEED_KEY)] if n.finding.code.startswith("stated/sources")]
    html = page(kb, SEED_KEY)
    assert "kb-sigcheck" in html  # the other marks stay
    assert "来源清单列出" not in html.split("kb-sigcheck", 1)[1].split("</p>", 1)[0]


def test_the_table_of_contents_names_increments_and_sections_shortly(pages, sample_kb):
    """The sidebar's table of contents lists each increment by number and name (its heading is the
    whole headline) and each living-document section by its name (no English subtitle, no badge)."""
    toc = pages.soup(SEED_PAGE).select(".md-sidebar--secondary .md-nav__link")
    names = [" ".join(a.get_text(" ").split()) for a in toc]
    labels = [inc.label for inc in sample_kb.briefs[SEED_KEY].increments]
    assert [n for n in names if n.startswith("增量")] == [f"增量 {i} · {x}" for i, x in enumerate(labels, 1)]
    living = [
        " ".join(a.get_text(" ").split())
        for a in pages.soup("inference/index.html").select(".md-sidebar--secondary .md-nav__link")
    ]
    assert "§1.(3) KV Cache" in living and "向量存储引擎化（Vector Storage）" in living
    assert not [n for n in living if "新路线" in n or "KV cache as a vector storage engine" in n]


def test_the_glance_names_the_candidates_a_line_long(sample_kb, monkeypatch):
    """The glance names a brief's candidates (a reconstructed brief may know nothing else of its
    day), at most GLANCE_CANDIDATES of them; more: how many, linked to the section that lists all."""
    from kb.render import brief

    key = "inference/2026-09-01-e1"
    names = [sample_kb.papers[x.paper].short for x in sample_kb.briefs[key].candidates]
    side = re.search(r'<ul class="kb-glance-side">.*?</ul>', brief.page(sample_kb, key), re.S)
    assert side is not None and all(f'<a href="#candidates">{n}</a>' in side.group(0) for n in names)
    monkeypatch.setattr(brief, "GLANCE_CANDIDATES", 3)
    side = re.search(r'<ul class="kb-glance-side">.*?</ul>', brief.page(sample_kb, key), re.S)
    assert side is not None and side.group(0).count('href="#candidates"') == 4
    assert f"共 {len(names)} 件" in side.group(0) and names[3] not in side.group(0)


def test_a_paper_whose_page_has_checks_is_marked_where_the_brief_names_it(pages, sample_kb):
    """SSR's paper page checks its dates (v1 2026-06-17 against an id of 2026-08): the 9-3 brief's
    increment, which shows both dates, links that check beside the paper's line."""
    assert sample_kb.findings("paper", "ssr"), "the fixture's SSR file no longer has a finding"
    art = pages.article(SEED_PAGE)
    mark = next(a for a in art.select("a.kb-check") if "papers/ssr/" in a["href"])
    assert mark["href"].endswith("papers/ssr/#checks") and mark.get_text(strip=True) == "核对：论文页 1 条"
    assert pages.article("papers/ssr/index.html").find(id="checks") is not None
    # a paper without findings gets no such mark
    assert not [a for a in art.select("a.kb-check") if "papers/" in a["href"] and "papers/ssr/" not in a["href"]]


def test_a_relation_links_the_papers_it_lists(pages):
    """A relation's papers are linked where its text names them (Stream2LLM and FlexLLM are named,
    not cited by id), and nowhere else (tests/unit/test_named_links.py: the other cases)."""
    art = pages.article(page_of("inference/2026-09-03-e1"))
    items = [li for li in art.select("li") if "与活文档现有脉络" not in li.get_text() and li.find("a")]

    def relation(start: str):
        return next(li for li in items if norm(li.get_text()).startswith(norm(start)))

    crisp = relation("§1.(3) KV Cache 长上下文稀疏 attention 节")
    links = {a.get_text(): a["href"] for a in crisp.find_all("a")}
    assert links["Stream2LLM"].endswith("papers/stream2llm/") and "CRISP" not in links, links
    flex = relation("§1.(2) 推理调度：与 FlexLLM")
    assert [a.get_text() for a in flex.find_all("a") if "papers/" in a["href"]] == ["FlexLLM"]
    assert "相关论文" not in flex.get_text()


def test_process_detail_is_folded_and_not_in_the_table_of_contents(pages):
    """The desktop table of contents opened with the eight source files; the status block showed the
    job's cron id and the baseline path: both are folded now, and the table of contents lists the
    sources' part but not each source."""
    soup = pages.soup("briefs/inference/2026-09-03-e1/index.html")
    toc = [a["href"] for a in soup.select(".md-sidebar--secondary nav.md-nav--secondary a.md-nav__link")]
    assert "#sources" in toc and not [h for h in toc if h.startswith("#src-")], toc
    assert toc.index("#sources") < toc.index("#inc-1") <= 3  # the news comes early in it
    article = pages.article("briefs/inference/2026-09-03-e1/index.html")
    cron = next(li for li in article.select("#status ~ details li") if "cron" in li.get_text())
    assert cron.find_parent("details").summary.get_text().startswith("流程信息")
    assert article.find(id="src-1") is not None  # the sources keep their anchors


def test_each_news_line_links_its_sections_as_the_living_document_titles_them(pages):
    article = pages.article("briefs/inference/2026-09-03-e1/index.html")
    meta = article.select(".kb-glance .kb-glance-meta")[2]  # Meta MLSys + RTP-LLM: two sections
    links = [(a.get_text(), a["href"]) for a in meta.select("a")]
    assert links[:2] == [
        ("§1.(1) 推理引擎", "../../../inference/#sec-s1-1-engines"),
        ("§1.(2) 推理调度", "../../../inference/#sec-s1-2-scheduling"),
    ], links


def test_a_carried_list_unlike_the_computed_one_says_each_figure_once(tmp_path):
    """Without albireo in the author's list, the line gives the computed figures and links to the
    finding that explains them; it does not add a mark repeating 核对 and the same number."""
    import shutil

    from bs4 import BeautifulSoup

    from kb.render.brief import page

    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    brief = data / "briefs" / "inference" / "2026-09-03-e1.yaml"
    text = brief.read_text("utf-8")
    albireo = "  - {paper: albireo, note: 9-1 候选 · 待锚入, status: pending, origin: 2026-09-01}\n"
    assert albireo in text
    brief.write_text(text.replace(albireo, ""), "utf-8")
    kb = load_kb(data)
    line = BeautifulSoup(page(kb, SEED_KEY), "lxml").find(id="carried").find_next(class_="kb-check-line")
    said = norm(line.get_text(" "))
    assert said.startswith("核对：计算所得沿用件12件（其中2件已锚入）") and "计算得" not in said, said
    (link,) = line.select("a.kb-check")
    assert link["href"].startswith("#check-") and norm(link.get_text()).startswith("见核对第")
