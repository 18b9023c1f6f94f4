"""The week in one view (kb.knowledge.week) and page (kb.render.weeks, kb.render.weekfeed), on the
fixture knowledge base (its five briefs, 2026-09-01 to 09-05, fall in ISO week 2026-W36) and on a copy
of it with one more brief, 2026-09-07 (a Monday: 2026-W37), written below.  That brief anchors OpScale
in §1.(2) on 09-06 (a date of the week before: it is still that brief's news), moves FlashAttention-4
from the head section to §1.(2) (carried over, no date), restates Meta's anchoring in §1.(1) (no
news), resolves one claim and drops another.  Every expected value is read off the YAML by hand."""

from __future__ import annotations

import datetime as dt
import shutil
import xml.etree.ElementTree as ET

import pytest
from bs4 import BeautifulSoup

import kbsynth
from kb.knowledge import week as week_module
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import load_kb
from kb.knowledge.week import Week, monday_of, week_id, weeks
from kb.render import weekfeed
from kb.render import weeks as render
from kb.site.pages import affected, snapshot
from sitebuild import FIXTURE_DATA

W36, W37 = "2026-W36", "2026-W37"
B = "inference/2026-09-0{}-e1".format
NEXT_WEEK = """\
topic: inference
date: 2026-09-07
round: E1
instance: Tom
generated_at: 2026-09-07T22:20:00+08:00
timezone: Asia/Shanghai
timezone_abbr: CST
window:
  start: 2026-09-06T22:20:00+08:00
  end: 2026-09-07T22:20:00+08:00
increments:
  - sections: [s1-2-scheduling]
    title: "OpScale 锚入 §1.(2)：算子级弹性（arXiv:2608.13499）"
    label: OpScale
    papers: [opscale]
    status: anchored
    anchored_in: s1-2-scheduling
    anchored_since: 2026-09-06
carried:
  - {paper: flashattention-4, status: anchored, anchored_in: s1-2-scheduling}
  - {paper: meta-llama-inference, status: anchored, anchored_in: s1-1-engines}
claim_updates:
  - {claim: hf-acquisition, action: dropped, note: 传闻已被双方否认。}
  - {claim: retroinfer-maturity, action: resolved, note: 已有集成实测（arXiv:2505.02922）。}
"""


@pytest.fixture(scope="module")
def one() -> KnowledgeBase:
    return load_kb(FIXTURE_DATA)


