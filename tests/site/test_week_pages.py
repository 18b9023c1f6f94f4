"""The week in one page in the built fixture site (kb build --strict): its page and the index of
weeks are generated, described, marked for search with their own type, hung under 简报, told apart
by editions (a week is a record, the index current); the home page links the latest week; the
weeks' feed is written at the root, linked from every page's head, and parses back with one entry
a week whose links resolve to written pages."""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET

from bs4 import BeautifulSoup

WEEK, INDEX = "weeks/2026-W36/index.html", "weeks/index.html"
A = "{http://www.w3.org/2005/Atom}"


def read(site, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text("utf-8"), "lxml")


def test_the_week_page_is_a_record_with_its_own_search_type(site):
    page = read(site, WEEK)
    assert page.find("meta", attrs={"name": "kb-edition"})["content"] == "record"
    filters = [s["data-pagefind-filter"] for s in page.select("[data-pagefind-filter]")]
    assert filters == ["类型:周报", "主题:LLM 推理"]
    description = page.find("meta", attrs={"name": "description"})["content"]
    assert description.startswith("2026 年第 36 周（2026-08-31 至 2026-09-06）：本周 5 期简报 · ≥11 条主增量")
    assert [a.get_text().strip() for a in page.select("nav.md-path a")] == ["首页", "简报"]
    index = read(site, INDEX)
    assert index.find("meta", attrs={"name": "kb-edition"})["content"] == "current"
    assert [a["href"] for a in index.select("article ul li > a")] == ["2026-W36/"]


def test_links_of_the_week_page_reach_written_pages(site):
    page = read(site, WEEK)
    hrefs = {a["href"] for a in page.select("article a[href]") if not a["href"].startswith(("#", "http"))}
    assert "../../papers/cascade/" in hrefs and "../../briefs/inference/2026-09-05-e1/#inc-1" in hrefs
    assert "../../timeline/inference/#s1-2-scheduling" in hrefs and "../../inference/#sec-s1-2-scheduling" in hrefs
    for href in hrefs:
        target = posixpath.normpath(posixpath.join("weeks/2026-W36", href.split("#")[0]))
        path = site / target / "index.html" if not target.endswith(".xml") else site / target
        assert path.is_file(), href


def test_the_home_page_shows_the_latest_week(site):
    home = read(site, "index.html")
    week = home.select_one("article h2#weeks + ul > li")
    assert week.a["href"] == "weeks/2026-W36/"
    assert "本周 5 期简报 · ≥11 条主增量 · 锚入 5 篇" in week.get_text()
    assert [a["href"] for a in home.select("article h2#weeks ~ p a")][:3] == [
        "weeks/",
        "all.weeks.atom.xml",
        "all.weeks.rss.xml",
    ]


def test_the_weeks_feed_is_linked_from_every_page_and_parses_back(site):
    for page in ("index.html", WEEK, "papers/ssr/index.html"):
        alternates = {ln["href"] for ln in read(site, page).select("link[rel=alternate]")}
        assert any(h.endswith("/all.weeks.atom.xml") for h in alternates), page
    listed = [a["href"] for a in read(site, "stats/index.html").select("article h2#feeds ~ ul a")]
    assert "../all.weeks.atom.xml" in listed and "../all.weeks.rss.xml" in listed  # the statistics' list of feeds
    atom = ET.fromstring((site / "all.weeks.atom.xml").read_bytes())
    (entry,) = atom.findall(f"{A}entry")
    assert entry.findtext(f"{A}title") == "2026 年第 36 周（2026-08-31 至 2026-09-06）"
    href = entry.find(f"{A}link").get("href")
    assert (site / href / "index.html").is_file()
    rss = ET.fromstring((site / "all.weeks.rss.xml").read_bytes())
    (item,) = rss.findall("channel/item")
    assert item.findtext("link") == href and item.findtext("description").startswith("本周 5 期简报")
