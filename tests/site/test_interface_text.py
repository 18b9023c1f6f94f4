"""What the engine would print in English is the catalogue's Chinese on every built page: the title of
each heading's ¶ link (the toc extension's on hand-written pages, the renderers' on generated ones)
and no generator notice in the footer.  And a living-document heading names a section's English
title only where its own title does not say it already."""

from __future__ import annotations

import re

from kb.messages import UI

PERMALINK = re.compile(r'<a class="headerlink" href="#[^"]*" title="([^"]*)"')


def test_every_permalink_is_titled_from_the_catalogue(site):
    titles: dict[str, int] = {}
    hand_written = generated = 0
    for path in site.rglob("*.html"):
        text = path.read_text("utf-8")
        assert "Permanent link" not in text and "Made with" not in text, path
        for title in PERMALINK.findall(text):
            titles[title] = titles.get(title, 0) + 1
        rel = path.relative_to(site).as_posix()
        hand_written += rel.startswith("guide/") and 'class="headerlink"' in text
        generated += rel.startswith("briefs/inference/") and 'class="headerlink"' in text
    assert titles.keys() == {UI["page.permalink"]} and hand_written and generated


def test_a_section_heading_repeats_no_english_title_it_already_says(pages):
    article = pages.article("inference/index.html")
    smalls = {}
    for heading in article.select("h2, h3, h4, h5, h6"):
        small = heading.find("small")
        if small is not None:
            rest = heading.get_text(" ", strip=True).replace(small.get_text(), "")
            assert small.get_text().casefold() not in rest.casefold(), heading
        smalls[heading.get("id")] = small.get_text() if small is not None else None
    assert smalls["sec-s1"] == "Inference systems"  # 推理系统: said in English beside it
    assert smalls["sec-s1-3-kv-cache"] is None  # KV Cache: the title says it
    assert smalls["sec-s1-1-spec-decoding"] is None  # Speculative Decoding


def test_the_search_dialogs_inside_is_in_kb_words_js_once_not_in_every_page(site):
    """Every page holds the dialog and its form with the index's address; what is inside them, the
    same everywhere, assets/kb-words.js carries (kb-search.js puts it in: tests/browser/test_search.py)."""
    import json

    script = (site / "assets" / "kb-words.js").read_text("utf-8")
    words, _ = json.JSONDecoder().raw_decode(script, script.index("var words = ") + len("var words = "))
    inside = words["search.dialog"]
    assert 'class="md-search__input"' in inside and UI["search.shortcut"] in inside and "kb-search-results" in inside
    pages = [p for p in site.rglob("*.html") if "pagefind" not in p.parts]
    form = '<form class="md-search__form" name="kb-search" action="'
    for path in pages:
        text = path.read_text("utf-8")
        assert 'class="md-search__input"' not in text and text.count(form) == 1, path
    assert len(pages) > 20
