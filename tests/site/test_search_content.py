"""What Pagefind indexes of a brief: every word of the page once where it is stated, not again in the
glance at the top (its lines are jump links to the sections that state them: a word of the glance is
found in its section, and the result opens that section)."""

from __future__ import annotations

import copy
import gzip
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from kb.data import arxiv_id
from kb.site.search import words as search_words

SEED_URL = "/briefs/inference/2026-09-03-e1/"
SEED_PAGE = "briefs/inference/2026-09-03-e1/index.html"


def squash(text: str) -> str:
    """Text without spaces (Pagefind's fragment separates words with zero-width spaces)."""
    return re.sub(r"[\s\u200b]+", "", text)


# the one word each arXiv id and each name of a term with other names gets (kb.site.search.words)
INDEX_WORDS = re.compile(r"\b(?:arxiv(?:\d{8,9}|[a-z]+\d{7})|kbsyn[0-9a-z]+)\b")


def fragment(site: Path, url: str) -> dict:
    for path in (site / "pagefind" / "fragment").iterdir():
        raw = gzip.decompress(path.read_bytes())
        record = json.loads(raw[raw.index(b"{") :])
        if record["url"] == url:
            return record
    raise AssertionError(f"no fragment for {url}")


def test_the_glance_is_not_indexed_and_loses_no_word(site, pages):
    # what a reader reads, so less the index's own words (INDEX_WORDS)
    indexed = squash(INDEX_WORDS.sub("", fragment(site, SEED_URL)["content"]))
    art = pages.article(SEED_PAGE)
    glance = art.select(".kb-glance li")
    side = art.select(".kb-glance-side a")
    assert glance and side
    for li in glance:
        assert squash(li.get_text()) not in indexed  # the line as the glance writes it
        for part in li.select("strong a, .kb-glance-meta a"):
            assert squash(part.get_text()) in indexed, part  # its names, stated in its section
        target = art.find(id=li.select_one("a")["href"][1:])
        assert target is not None and target.name == "h3"
    for a in side:
        target = art.find(id=a["href"][1:])
        assert target is not None, a
        # the item's title, less the glance's letter (A, B, …), is in its section
        assert squash(re.sub(r"^[A-Z] ", "", a.get_text())) in indexed, a
    # and the rest of the page is indexed: the headline, the increments' headings
    assert squash(art.select_one(".kb-headline").get_text()) in indexed
    for h3 in art.select("h3[id^=inc-]"):
        assert squash(h3.get_text().rstrip("¶")) in indexed, h3


LISTINGS = {"/papers/": "papers/index.html", "/briefs/": "briefs/index.html", "/backlog/": "backlog/index.html"}
LISTINGS["/stats/"] = "stats/index.html"


def test_the_tables_of_the_listing_pages_are_not_indexed(site, pages):
    """A row of an index page or the backlog is a paper's or a brief's title, id and figures, each
    indexed on its own page; the listing page is found by its title, headings and prose."""
    for url, rel in LISTINGS.items():
        indexed = squash(fragment(site, url)["content"])
        art = copy.copy(pages.article(rel))  # taken apart below: not the session's shared page
        tables = art.select("table")
        assert tables, url
        for gone in art.select("svg, script, style, [hidden]"):  # what Pagefind never reads
            gone.decompose()
        for table in tables:
            table.extract()  # what is left is the page's own text
        prose = squash(art.get_text())
        cells = {squash(td.get_text()) for table in tables for td in table.select("td")}
        own = [c for c in cells if len(c) >= 6 and c not in prose]  # text the tables alone hold
        assert len(own) > 3, url
        assert not [c for c in own if c in indexed], url
        assert squash(art.select_one("h1").get_text().rstrip("¶")) in indexed, url
        for h2 in art.select("h2"):
            assert squash(h2.get_text().rstrip("¶")) in indexed, (url, h2)
        assert squash(art.select_one("p").get_text()) in indexed, url


def test_the_tables_of_other_pages_are_indexed(site, pages):
    """A brief's own tables (its increments, its figures) are what it states: indexed."""
    indexed = squash(INDEX_WORDS.sub("", fragment(site, SEED_URL)["content"]))
    cells = [squash(td.get_text()) for td in pages.article(SEED_PAGE).select("table td")]
    assert len(cells) > 10
    assert all(c in indexed for c in cells if len(c) >= 6 and not re.search(r"\d{4}\.\d{4,5}", c))


def test_a_papers_bibtex_is_not_indexed_but_its_key_is(site, pages):
    """The entry repeats the page's identity list in LaTeX; the key is what a .bib file names it by."""
    indexed = fragment(site, "/papers/ssr/")["content"]
    entry = pages.article("papers/ssr/index.html").select_one("pre.kb-bibtex").get_text()
    key = re.match(r"@\w+\{([^,]+),", entry).group(1)
    assert key == "valluri2026ssr"
    assert key in re.split(r"[\s\u200b]+", indexed)  # a word of its own
    assert "archivePrefix" in entry and "archivePrefix" not in indexed and "@misc" not in indexed
    assert "Speculation" in indexed  # the page's own title and identity list are


def test_a_papers_related_papers_are_not_indexed(site, pages):
    """Cascade's related papers name other papers and the same reasons on every page: a search for
    OpScale should find OpScale's page and the briefs, not every page beside it."""
    indexed = squash(fragment(site, "/papers/cascade/")["content"])
    related = pages.article("papers/cascade/index.html").select_one("div.kb-related").get_text()
    assert "ReplaySSM" in related and "同见于" in related
    assert "ReplaySSM" not in indexed and "同见于" not in indexed
    assert "相关论文" in indexed  # its heading is (the table of contents names it)


def test_the_performance_log_is_a_page_but_not_in_the_index(site):
    """The performance log quotes ids, queries and test strings as examples: a reader's search
    found it, garbled, beside the pages that say them.  It is built and linked, never indexed; the
    other pages about the site (the guide) are."""
    log = BeautifulSoup((site / "performance" / "index.html").read_text("utf-8"), "lxml")
    assert log.select_one("article") is not None and log.select_one("[data-pagefind-body]") is None
    guide = BeautifulSoup((site / "guide" / "index.html").read_text("utf-8"), "lxml")
    assert guide.select_one("article[data-pagefind-body]") is not None


@pytest.mark.parametrize("page", [SEED_PAGE, "papers/ssr/index.html", "inference/index.html", "briefs/index.html"])
def test_each_arxiv_id_written_in_an_article_has_its_search_word_once(site, page):
    """A generated page gets its search words in the walk that finishes its HTML, a hand-written one
    when it is marked for the index: either way each id a reader sees is followed by its word once
    (kb.site.search.words), and no id stated on the page is without it."""
    art = BeautifulSoup((site / page).read_text("utf-8"), "lxml").select_one("article")
    shown = [w for w in art.select("i[hidden]") if w.find_parent(hidden=True) is None]  # not in the said words
    written = Counter(w.get_text().strip() for w in shown)
    for code in art.select("code, pre, kbd, samp, svg, script, [hidden]"):
        code.decompose()
    seen = Counter(search_words.word(m.id) for m in arxiv_id.find_ids(art.get_text()))
    ids = Counter({w: n for w, n in written.items() if w.startswith(search_words.PREFIX)})
    assert seen and ids == seen
