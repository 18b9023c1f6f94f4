"""Charts: the SVGs parse, hold one cell per section-week / one bar per age bucket with the computed
values (expectations computed here from the YAML files and the backlog), escape text, and are built."""

from __future__ import annotations

import datetime as dt
import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
import yaml

from kb.cli import main
from kb.knowledge.backlog import pending_items
from kb.knowledge.index import SectionInfo
from kb.knowledge.load import load_kb
from kb.render import charts
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]
S = "{http://www.w3.org/2000/svg}"
# (low, high) age in days of each bar, as the page promises: 0, 1, 2-3, 4-7, 8-14, 15-30, 31-90, 91+
BUCKETS = [(0, 0), (1, 1), (2, 3), (4, 7), (8, 14), (15, 30), (31, 90), (91, 10**6)]


@pytest.fixture(scope="module")
def kb():
    return load_kb(FIXTURE_DATA)


def expected_week_counts(data: Path, topic: str) -> Counter:
    """(section, Monday) -> increments naming the section, straight from the brief files."""
    out: Counter = Counter()
    for path in sorted((data / "briefs" / topic).glob("*.yaml")):
        brief = yaml.safe_load(path.read_text("utf-8"))
        day = brief["date"]
        week = day - dt.timedelta(days=day.weekday())
        for inc in brief.get("increments") or []:
            for section in set(inc["sections"]):
                out[(section, week.isoformat())] += 1
    return out


def cells(svg: str) -> dict[tuple[str, str], int]:
    root = ET.fromstring(svg)
    assert root.tag == f"{S}svg"
    rects = root.iter(f"{S}rect")
    out = {}
    for r in rects:
        key = (r.get("data-section"), r.get("data-week"))
        assert key not in out, key
        out[key] = int(r.get("data-count"))
    return out


def bars(svg: str) -> list[tuple[int, int | None, int]]:
    root = ET.fromstring(svg)
    assert root.tag == f"{S}svg"
    return [
        (int(r.get("data-min")), int(r.get("data-max")) if r.get("data-max") else None, int(r.get("data-count")))
        for r in root.iter(f"{S}rect")
    ]


def test_increments_heat_table_matches_the_briefs(kb):
    got = cells(charts.increments_svg(kb, "inference"))
    want = expected_week_counts(FIXTURE_DATA, "inference")
    # hand-checked: the five briefs 9-1 … 9-5 all fall in the week of Monday 2026-08-31; 9-4 adds an
    # increment on §1.(2) and one on §1.(3), 9-5 one on §1.(2)
    assert want == {
        ("s1-1-engines", "2026-08-31"): 4,
        ("s1-2-scheduling", "2026-08-31"): 6,
        ("s1-3-kv-cache", "2026-08-31"): 4,
    }
    assert got == dict(want)


def test_a_week_with_a_reconstructed_brief_counts_lower_bounds(kb):
    """9-1 is reconstructed and lists no increment (9-2 says how many it had: it lists them all): the
    week of 2026-08-31 may hold more than its briefs list, so its counts are lower bounds, as the
    week pages say them: ≥n, and unknown where that would be ≥0."""
    assert charts.increments_by_week(kb, "inference").partial == {dt.date(2026, 8, 31)}
    root = ET.fromstring(charts.increments_svg(kb, "inference"))
    shown = {t.text for g in root.iter(f"{S}g") if g.get("class") == "kb-cell" for t in g.iter(f"{S}text")}
    assert shown == {"≥4", "≥6"}
    tips = [t.text for t in root.iter(f"{S}title")]
    assert any(tip.endswith("2026-08-31 起一周：≥6 条主增量") for tip in tips)
    table = charts.increments_table(kb, "inference")
    assert table.count("<td>≥4</td>") == 2 and "<td>≥6</td>" in table and "<td>4</td>" not in table
    page = charts.page(kb)
    assert "写着 ≥ 的一周有据后来的简报重建的一期" in page


