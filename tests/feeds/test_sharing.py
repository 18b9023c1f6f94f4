"""Sharing: per-page descriptions and Open Graph tags from the page's own content, a favicon,
subscribe links on the home page and the briefs index, a Chinese 404 page; with KB_SITE_URL
set, canonical links, og:url, a sitemap and absolute feed links (the frozen fixture site)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from lxml import etree

from sitebuild import build

BRIEF = "briefs/inference/2026-09-03-e1/index.html"
PAPER = "papers/retroinfer/index.html"
SITE_URL = "https://kb.example.org/latest/"


def meta(soup, **attrs) -> str | None:
    tag = soup.find("meta", attrs=attrs)
    return tag["content"] if tag else None


def test_every_page_has_its_own_description(pages, sample_kb):
    seen = {}
    rels = ("index.html", BRIEF, PAPER, "briefs/index.html", "papers/index.html", "backlog/index.html")
    for rel in rels + ("stats/index.html", "glossary/index.html"):
        soup = pages.soup(rel)
        desc = meta(soup, name="description")
        assert desc and meta(soup, property="og:description") == desc, rel
        assert meta(soup, property="og:title"), rel
        seen[rel] = desc
    assert len(set(seen.values())) == len(seen)
    brief = sample_kb.briefs["inference/2026-09-03-e1"]
    assert seen[BRIEF].startswith(f"{brief.title}：" + brief.character.title[:20])  # its title as written
    assert seen[PAPER].startswith("RetroInfer")
    assert meta(pages.soup(BRIEF), property="og:type") == "article"
    assert meta(pages.soup("index.html"), property="og:type") == "website"


def test_favicon_is_the_sites_own(pages, site):
    icon = pages.soup(BRIEF).find("link", rel="icon")
    assert icon["href"].endswith("assets/favicon.svg")
    assert (site / "assets" / "favicon.svg").is_file()


@pytest.mark.parametrize("rel", ["index.html", "briefs/index.html"])
def test_subscribe_links_on_home_and_briefs_index(pages, site, rel):
    box = pages.soup(rel).select_one("article .kb-subscribe")
    assert box is not None and box.find("h2").get_text(strip=True) == "订阅"
    hrefs = [a["href"] for a in box.find_all("a")]
    assert any(h.endswith("inference.atom.xml") for h in hrefs) and any(h.endswith("inference.rss.xml") for h in hrefs)
    base = (site / rel).parent
    for h in hrefs:
        assert (base / h).resolve().is_file(), h
    # the theme writes the section after MkDocs made the table of contents: it is listed there too, last
    toc = [a["href"] for a in pages.soup(rel).select(".md-sidebar--secondary nav.md-nav--secondary a.md-nav__link")]
    assert toc and toc[-1] == "#kb-subscribe" and toc.count("#kb-subscribe") == 1


def test_no_subscribe_section_or_entry_elsewhere(pages):
    soup = pages.soup("papers/index.html")
    assert soup.select_one(".kb-subscribe") is None and soup.select_one("a[href='#kb-subscribe']") is None


def test_no_canonical_link_without_site_url(pages):
    assert pages.soup(BRIEF).find("link", rel="canonical") is None
    assert meta(pages.soup(BRIEF), property="og:url") is None


def test_404_page_is_in_chinese(pages):
    soup = pages.soup("404.html")
    h1 = soup.select_one("article h1").get_text(strip=True)
    assert h1 == "404 · 找不到这个页面"
    assert soup.select_one("article a").get_text(strip=True) == "回到首页"


def test_glossary_in_the_nav_under_about(pages):
    tabs = pages.soup("glossary/index.html").select(".md-nav--primary a.md-nav__link")
    assert "术语" in [a.get_text(strip=True) for a in tabs]
    rows = pages.article("glossary/index.html").select("table tr td:first-child")
    terms = {td.get_text(strip=True) for td in rows}
    for term in ("NET-new", "锚入", "邻接预备", "沿用件", "本棒", "🟢 / 🟡", "⭐", "核对", "编者注", "重建"):
        assert term in terms, term
    assert pages.article("glossary/index.html").find("abbr", title=True) is not None


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    dest = tmp_path_factory.mktemp("published")
    run = build(dest, env_extra={"KB_SITE_URL": SITE_URL.rstrip("/")})
    assert run.returncode == 0, run.stdout + run.stderr
    return dest


def test_site_url_from_the_environment(published):
    soup = BeautifulSoup((published / BRIEF).read_text("utf-8"), "lxml")
    url = SITE_URL + "briefs/inference/2026-09-03-e1/"
    assert soup.find("link", rel="canonical")["href"] == url
    assert meta(soup, property="og:url") == url
    sitemap = etree.fromstring((published / "sitemap.xml").read_bytes())
    locs = [e.text for e in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert SITE_URL in locs and url in locs
    atom = etree.fromstring((published / "inference.atom.xml").read_bytes())
    ns = {"a": "http://www.w3.org/2005/Atom"}
    links = [e.get("href") for e in atom.iterfind("a:entry/a:link", ns)]
    assert links and all(h.startswith(SITE_URL + "briefs/") for h in links)


def test_the_sitemap_dates_pages_by_the_data_not_by_the_build(published, sample_kb):
    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    sitemap = etree.fromstring((published / "sitemap.xml").read_bytes())
    dated = {u.findtext(f"{ns}loc"): u.findtext(f"{ns}lastmod") for u in sitemap.iter(f"{ns}url")}
    newest = max(b.date for b in sample_kb.briefs.values()).isoformat()
    assert dated[SITE_URL + "briefs/inference/2026-09-03-e1/"] == "2026-09-03"  # the brief's day
    assert dated[SITE_URL + "papers/ssr/"] <= newest and dated[SITE_URL + "papers/ssr/"] >= "2026-09-03"
    assert dated[SITE_URL + "papers/"] == newest  # an index: the newest brief
    assert dated[SITE_URL + "inference/"] <= newest


def test_a_default_social_image_with_its_size_when_the_address_is_known(published, pages):
    soup = BeautifulSoup((published / BRIEF).read_text("utf-8"), "lxml")
    assert meta(soup, property="og:image") == SITE_URL + "assets/social.png"
    assert (meta(soup, property="og:image:width"), meta(soup, property="og:image:height")) == ("1200", "630")
    assert meta(soup, name="twitter:card") == "summary_large_image"
    png = (published / "assets" / "social.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20]) == 1200 and int.from_bytes(png[20:24]) == 630
    # without an address an image URL could not be absolute, as Open Graph requires
    assert meta(pages.soup(BRIEF), property="og:image") is None
    assert meta(pages.soup(BRIEF), name="twitter:card") == "summary"


def test_site_url_must_be_an_address(tmp_path):
    run = build(tmp_path / "site", env_extra={"KB_SITE_URL": "kb.example.org"})
    assert run.returncode != 0 and "KB_SITE_URL" in run.stdout + run.stderr


def test_first_use_of_each_term_explained_in_place(pages):
    from kb.messages import GLOSSARY

    article = pages.article(BRIEF)
    abbrs = article.find_all("abbr")
    # a run of stars is one use of ⭐, explained whole
    terms = [a.get_text() if a.get_text() in GLOSSARY else a.get_text()[0] for a in abbrs]
    assert "⭐⭐⭐" in [a.get_text() for a in abbrs]
    assert len(terms) == len(set(terms))  # the first use only
    for term in ("NET-new", "本棒性质", "邻接预备", "🟢", "⭐"):
        assert term in terms, term
    for a, term in zip(abbrs, terms, strict=True):
        assert a["title"] == GLOSSARY[term]
        assert a.find_parent(["a", "code", "h1", "h2", "h3", "h4"]) is None
    # the glossary itself explains every term at length (its own abbreviations only)
    assert {a.get_text() for a in pages.article("glossary/index.html").find_all("abbr")} <= {"NET-new", "paper_card"}


def test_explain_first_uses_leaves_markup_alone():
    from kb.render.glossary import explain_first_uses

    glossary = {"锚入": "写进活文档", "待锚入": "等待", "E1": "第一轮"}
    src = '<p title="锚入">已<a href="#x">锚入</a>的 <code>锚入</code> 待锚入 锚入 锚入<!-- 锚入 --></p><h2>E1</h2>'
    out = explain_first_uses(src, glossary)
    assert out == (
        '<p title="锚入">已<a href="#x">锚入</a>的 <code>锚入</code> <abbr title="等待" tabindex="0">待锚入</abbr> '
        '<abbr title="写进活文档" tabindex="0">锚入</abbr> 锚入<!-- 锚入 --></p><h2>E1</h2>'
    )


def test_the_lights_are_not_explained_as_credibility(sample_kb, pages):
    """The author's light on an increment's heading is not a credibility: the seed marks SSR green
    and rates it 中-低 (🟡 in its own words).  The tooltip and the glossary say the light is the
    author's, shown as written, and point to 可信度."""
    from kb.data.models import Light
    from kb.messages import GLOSSARY

    ssr = sample_kb.briefs["inference/2026-09-03-e1"].increments[0]
    assert ssr.light is Light.green and sample_kb.papers["ssr"].credibility.label == "中-低"
    for light in ("🟢", "🟡"):
        assert "不是可信度" in GLOSSARY[light] and "可信度较高" not in GLOSSARY[light]
    row = next(tr for tr in pages.article("glossary/index.html").select("table tr") if "🟢 / 🟡" in tr.get_text())
    assert "不是可信度" in row.get_text()
