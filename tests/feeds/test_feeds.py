"""Atom and RSS feeds of briefs: well-formed, one entry per brief dated by the brief, escaped, linked from
every page."""

from __future__ import annotations

import datetime as dt
import posixpath
import xml.etree.ElementTree as ET
from email.utils import parsedate_to_datetime
from pathlib import Path

import pytest

from kb.data.models import Character
from kb.knowledge.load import load_kb
from kb.render import feeds
from sitebuild import FIXTURE_DATA

ROOT = Path(__file__).resolve().parents[2]
A = "{http://www.w3.org/2005/Atom}"


def page_url(src: str) -> str:
    """MkDocs' directory URL of a page (use_directory_urls: true)."""
    stem = src[:-3]
    return stem[: -len("index")] if stem.endswith("index") else stem + "/"


@pytest.fixture(scope="module")
def kb():
    return load_kb(FIXTURE_DATA)


def counts(kb, key: str) -> str:
    f = kb.figures[key]
    return (
        f"主增量 {f.increments} 条 · NET-new {f.net_new} 条 · 邻接预备 {f.adjacent} 条 · "
        f"净增 arXiv 号 {len(f.net_new_ids)} 个"
    )


def position(kb, key: str) -> int:
    """Where a brief's entry stands in its topic's feed (newest first)."""
    keys = kb.by_topic[kb.briefs[key].topic]
    return list(reversed(keys)).index(key)


SEED = "inference/2026-09-03-e1"


def check_atom(raw: bytes, kb, topic: str) -> list[ET.Element]:
    root = ET.fromstring(raw)
    assert root.tag == f"{A}feed"
    for tag in ("id", "title", "updated"):
        assert (root.findtext(f"{A}{tag}") or "").strip(), tag
    keys = kb.by_topic[topic]
    assert dt.datetime.fromisoformat(root.findtext(f"{A}updated")) == kb.briefs[keys[-1]].generated_at
    entries = root.findall(f"{A}entry")
    assert len(entries) == len(keys)
    ids = set()
    for entry, key in zip(entries, reversed(keys), strict=True):  # newest first
        brief = kb.briefs[key]
        for tag in ("id", "title", "updated"):
            assert (entry.findtext(f"{A}{tag}") or "").strip(), (key, tag)
        ids.add(entry.findtext(f"{A}id"))
        updated = dt.datetime.fromisoformat(entry.findtext(f"{A}updated"))
        assert updated == brief.generated_at and updated.astimezone(brief.generated_at.tzinfo).date() == brief.date
        assert entry.find(f"{A}link").get("href")
        said = entry.findtext(f"{A}summary")
        assert counts(kb, key) in said
        if brief.character:  # the headline as written, first; and the entry is titled by it
            assert said.startswith(f"本棒性质：{brief.character.title}")
            assert entry.findtext(f"{A}title") == f"{brief.date.isoformat()}：{brief.character.title}"
        assert brief.date.isoformat() in entry.findtext(f"{A}title")
    assert len(ids) == len(keys)
    return entries


def check_rss(raw: bytes, kb, topic: str) -> list[ET.Element]:
    root = ET.fromstring(raw)
    assert root.tag == "rss" and root.get("version") == "2.0"
    channel = root.find("channel")
    for tag in ("title", "link", "description"):
        assert (channel.findtext(tag) or "").strip(), tag
    keys = kb.by_topic[topic]
    items = channel.findall("item")
    assert len(items) == len(keys)
    for item, key in zip(items, reversed(keys), strict=True):
        brief = kb.briefs[key]
        when = parsedate_to_datetime(item.findtext("pubDate"))
        assert when == brief.generated_at and when.date() == brief.date
        assert item.findtext("title") and item.findtext("link") and item.findtext("guid")
        assert counts(kb, key) in item.findtext("description")
    return items