def test_a_week_whose_briefs_list_everything_counts_plainly(tmp_path):
    """Without the reconstructed brief every count is exact: no ≥, no note."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    (data / "briefs" / "inference" / "2026-09-01-e1.yaml").unlink()
    kb = load_kb(data)
    assert not charts.increments_by_week(kb, "inference").partial
    assert "≥" not in charts.increments_svg(kb, "inference") + charts.increments_table(kb, "inference")
    assert "写着 ≥ 的一周" not in charts.page(kb)


def test_backlog_age_bars_match_pending_items(kb):
    ages = [it.age_days for it in pending_items(kb, "inference")]
    want = [sum(1 for a in ages if lo <= a <= hi) for lo, hi in BUCKETS]
    # as of 2026-09-05: PrefixPool (9-4) is 1 day old; 9-3's four still pending (SSR, RTP-LLM, OpScale, CRISP)
    # and 9-2's four (TokenWeave, Stream2LLM, FlexLLM, and LMCache v2, first seen there as an adjacent item)
    # are 2 and 3 days old; 9-1's seven are 4 days old
    assert want[:4] == [0, 1, 8, 7] and sum(want) == 16
    got = bars(charts.backlog_age_svg(kb, "inference"))
    assert [c for _, _, c in got] == want
    assert [(lo, hi) for lo, hi, _ in got] == [(lo, None if hi == 10**6 else hi) for lo, hi in BUCKETS]


def test_backlog_age_chart_fits_a_phone_unscaled_with_short_labels(kb):
    """Eight bars fit a phone's column (about 358 px) at their own size, so the text is not scaled
    down there: each bar's label is its days without the unit, which the axis says once."""
    root = ET.fromstring(charts.backlog_age_svg(kb, "inference"))
    width = float(root.get("viewBox").split()[2])
    assert width <= 358
    labels = [t.text for t in root.iter(f"{S}text") if t.get("y") == str(int(float(root.get("height"))) - 10)]
    assert labels == ["天", "0", "1", "2–3", "4–7", "8–14", "15–30", "31–90", "90+"]
    slot = (width - 36) / 8
    assert all(charts._width(label) <= slot for label in labels[1:])  # neighbours do not touch
    tips = [t.text for t in root.iter(f"{S}title")][1:]
    assert tips[5].startswith("15–30 天") and tips[7].startswith("90 天以上")  # the tooltips keep the unit