@pytest.fixture(scope="module")
def two(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    data = tmp_path_factory.mktemp("weeks") / "data"
    shutil.copytree(FIXTURE_DATA, data)
    (data / "briefs/inference/2026-09-07-e1.yaml").write_text(NEXT_WEEK, "utf-8")
    kb = load_kb(data)
    assert not kb.errors, [d.text() for d in kb.errors]
    return kb


def anchorings(w: Week) -> list[tuple[str, str, tuple[str, ...], str]]:
    return [(r.known_by.isoformat(), r.paper, r.sections, r.brief) for t in w.topics for r in t.anchorings]


def counts(w: Week) -> tuple[int, ...]:
    return (w.briefs, w.increments, w.anchorings, w.grown, w.raised, w.resolved, w.dropped)


def test_iso_weeks_are_named_and_start_on_monday():
    assert week_id(dt.date(2026, 9, 6)) == W36 and week_id(dt.date(2026, 9, 7)) == W37
    assert week_id(dt.date(2027, 1, 1)) == "2026-W53"  # a Friday: the ISO year is 2026's
    assert monday_of(W36) == dt.date(2026, 8, 31) and monday_of("2026-W53") == dt.date(2026, 12, 28)


def test_the_fixture_is_one_week_of_five_briefs(one):
    (w,) = weeks(one)
    assert (w.id, w.monday, w.sunday) == (W36, dt.date(2026, 8, 31), dt.date(2026, 9, 6))
    (tw,) = w.topics
    assert tw.topic == "inference" and tw.briefs == tuple(B(d) for d in range(1, 6))
    # 09-01 is reconstructed (no increments); 09-02 has 3, 09-03 5, 09-04 2, 09-05 1
    assert [(i.brief, i.index, i.increment.label) for i in tw.increments] == [
        (B(2), 1, "TokenWeave"),
        (B(2), 2, "Stream2LLM"),
        (B(2), 3, "FlexLLM"),
        (B(3), 1, "SSR"),
        (B(3), 2, "RetroInfer"),
        (B(3), 3, "Meta MLSys + RTP-LLM"),
        (B(3), 4, "Cascade + OpScale"),
        (B(3), 5, "CRISP"),
        (B(4), 1, "PrefixPool"),
        (B(4), 2, "LMCache v2"),
        (B(5), 1, "Cascade"),
    ]


def test_the_weeks_anchorings_are_each_papers_first_record_by_date(one):
    (w,) = weeks(one)
    assert anchorings(w) == [
        # carried entries of 09-03 with no date: known by the brief's date
        ("2026-09-03", "flashattention-4", ("head",), B(3)),
        ("2026-09-03", "mlcommons-mlperf-rag", (), B(3)),
        # 09-04's candidates (RetroInfer's date stated), in the brief's order
        ("2026-09-04", "retroinfer", ("s1-3-vector-storage",), B(4)),
        ("2026-09-04", "meta-llama-inference", ("s1-1-engines",), B(4)),
        ("2026-09-05", "cascade", ("s1-2-scheduling",), B(5)),
    ]
    (tw,) = w.topics
    assert tw.moved == frozenset()
    # sections in the living document's order; the anchoring without a section last
    assert [(g.section, g.papers) for g in tw.grown] == [
        ("head", ("flashattention-4",)),
        ("s1-1-engines", ("meta-llama-inference",)),
        ("s1-2-scheduling", ("cascade",)),
        ("s1-3-vector-storage", ("retroinfer",)),
        (None, ("mlcommons-mlperf-rag",)),
    ]


def test_the_weeks_claims_raised_and_resolved(one):
    (tw,) = weeks(one)[0].topics
    assert [s.claim.id for s in tw.raised] == [
        "ssr-scope",
        "retroinfer-maturity",
        "rtp-llm-open-source",
        "cascade-opscale-deployment",
        "hf-acquisition",
        "prefixpool-code",
    ]
    assert [(c.state.claim.id, c.event.brief) for c in tw.resolved] == [("rtp-llm-open-source", B(4))]
    assert tw.dropped == ()  # ssr-scope and cascade-opscale-deployment were only updated
    assert counts(weeks(one)[0]) == (5, 11, 5, 4, 6, 1, 0)


def test_a_second_week_has_its_own_news(two):
    w36, w37 = weeks(two)
    assert (w36.id, w37.id) == (W36, W37)
    assert anchorings(w37) == [
        ("2026-09-06", "opscale", ("s1-2-scheduling",), B(7)),  # dated in W36, recorded in W37
        ("2026-09-07", "flashattention-4", ("s1-2-scheduling",), B(7)),  # moved from the head section
    ]  # Meta's restated anchoring (same section) is no news
    (tw,) = w37.topics
    assert tw.moved == {("flashattention-4", B(7))}
    assert [(g.section, g.papers) for g in tw.grown] == [("s1-2-scheduling", ("opscale", "flashattention-4"))]
    assert [(c.state.claim.id, c.event.brief) for c in tw.resolved] == [("retroinfer-maturity", B(7))]
    assert [(c.state.claim.id, c.event.brief) for c in tw.dropped] == [("hf-acquisition", B(7))]
    assert counts(w37) == (1, 1, 2, 1, 0, 1, 1)


def test_a_past_week_is_made_from_its_own_records(one, two):
    """The brief of the next week changes nothing of W36's view."""
    assert counts(weeks(two)[0]) == counts(weeks(one)[0])
    assert anchorings(weeks(two)[0]) == anchorings(weeks(one)[0])
    assert [g for t in weeks(two)[0].topics for g in t.grown] == [g for t in weeks(one)[0].topics for g in t.grown]


# --------------------------------------------------------------------------- the pages


def soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "lxml")


def test_the_page_opens_with_the_weeks_news(two):
    page = soup(render.page(two, W37))
    assert page.h1.get_text().rstrip("¶") == "2026 年第 37 周（2026-09-07 至 2026-09-13）"
    news = page.select_one("h1 + div.kb-week-news")
    assert news.p.get_text() == (
        "本周 1 期简报 · 1 条主增量 · 锚入 2 篇 · 1 节增长 · 说法新提 0 条、已核实 1 条、已放弃 1 条"
    )
    line = news.select_one("li")
    assert line.get_text() == "LLM 推理：1 期简报 · 1 条主增量 · 锚入 2 篇（OpScale、FlashAttention-4）"
    assert [a["href"] for a in line.select("a")] == [
        "#inference",
        "../papers/opscale.md",
        "../papers/flashattention-4.md",
    ]
    around = [(a.get_text(), a["href"]) for a in page.select(".kb-prevnext a")]
    assert around == [
        (W36, "2026-W36.md"),
        ("全部周报", "index.md"),
        ("Atom", "../all.weeks.atom.xml"),
        ("RSS", "../all.weeks.rss.xml"),
    ]
    first = soup(render.page(two, W36)).select(".kb-prevnext a")
    assert [(a.get_text(), a["href"]) for a in first[:2]] == [("全部周报", "index.md"), (W37, "2026-W37.md")]