def test_feeds_without_site_url_link_relative_to_the_feed(kb):
    out = feeds.feed_files(kb, "", page_url)
    assert sorted(out) == [
        "inference.atom.xml",
        "inference.papers.atom.xml",
        "inference.papers.rss.xml",
        "inference.rss.xml",
    ]
    entries = check_atom(out["inference.atom.xml"], kb, "inference")
    items = check_rss(out["inference.rss.xml"], kb, "inference")
    latest = kb.by_topic["inference"][-1]
    assert entries[0].find(f"{A}link").get("href") == f"briefs/{latest}/"
    assert entries[0].findtext(f"{A}id") == f"urn:kb:brief:{latest}"
    assert items[-1].findtext("link") == "briefs/inference/2026-09-01-e1/"
    seed = entries[position(kb, SEED)]
    brief = kb.briefs[SEED]  # the news as written first: the headline, then the computed counts
    assert seed.findtext(f"{A}summary") == (
        f"本棒性质：{brief.character.title}。"
        "主增量 5 条 · NET-new 5 条 · 邻接预备 6 条 · 净增 arXiv 号 6 个（计数由知识库计算）。"
    )
    body = seed.findtext(f"{A}content")  # and every main increment's title, linked (relative to the feed)
    assert all(" ".join(inc.title.split()) in " ".join(body.split()) for inc in brief.increments)
    assert 'href="briefs/inference/2026-09-03-e1/#inc-1"' in body and 'href="papers/ssr/"' in body
    channel = ET.fromstring(out["inference.rss.xml"]).find("channel")
    assert channel.findtext("link") == "briefs/"


def test_feeds_with_site_url_link_absolutely(kb):
    out = feeds.feed_files(kb, "https://example.org/kb", page_url)
    atom = ET.fromstring(out["inference.atom.xml"])
    assert atom.findtext(f"{A}id") == "https://example.org/kb/inference.atom.xml"
    links = {ln.get("rel"): ln.get("href") for ln in atom.findall(f"{A}link")}
    assert links == {"self": "https://example.org/kb/inference.atom.xml", "alternate": "https://example.org/kb/briefs/"}
    entry = atom.findall(f"{A}entry")[position(kb, SEED)]
    assert entry.find(f"{A}link").get("href") == entry.findtext(f"{A}id") == f"https://example.org/kb/briefs/{SEED}/"
    item = ET.fromstring(out["inference.rss.xml"]).findall("channel/item")[position(kb, SEED)]
    assert item.findtext("link") == f"https://example.org/kb/briefs/{SEED}/"
    assert item.find("guid").get("isPermaLink") == "true"


def test_feeds_are_deterministic(kb):
    assert feeds.feed_files(kb, "", page_url) == feeds.feed_files(kb, "", page_url)


def test_contributed_text_is_escaped_by_the_xml_library():
    kb = load_kb(FIXTURE_DATA)  # a private copy: this test edits it
    key = "inference/2026-09-02-e1"
    hostile = '<script>alert("x")</script> & ]]> {{ x }}'
    kb.briefs[key] = kb.briefs[key].model_copy(
        update={"character": Character(title=hostile, text="t"), "instance": "<b>Tom & Co</b>"}
    )
    out = feeds.feed_files(kb, "", page_url)
    atom = ET.fromstring(out["inference.atom.xml"])
    entry = atom.findall(f"{A}entry")[position(kb, key)]
    assert entry.findtext(f"{A}title").endswith("：" + hostile)
    assert entry.findtext(f"{A}author/{A}name") == "<b>Tom & Co</b>"
    raw = out["inference.atom.xml"].decode("utf-8")
    assert "<script>" not in raw and "&lt;script&gt;" in raw
    item = ET.fromstring(out["inference.rss.xml"]).findall("channel/item")[position(kb, key)]
    assert item.findtext("title").endswith("：" + hostile)


# --------------------------------------------------------------------------- built site


def test_built_feeds(site, sample_kb):
    check_atom((site / "inference.atom.xml").read_bytes(), sample_kb, "inference")
    items = check_rss((site / "inference.rss.xml").read_bytes(), sample_kb, "inference")
    for item in items:  # every link resolves, against the feed's own address, to a built brief page
        target = posixpath.normpath(item.findtext("link"))
        assert (site / target / "index.html").is_file(), target


@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "briefs/inference/2026-09-03-e1/index.html",
        "papers/retroinfer/index.html",
        "stats/index.html",
        "404.html",
    ],
)
def test_every_page_head_links_the_feeds(site, pages, page):
    head = pages.soup(page).head
    links = {ln["title"]: ln for ln in head.select('link[rel="alternate"]')}
    titles = {f"LLM 推理 · {kind} ({form})" for kind in ("简报", "新论文") for form in ("Atom", "RSS")}
    assert titles <= set(links)
    if page == "404.html":  # served at any depth: its links start at the site root
        assert links["LLM 推理 · 简报 (Atom)"]["href"] == "/inference.atom.xml"
        return
    for title, name in (
        ("LLM 推理 · 简报 (Atom)", "inference.atom.xml"),
        ("LLM 推理 · 简报 (RSS)", "inference.rss.xml"),
        ("LLM 推理 · 新论文 (Atom)", "inference.papers.atom.xml"),
    ):
        href = links[title]["href"]
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), href))
        assert target == name and (site / target).is_file(), href