def test_weeks_are_contiguous_and_every_pair_has_a_cell(tmp_path, capsys):
    """A brief two weeks later: an empty week in between still has its column."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    assert main(["new", "brief", "--topic", "inference", "--date", "2026-09-16", "--data", str(data)]) == 0
    path = data / "briefs" / "inference" / "2026-09-16-e1.yaml"
    text = path.read_text("utf-8").replace(
        "increments: []\n",
        (
            "increments:\n"
            "  - {sections: [s1-1-spec-decoding, s1-1-spec-decoding],\n"
            "     title: x, label: x, papers: [ssr], status: pending}\n"
            "  - {sections: [s1-3-kv-cache], title: y, label: y, status: net-new}\n"
        ),
    )
    # raised again as an increment, so it leaves the carried-over candidates (one status per brief)
    text = re.sub(r"  - paper: ssr\n    status: net-new\n    note: [^\n]*\n", "", text)
    path.write_text(text, "utf-8")
    kb = load_kb(data)
    got = cells(charts.increments_svg(kb, "inference"))
    want = expected_week_counts(data, "inference")
    weeks = ["2026-08-31", "2026-09-07", "2026-09-14"]
    sections = ["s1-1-engines", "s1-1-spec-decoding", "s1-2-scheduling", "s1-3-kv-cache"]  # outline order
    assert set(got) == {(s, w) for s in sections for w in weeks}
    assert got == {(s, w): want.get((s, w), 0) for s in sections for w in weeks}
    assert got[("s1-1-spec-decoding", "2026-09-14")] == 1 and got[("s1-3-kv-cache", "2026-09-07")] == 0
    table = charts.increments_by_week(kb, "inference")
    assert table.sections == sections and [w.isoformat() for w in table.weeks] == weeks
    # ages move with the new latest brief (2026-09-16): 9-1's items are now 15 days old
    ages = Counter(it.age_days for it in pending_items(kb, "inference"))
    got_bars = bars(charts.backlog_age_svg(kb, "inference"))
    assert [c for _, _, c in got_bars] == [sum(n for a, n in ages.items() if lo <= a <= hi) for lo, hi in BUCKETS]
    assert got_bars[5][2] == ages[15] > 0


def test_text_in_svg_is_escaped(kb):
    kb = load_kb(FIXTURE_DATA)  # a private copy: this test edits it
    info = kb.sections["inference"]["s1-2-scheduling"]
    hostile = '<script>alert("x")</script> & ]]> 调度'
    kb.sections["inference"]["s1-2-scheduling"] = SectionInfo(
        info.topic, info.section.model_copy(update={"title": hostile}), info.parents, info.depth
    )
    kb.papers["ssr"] = kb.papers["ssr"].model_copy(update={"short": "<i>SSR & co</i>"})
    svg = charts.increments_svg(kb, "inference")
    root = ET.fromstring(svg)
    labels = [t.text for t in root.iter(f"{S}text")]
    assert "§1.(2) " + hostile in labels
    assert "<script>" not in svg
    age = charts.backlog_age_svg(kb, "inference")
    tips = [t.text for t in ET.fromstring(age).iter(f"{S}title")]
    assert any("<i>SSR & co</i>" in (t or "") for t in tips)
    assert "<i>" not in age


def test_no_data_no_chart(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(FIXTURE_DATA, data)
    (data / "topics" / "other.yaml").write_text(
        "id: other\ntitle: Other\ndocument: other.md\npage: inference.md\nsections:\n  - {id: o1, title: One}\n",
        "utf-8",
    )
    kb = load_kb(data)
    assert charts.increments_svg(kb, "other") is None and charts.backlog_age_svg(kb, "other") is None
    page = charts.page(kb)
    assert "还没有主增量。" in page and "没有待锚入的条目。" in page
    assert page.count("<svg") == 2  # the inference topic's charts only


# --------------------------------------------------------------------------- built site


def test_stats_page_is_built_with_both_charts(pages, kb):
    nav = pages.soup("index.html").select_one("nav.md-nav--primary").get_text(" ")
    assert "统计" in nav
    art = pages.article("stats/index.html")
    svgs = {svg["data-chart"]: svg for svg in art.select("svg")}
    assert set(svgs) == {"increments", "backlog-age"}
    inc = {(r["data-section"], r["data-week"]): int(r["data-count"]) for r in svgs["increments"].select("rect")}
    assert inc == dict(expected_week_counts(FIXTURE_DATA, "inference"))
    ages = [it.age_days for it in pending_items(kb, "inference")]
    assert [int(r["data-count"]) for r in svgs["backlog-age"].select("rect")] == [
        sum(1 for a in ages if lo <= a <= hi) for lo, hi in BUCKETS
    ]
    links = {a.get_text(): a["href"] for a in art.select("a[href]")}
    feeds = [a["href"] for a in art.select("a[href]") if a.get_text() in ("Atom", "RSS")]
    assert {"../inference.atom.xml", "../inference.rss.xml"} <= set(feeds)  # the briefs' feeds
    assert {"../inference.papers.atom.xml", "../inference.papers.rss.xml"} <= set(feeds)  # and the new papers'
    assert links["待办"] == "../backlog/#pending-inference"
    assert not art.find("script")


def test_backlog_page_has_the_age_chart(site, pages):
    art = pages.article("backlog/index.html")
    svg = art.select_one('svg[data-chart="backlog-age"]')
    assert svg is not None and art.find(id="age-inference") is not None
    # the raw HTML of the built page parses as XML around the SVG: it was not mangled by Markdown
    html = (site / "backlog" / "index.html").read_text("utf-8")
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg"')
    ET.fromstring(html[start : html.index("</svg>", start) + len("</svg>")])