def test_the_page_links_every_anchoring_paper_section_and_brief(two):
    page = soup(render.page(two, W37))
    rows = [[td.get_text() for td in tr.select("td")] for tr in page.select("#inference-anchored ~ div tbody tr")]
    assert rows == [
        ["2026-09-06", "OpScale", "§1.(2) 推理调度", "inference · E1 简报（2026-09-07）"],
        ["最晚 2026-09-07", "FlashAttention-4", "§1.(2) 推理调度（移入）", "inference · E1 简报（2026-09-07）"],
    ]
    links = [a["href"] for a in page.select("#inference-anchored ~ div tbody tr")[0].select("a")]
    assert links == [
        "../papers/opscale.md",
        "../inference.md#sec-s1-2-scheduling",
        "../briefs/inference/2026-09-07-e1.md",
    ]
    grown = page.select_one("#inference-grown + ul li")
    assert grown.get_text() == "§1.(2) 推理调度：+2 篇（OpScale、FlashAttention-4）· 时间线"
    assert grown.select("a")[-1]["href"] == "../timeline/inference.md#s1-2-scheduling"
    (inc,) = page.select("#inference-increments + ul ol li")
    assert inc.get_text() == "OpScale 锚入 §1.(2)：算子级弹性（arXiv:2608.13499）（已锚入 · 原文）"
    # the arXiv id links the paper's page, as elsewhere; 原文 its part of the brief
    assert [a["href"] for a in inc.select("a")] == [
        "../papers/opscale.md",
        "../briefs/inference/2026-09-07-e1.md#inc-1",
    ]
    claims = page.select_one("#inference-claims").find_all_next("li")
    assert [li.get_text() for li in claims] == [
        "RetroInfer wave buffer 的工程成熟度（inference · E1 简报（2026-09-07）：已有集成实测（arXiv:2505.02922）。）",
        "HF $12.9B 收购 HF 的真实状态（inference · E1 简报（2026-09-07）：传闻已被双方否认。）",
    ]
    assert claims[0].select("a")[-1]["href"] == "../papers/retroinfer.md"


def test_a_reconstructed_brief_says_its_increments_are_unknown(one):
    page = soup(render.page(one, W36))
    first = page.select_one("#inference-increments + ul > li")
    assert first.a["href"] == "../briefs/inference/2026-09-01-e1.md"
    assert first.p.get_text() == "这期简报是重建的，不知道它的主增量。"
    assert len(page.select("#inference-increments + ul ol li")) == 11
    # so the week's count is a lower bound, as the brief's own page and the briefs index say it
    assert page.select_one("#inference-increments").get_text().rstrip("¶") == "主增量（≥11 条）"
    assert "≥11 条主增量" in page.select_one("div.kb-week-news p").get_text()
    assert "5 期简报 · ≥11 条主增量" in page.select_one("div.kb-week-news li").get_text()


def test_a_reconstructed_brief_whose_increments_the_next_one_counts_is_no_lower_bound(one):
    """09-02 is reconstructed, but 09-03 says it had 3 main increments, the 3 it lists; of 09-01
    nothing is known.  Only a week holding 09-01 counts its increments as a lower bound."""
    assert one.briefs[B(2)].reconstructed is not None and one.briefs[B(1)].reconstructed is not None
    assert week_module.increments_known(one, B(2)) and not week_module.increments_known(one, B(1))
    assert [key for key in one.briefs if not week_module.increments_known(one, key)] == [B(1)]


def test_the_index_lists_every_week_newest_first(two):
    page = soup(render.index(two))
    assert [h["id"] for h in page.select("h2")] == ["y2026"]  # under their ISO year
    items = page.select("h2#y2026 + ul li")
    assert [li.a["href"] for li in items] == ["2026-W37.md", "2026-W36.md"]
    assert items[1].get_text() == (
        "2026 年第 36 周（2026-08-31 至 2026-09-06）："
        "本周 5 期简报 · ≥11 条主增量 · 锚入 5 篇 · 4 节增长 · 说法新提 6 条、已核实 1 条、已放弃 0 条"
    )


def test_the_home_page_shows_the_latest_week(two):
    home = soup(render.latest(two, "index.md", 1))
    (item,) = home.select("body > ul > li")  # the latest week only
    assert item.a["href"] == "weeks/2026-W37.md"
    assert home.select_one("ul ul a")["href"] == "weeks/2026-W37.md#inference"
    assert [a["href"] for a in home.select("p a")] == ["weeks/index.md", "all.weeks.atom.xml", "all.weeks.rss.xml"]


# --------------------------------------------------------------------------- the feed

A = "{http://www.w3.org/2005/Atom}"


def page_url(src: str) -> str:
    stem = src[:-3]
    return stem[: -len("index")] if stem.endswith("index") else stem + "/"