def test_an_entry_lists_the_days_increments_with_links(kb):
    """A reader app shows the body: each main increment as written, linked to its part of the brief
    and to its papers' pages (a paragraph of counts and bare ids before)."""
    from bs4 import BeautifulSoup

    files = feeds.feed_files(kb, "https://kb.example.org/latest/", page_url)
    root = ET.fromstring(files["inference.atom.xml"])
    brief = kb.briefs[SEED]
    entry = root.findall(f"{A}entry")[position(kb, SEED)]
    body = entry.find(f"{A}content")
    assert body is not None and body.get("type") == "html"
    soup = BeautifulSoup(body.text, "lxml")
    items = soup.select("ol > li")
    assert len(items) == len(brief.increments)
    url = "https://kb.example.org/latest/briefs/inference/2026-09-03-e1/"
    for i, (li, inc) in enumerate(zip(items, brief.increments, strict=True), 1):
        first = li.find("a")
        assert first["href"] == f"{url}#inc-{i}" and first.get_text() == inc.label
        assert inc.title in li.get_text()
        papers = [a["href"] for a in li.find_all("a")[1:]]
        assert papers == [f"https://kb.example.org/latest/papers/{p}/" for p in inc.papers if p in kb.papers]
    assert soup.p.get_text() == brief.character.title


def test_the_new_papers_feed_has_each_paper_once_dated_by_its_first_brief(kb):
    """A feed of new papers: each paper a brief of the topic named first, newest first, dated by that
    brief, linked to its page, titled by its name and full title."""
    files = feeds.feed_files(kb, "https://kb.example.org/latest/", page_url)
    root = ET.fromstring(files["inference.papers.atom.xml"])
    entries = root.findall(f"{A}entry")
    firsts = {pid: kb.history.first_seen(pid) for pid in kb.papers}
    expected = [pid for pid, s in firsts.items() if s is not None and s.brief.startswith("inference/")]
    assert len(entries) == len(expected) > 5
    links = [e.find(f"{A}link").get("href") for e in entries]
    assert sorted(links) == sorted(f"https://kb.example.org/latest/papers/{pid}/" for pid in expected)
    dates = [dt.datetime.fromisoformat(e.findtext(f"{A}updated")) for e in entries]
    assert dates == sorted(dates, reverse=True)  # newest first
    ssr = next(e for e in entries if e.find(f"{A}link").get("href").endswith("/papers/ssr/"))
    first = kb.briefs[firsts["ssr"].brief]
    assert ssr.findtext(f"{A}title") == f"SSR：{kb.papers['ssr'].display_title}"
    assert dt.datetime.fromisoformat(ssr.findtext(f"{A}updated")) == first.dated_at
    assert ssr.findtext(f"{A}summary").startswith(f"首次出现：{first.date.isoformat()}")
    rss = ET.fromstring(files["inference.papers.rss.xml"]).find("channel")
    assert len(rss.findall("item")) == len(entries)


def test_a_feed_holds_its_newest_entries_only(kb, monkeypatch):
    """A feed carries the newest ``feeds.LENGTH`` entries (the site keeps the rest): with room for two,
    the topic's feed holds its two newest briefs and the new-papers feed the two papers named last;
    the feed's own date is still its newest brief's."""
    from kb.render import weekfeed

    whole = feeds.feed_files(kb, "https://kb.example.org/latest/", page_url)
    monkeypatch.setattr(feeds, "LENGTH", 2)
    monkeypatch.setattr(weekfeed, "LENGTH", 2)
    files = feeds.feed_files(kb, "https://kb.example.org/latest/", page_url)
    keys = kb.by_topic["inference"]
    assert len(keys) > 2
    root = ET.fromstring(files["inference.atom.xml"])
    links = [e.find(f"{A}link").get("href") for e in root.findall(f"{A}entry")]
    assert links == [f"https://kb.example.org/latest/{page_url(f'briefs/{k}.md')}" for k in reversed(keys[-2:])]
    assert root.findtext(f"{A}updated") == ET.fromstring(whole["inference.atom.xml"]).findtext(f"{A}updated")
    assert len(ET.fromstring(files["inference.rss.xml"]).find("channel").findall("item")) == 2
    every = [
        e.find(f"{A}link").get("href") for e in ET.fromstring(whole["inference.papers.atom.xml"]).findall(f"{A}entry")
    ]
    papers = [
        e.find(f"{A}link").get("href") for e in ET.fromstring(files["inference.papers.atom.xml"]).findall(f"{A}entry")
    ]
    assert len(every) > 2 and papers == every[:2]  # newest first in both
