"""Property-based: strings full of markup and template metacharacters pushed through
every rendered field.  The rendered HTML (Markdown converted with the site's own
extensions) never contains active markup from them, and the visible text still
equals the input (a<b, {{BERT}}, 50%, C++, __init__ stay as written)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import markdown
import yaml
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kb.knowledge.index import build
from kb.data.loader import load
from kb.render import backlog as backlog_render
from kb.render import brief as brief_render
from kb.render import paper as paper_render

EXTENSIONS = ["toc", "attr_list", "md_in_html", "tables", "admonition", "pymdownx.superfences"]
META = "<>&\"'`{}[]()*_#!|\\%$~^=:@/;.-+"
TOKENS = ["{{", "}}", "{%", "%}", "{#", "<script>", "</title>", "javascript:", "](", "__init__", "a<b", "C++", "50%",
          "{{BERT}}", "&amp;", "&#x3C;", "<!--", "-->", "\" onerror=\"", "![x](", "| a |", "#", "1.", "> q", "```", "    "]
TEXT = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(alphabet=META + "abcXYZ 中文", min_size=1, max_size=6)),
                min_size=1, max_size=8).map("".join).filter(lambda s: s.strip())

TOPIC = {"id": "inference", "title": "T{S}", "document": "organized/knowledge/inference.md", "page": "inference.md",
         "sections": [{"id": "s1", "number": "1", "title": "S{S}", "summary": "Y{S}"}]}
PAPER = {"id": "p", "arxiv": "2505.02922", "short": "A{S}", "title": "B{S}", "authors": ["C{S}"], "affiliations": ["D{S}"],
         "authors_note": "E{S}", "venue": {"name": "F{S}", "detail": "G{S}", "note": "H{S}"},
         "credibility": {"level": "high", "reason": "I{S}"}, "key_numbers": [{"value": "J{S}", "what": "K{S}"}],
         "notes": ["L{S}"], "anchors": [{"topic": "inference", "section": "s1", "since": "2026-09-03", "note": "M{S}"}],
         "category": {"primary": "inference"}}
BRIEF = {"topic": "inference", "date": "2026-09-03", "round": "E1", "round_name": "a{S}", "instance": "b{S}", "cron": "c{S}",
         "generated_at": "2026-09-03T22:20:00+08:00", "timezone": "d{S}", "timezone_abbr": "e{S}",
         "window": {"start": "2026-09-02T22:20:00+08:00", "end": "2026-09-03T22:20:00+08:00", "note": "f{S}"},
         "baseline": {"document": "x.md", "updated": "2026-09-03", "labels": [{"text": "g{S}"}], "citations": "1"},
         "character": {"title": "h{S}", "text": "i{S}"},
         "stated": {"sources_checked_min": "1", "sources_breakdown": [{"label": "j{S}", "count": "1"}]},
         "sources": [{"title": "k{S}", "time": "l{S}", "findings": ["m{S}"],
                      "cards": [{"number": "1", "title": "n{S}", "note": "o{S}"}],
                      "files": [{"path": "inbox/x.md", "time": "p{S}", "summary": "q{S}", "included": "true", "reason": "r{S}",
                                 "key": "s{S}", "scope": "t{S}"}]}],
         "increments": [{"sections": ["s1"], "light": "green", "title": "u{S}", "label": "v{S}", "tags": ["w{S}"], "papers": ["p"],
                         "sources": [{"path": "inbox/y.md", "section": "x{S}", "note": "y{S}"}],
                         "links": [{"label": "z{S}", "url": "https://example.org/a(b)", "note": "α{S}"}],
                         "credibility_note": "β{S}", "points": [{"title": "γ{S}", "items": ["δ{S}"]}], "defects": ["ε{S}"],
                         "defects_source": "ζ{S}", "relations": [{"section": "s1", "text": "η{S}"}],
                         "suggested": [{"section": "s1", "note": "θ{S}"}], "status": "net-new", "status_note": "ι{S}",
                         "value": "3", "summary_note": "κ{S}"}],
         "adjacent": [{"title": "λ{S}", "text": "μ{S}", "source_note": "ν{S}", "origin": "ξ{S}", "relation": "ο{S}",
                       "category": "π{S}", "value": "2", "warning": "ρ{S}"}],
         "claims": [{"title": "σ{S}", "priority": "P0", "points": ["τ{S}"]}],
         "comparison": {"previous_summary": "υ{S}", "this_summary": "φ{S}", "features": ["χ{S}"]}}
# fields the brief page shows (by marker), and those shown on the paper page
ON_BRIEF = list("abcdefghijklmnopqrstuvwxyz") + list("αβγδεζηθικλμξορστ") + ["B", "F", "I"]
ON_PAPER = list("ABCDEFGHIJKLM")


def fill(template, s: str):
    if isinstance(template, dict):
        return {k: fill(v, s) for k, v in template.items()}
    if isinstance(template, list):
        return [fill(v, s) for v in template]
    return template.replace("{S}", s) if isinstance(template, str) else template


def nows(text: str) -> str:
    return re.sub(r"\s+", "", text)


def render_all(s: str):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, data in (("topics/inference.yaml", TOPIC), ("papers/p.yaml", PAPER),
                          ("briefs/inference/2026-09-03-e1.yaml", BRIEF)):
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(fill(data, s), allow_unicode=True, width=10_000), "utf-8")
        kb = build(load(root))
    assert not kb.errors, [d.text() for d in kb.errors]
    pages = {
        "brief": brief_render.markdown(kb, "inference/2026-09-03-e1"),
        "paper": paper_render.markdown(kb, "p"),
        "backlog": backlog_render.markdown(kb),
    }
    return {k: BeautifulSoup(markdown.markdown(v, extensions=EXTENSIONS), "lxml") for k, v in pages.items()}


def check_inert(soup: BeautifulSoup) -> None:
    allowed = {"html", "body", "p", "a", "ul", "ol", "li", "h1", "h2", "h3", "h4", "strong", "em", "table", "thead", "tbody",
               "tr", "th", "td", "div", "span", "small", "code", "pre", "hr"}
    for el in soup.find_all(True):
        assert el.name in allowed, el
        for attr, value in el.attrs.items():
            assert attr in ("href", "title", "id", "class", "markdown", "data-kb-table"), (el.name, attr)
            if attr == "href":
                assert re.match(r"(https?://|#|\.\.?/|[\w.-]+(/|\.md|#|$))", value), value


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT)
@example("a<b {{BERT}} 50% C++ __init__")
@example("{{ cycler.__init__.__globals__.os.popen('id').read() }}")
@example("</title><script>alert(1)</script><img src=x onerror=alert(1)>[x](javascript:alert(1))")
def test_every_rendered_field_is_inert_and_verbatim(s):
    soups = render_all(s)
    for soup in soups.values():
        check_inert(soup)
    expected = nows(s)
    brief_text = nows(soups["brief"].get_text())
    for marker in ON_BRIEF:
        assert marker + expected in brief_text, (marker, s)
    paper_text = nows(soups["paper"].get_text())
    for marker in ON_PAPER:
        assert marker + expected in paper_text, (marker, s)
