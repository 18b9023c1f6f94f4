"""What Pagefind indexes of a brief: every word of the page once where it is stated, not again in the
glance at the top (its lines are jump links to the sections that state them: a word of the glance is
found in its section, and the result opens that section)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

SEED_URL = "/briefs/inference/2026-09-03-e1/"
SEED_PAGE = "briefs/inference/2026-09-03-e1/index.html"


def squash(text: str) -> str:
    """Text without spaces (Pagefind's fragment separates words with zero-width spaces)."""
    return re.sub(r"[\s\u200b]+", "", text)


def fragment(site: Path, url: str) -> dict:
    for path in (site / "pagefind" / "fragment").iterdir():
        raw = gzip.decompress(path.read_bytes())
        record = json.loads(raw[raw.index(b"{") :])
        if record["url"] == url:
            return record
    raise AssertionError(f"no fragment for {url}")


def test_the_glance_is_not_indexed_and_loses_no_word(site, pages):
    # what a reader reads, so less the one word each arXiv id gets (kb.site.search_words)
    indexed = squash(re.sub(r"\barxiv(?:\d{8,9}|[a-z]+\d{7})\b", "", fragment(site, SEED_URL)["content"]))
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
