"""Property-based: strings full of markup and template metacharacters pushed through
every rendered field.  The rendered HTML (what the renderers hand to the page: no
Markdown pass runs on it) never contains active markup from them, and the visible
text still equals the input (a<b, {{BERT}}, 50%, C++, __init__ stay as written)."""

from __future__ import annotations

import itertools
import re
import tempfile
from pathlib import Path

import yaml
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kb.data.loader import load
from kb.knowledge.load import build
from kb.render import backlog as backlog_render
from kb.render import brief as brief_render
from kb.render import living as living_render
from kb.render import paper as paper_render

META = "<>&\"'`{}[]()*_#!|\\%$~^=:@/;.-+"
TOKENS = [
    "{{",
    "}}",
    "{%",
    "%}",
    "{#",
    "<script>",
    "</title>",
    "javascript:",
    "](",
    "__init__",
    "a<b",
    "C++",
    "50%",
    "{{BERT}}",
    "&amp;",
    "&#x3C;",
    "<!--",
    "-->",
    '" onerror="',
    "![x](",
    "| a |",
    "#",
    "1.",
    "> q",
    "```",
    "    ",
]
TEXT = (
    st.lists(
        st.one_of(st.sampled_from(TOKENS), st.text(alphabet=META + "abcXYZ 中文", min_size=1, max_size=6)),
        min_size=1,
        max_size=8,
    )
    .map("".join)
    .filter(lambda s: s.strip())
)

_ON: dict[str, list[str]] = {"brief": [], "prev": [], "paper": [], "backlog": [], "living": []}
_NUMBER = itertools.count()


def v(*pages: str) -> str:
    """A field's template value: a unique marker, then the hostile string; registered as shown on ``pages``."""
    marker = f"K{next(_NUMBER)}K"
    for page in pages:
        _ON[page].append(marker)
    return marker + "{S}"


# Every author-written field of the models (the breakdown's labels, `x`, are not shown: the brief
# page gives their total only) (see tests/fixtures/kb/data/briefs/inference/2026-09-03-e1.yaml):
# an earlier brief (raising a claim and a paper that the later one carries over and updates), the brief
# itself, a topic and two papers.
TOPIC = {
    "id": "inference",
    "title": v("backlog", "paper"),
    "document": "organized/knowledge/inference.md",
    "page": "inference.md",
    "sections": [{"id": "s1", "number": "1", "title": v("living"), "summary": v("living")}],
    "updates": [{"date": "2026-09-03", "labels": [{"text": v("living")}], "citations": 1}],
}
PAPER = {
    "id": "p",
    "arxiv": "2505.02922",
    "short": v("paper"),
    "title": v("paper", "brief"),
    "authors": [v("paper")],
    "affiliations": [v("paper")],
    "authors_note": v("paper"),
    "venue": {"name": v("paper"), "detail": v("paper"), "note": v("paper")},
    "subjects": [v("paper")],
    "credibility": {"level": "high", "reason": v("paper")},
    "key_numbers": [{"value": v("paper"), "what": v("paper")}],
    "notes": [v("paper")],
    "category": {"primary": "inference"},
    "arxiv_meta": {"title": "B{S}", "abstract": v("paper"), "journal_ref": v("paper")},
}
PAPER_Q = {"id": "q", "short": "Q{S}", "category": {"primary": "inference"}}
PREV = {
    "topic": "inference",
    "date": "2026-09-02",
    "round": "E1",
    "instance": "b{S}",
    "generated_at": "2026-09-02T22:20:00+08:00",
    "timezone": "Asia/Shanghai",
    "window": {"start": "2026-09-01T22:20:00+08:00", "end": "2026-09-02T22:20:00+08:00"},
    "increments": [{"sections": ["s1"], "title": v("prev"), "label": "q{S}", "papers": ["q"], "status": "net-new"}],
    "claims": [
        {"id": "c-one", "title": v("prev", "backlog"), "priority": "P1", "papers": ["p"], "points": [v("prev")]}
    ],
}
BRIEF = {
    "topic": "inference",
    "date": "2026-09-03",
    "round": "E1",
    "round_name": v("brief"),
    "title": v("brief"),
    "instance": v("brief"),
    "cron": v("brief"),
    "generated_at": "2026-09-03T22:20:00+08:00",
    "timezone": v("brief"),
    "timezone_abbr": v("brief"),
    "window": {"start": "2026-09-02T22:20:00+08:00", "end": "2026-09-03T22:20:00+08:00", "note": v("brief")},
    "character": {"title": v("brief"), "text": v("brief")},
    "stated": {
        "increments": 1,
        "net_new": 1,
        "adjacent": 1,
        "arxiv_net_new": 1,
        "sources_checked_min": 1,
        "sources_breakdown": [{"label": "x{S}", "count": 1}],
        "previous_increments": 1,
    },
    "sources": [
        {
            "title": v("brief"),
            "time": v("brief"),
            "findings": [v("brief")],
            "files": [
                {
                    "path": "inbox/x.md",
                    "time": v("brief"),
                    "summary": v("brief"),
                    "key": v("brief"),
                    "scope": v("brief"),
                    "classifies": [{"paper": "p", "category": v("brief")}],
                }
            ],
            "cards_window": {"label": v("brief"), "start": "2026-09-01", "end": "2026-09-03"},
            "cards": [
                {"number": 1, "arxiv": "2505.02922", "title": v("brief"), "ingested": v("brief"), "note": v("brief")}
            ],
            "tally": [v("brief")],
            "stated": {"cards": 1},
            "confirmed_pending": ["q"],
        }
    ],
    "increments": [
        {
            "sections": ["s1"],
            "where": v("brief"),
            "light": "green",
            "title": v("brief"),
            "label": v("brief"),
            "papers": ["p"],
            "sources": [{"path": "inbox/y.md", "section": v("brief"), "note": v("brief")}],
            "links": [{"label": v("brief"), "url": "https://example.org/a(b)", "note": v("brief")}],
            "credibility_note": v("brief"),
            "points": [{"title": v("brief"), "items": [v("brief")]}],
            "defects": [v("brief")],
            "defects_source": v("brief"),
            "relations": [
                {"section": "s1", "label": v("brief"), "papers": ["q"], "origin": "2026-09-02", "text": v("brief")}
            ],
            "suggested": [{"section": "s1", "label": v("brief"), "note": v("brief")}],
            "status": "net-new",
            "status_note": v("brief"),
            "value": 3,
            "summary": {"label": v("brief"), "category": v("brief"), "status": v("brief")},
            "editor_notes": [{"text": v("brief")}],
        }
    ],
    "adjacent": [
        {
            "title": v("brief"),
            "text": v("brief"),
            "source_note": v("brief"),
            "origin": v("brief"),
            "relation": v("brief"),
            "sections": ["s1"],
            "value": 2,
            "warning": v("brief"),
            "summary": {"label": v("brief"), "category": v("brief"), "status": v("brief")},
            "editor_notes": [{"text": v("brief")}],
        }
    ],
    "claims": [
        {
            "id": "c-two",
            "title": v("brief", "backlog"),
            "priority": "P0",
            "papers": ["p"],
            "points": [v("brief")],
            "editor_notes": [{"text": v("brief")}],
        }
    ],
    "claim_updates": [{"claim": "c-one", "action": "updated", "priority": "P0", "note": v("brief", "backlog")}],
    "citable": [{"paper": "p", "note": v("brief")}],
    "carried": [{"paper": "q", "note": v("brief"), "status": "pending", "origin": "2026-09-02"}],
    "comparison": {
        "previous_label": v("brief"),
        "previous_summary": v("brief"),
        "this_summary": v("brief"),
        "features": [v("brief")],
    },
    "checked": {
        "included": [{"path": "inbox/x.md", "note": v("brief")}],
        "excluded_label": v("brief"),
        "excluded": [{"path": "inbox/z.md", "note": v("brief")}],
    },
    "signature": v("brief"),
    "editor_notes": [{"text": v("brief")}],
}
FILES = (
    ("topics/inference.yaml", TOPIC),
    ("papers/p.yaml", PAPER),
    ("papers/q.yaml", PAPER_Q),
    ("briefs/inference/2026-09-02-e1.yaml", PREV),
    ("briefs/inference/2026-09-03-e1.yaml", BRIEF),
)


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
        for rel, data in FILES:
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(yaml.safe_dump(fill(data, s), allow_unicode=True, width=10_000), "utf-8")
        kb = build(load(root))
    assert not kb.errors, [d.text() for d in kb.errors]
    pages = {
        "brief": brief_render.page(kb, "inference/2026-09-03-e1"),
        "prev": brief_render.page(kb, "inference/2026-09-02-e1"),
        "paper": paper_render.page(kb, "p"),
        "backlog": backlog_render.page(kb),
        "living": "\n\n".join(
            [
                living_render.section(kb, "inference", "s1", "inference.md"),
                living_render.update_labels(kb, "inference", "inference.md"),
            ]
        ),
    }
    return {k: BeautifulSoup(v, "lxml") for k, v in pages.items()}