def test_the_feed_has_a_week_an_entry_newest_first(two):
    out = weekfeed.feed_files(two, "", page_url)
    assert sorted(out) == [render.ATOM, render.RSS] == ["all.weeks.atom.xml", "all.weeks.rss.xml"]
    atom = ET.fromstring(out[render.ATOM])
    entries = atom.findall(f"{A}entry")
    assert [e.findtext(f"{A}id") for e in entries] == ["urn:kb:week:2026-W37", "urn:kb:week:2026-W36"]
    assert [e.find(f"{A}link").get("href") for e in entries] == ["weeks/2026-W37/", "weeks/2026-W36/"]
    assert entries[0].findtext(f"{A}title") == "2026 年第 37 周（2026-09-07 至 2026-09-13）"
    assert entries[0].findtext(f"{A}summary") == render.news(weeks(two)[1])
    # dated by the week's last brief
    assert dt.datetime.fromisoformat(entries[1].findtext(f"{A}updated")) == two.briefs[B(5)].generated_at
    body = entries[0].findtext(f"{A}content")
    assert 'href="weeks/2026-W37/#inference"' in body and 'href="papers/opscale/"' in body
    items = ET.fromstring(out[render.RSS]).findall("channel/item")
    assert [i.findtext("link") for i in items] == ["weeks/2026-W37/", "weeks/2026-W36/"]


def test_the_feed_links_absolutely_with_a_site_url(one):
    out = weekfeed.feed_files(one, "https://example.org/kb", page_url)
    atom = ET.fromstring(out[render.ATOM])
    links = {ln.get("rel"): ln.get("href") for ln in atom.findall(f"{A}link")}
    assert links == {"self": "https://example.org/kb/all.weeks.atom.xml", "alternate": "https://example.org/kb/weeks/"}
    (entry,) = atom.findall(f"{A}entry")
    assert entry.findtext(f"{A}id") == "https://example.org/kb/weeks/2026-W36/"


def test_without_a_brief_there_is_no_week_and_no_feed_to_link(tmp_path):
    data = tmp_path / "data"
    for rel, text in kbsynth.build(briefs=0, papers=3).items():
        (data / rel).parent.mkdir(parents=True, exist_ok=True)
        (data / rel).write_text(text, "utf-8")
    kb = load_kb(data)
    assert kb.topics and not kb.briefs
    assert weeks(kb) == () and weekfeed.feed_files(kb, "", page_url) == {}
    home = soup(render.latest(kb, "index.md"))
    assert home.get_text() == "还没有简报。\n全部周报"
    assert not soup(render.index(kb)).select("a[href$='.xml']")


# --------------------------------------------------------------------------- the preview


def edited(data, path: str, old: str, new: str) -> frozenset[str]:
    """The pages a preview makes again after replacing ``old`` by ``new`` in ``data/<path>``."""
    before = snapshot(load_kb(data))
    text = (data / path).read_text("utf-8")
    assert old in text, (path, old)
    (data / path).write_text(text.replace(old, new, 1), "utf-8")
    return affected(before, snapshot(load_kb(data)))


@pytest.fixture
def data(tmp_path):
    shutil.copytree(FIXTURE_DATA, tmp_path / "data")
    return tmp_path / "data"


def test_a_week_page_is_remade_when_what_it_shows_changes(data):
    page = render.page_of(W36)
    title = 'title: "Cascade 锚入 §1.(2)：'
    assert page in edited(data, "briefs/inference/2026-09-05-e1.yaml", title, title + "新词")  # an increment
    assert page in edited(data, "papers/cascade.yaml", "short: Cascade", "short: Cascade2")  # a name it links
    assert page in edited(data, "briefs/inference/2026-09-04-e1.yaml", "action: resolved", "action: dropped")


def test_a_week_page_is_not_remade_for_what_it_does_not_show(data):
    page = render.page_of(W36)
    headline = "\ncharacter:\n  title: "
    assert page not in edited(data, "briefs/inference/2026-09-03-e1.yaml", headline, headline + "新词")
    # a paper only the 09-01 brief's candidates name: not on the week's page
    assert page not in edited(data, "papers/neuroprefetcher.yaml", "short: NeuroPrefetcher", "short: NP2")


def test_a_new_week_remakes_the_week_before_for_its_link(data):
    before = snapshot(load_kb(data))
    (data / "briefs/inference/2026-09-07-e1.yaml").write_text(NEXT_WEEK, "utf-8")
    pages = affected(before, snapshot(load_kb(data)))
    assert {render.page_of(W36), render.page_of(W37), render.INDEX} <= pages


def test_a_lower_bound_of_nothing_is_said_to_be_unknown():
    """A week whose only briefs are reconstructions with no increments listed says 'unknown', as the
    briefs index does, not '≥0' (kb.render.checks.at_least, shared by both)."""
    from kb.render.checks import at_least

    assert (at_least(3, False), at_least(3, True), at_least(0, False)) == ("3", "≥3", "0")
    assert at_least(0, True) == "？（不明）"