def check_inert(soup: BeautifulSoup) -> None:
    allowed = {
        "html",
        "body",
        "p",
        "a",
        "ul",
        "ol",
        "li",
        "h1",
        "h2",
        "h3",
        "h4",
        "strong",
        "em",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "div",
        "span",
        "small",
        "code",
        "pre",
        "hr",
        "br",
        "details",
        "summary",
    }
    graph = {"svg", "g", "path", "circle", "text", "title", "desc"}  # a related-papers graph (kb.render.related)
    drawing = {"width", "height", "viewbox", "role", "aria-labelledby", "aria-describedby", "font-size", "d"}
    drawing |= {"stroke-width", "cx", "cy", "r", "x", "y", "text-anchor"}
    for el in soup.find_all(True):
        in_graph = el.name in graph and el.find_parent("svg") is not None or el.name == "svg"
        assert el.name in allowed or in_graph, el
        for attr, value in el.attrs.items():
            allowed_attrs = ("href", "title", "id", "class", "data-kb-table", "data-kb-cards", "data-kb-sort", "open")
            if in_graph and attr in drawing:  # the renderer's numbers and ids, never contributed text
                assert attr in ("role", "text-anchor") or re.fullmatch(r"[\w .-]+", value), (el.name, attr, value)
                continue
            if attr == "aria-label":  # a graph node's name: contributed text, as an attribute value
                assert el.name == "a" and el.find_parent("svg") is not None, (el.name, value)
                continue
            assert attr in (*allowed_attrs, "data-toc-label"), (el.name, attr)
            if attr == "data-toc-label":  # a heading's name in the table of contents: text, on a heading
                assert el.name in ("h1", "h2", "h3", "h4", "h5", "h6"), (el.name, value)
            if attr == "data-kb-sort":  # a rank the renderer gives
                assert el.name == "span" and value.isdigit(), (el.name, value)
            if attr == "data-kb-cards":  # the renderer's own mark, never a value
                assert el.name == "table" and value == "", (el.name, value)
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
    for page, markers in _ON.items():
        shown = nows(soups[page].get_text())
        for marker in markers:
            assert marker + expected in shown, (page, marker, s)
