"""Pages rendered into frames (kb.site.plugin.frame) are the pages the template renders, byte for byte: the
frame is made once per kind of page, a value printed through different filters sends its page to a
full render, and a template the stand-in page cannot reproduce gets no frame at all.  No MkDocs:
templates in memory, pages as plain objects; the real slot macro and slots template (kb.site.theme)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from jinja2 import DictLoader, Environment

from kb.site.plugin.frame import TEMPLATE, Frames
from kb.site.theme import TEMPLATES as THEME_TEMPLATES

OVERRIDES = THEME_TEMPLATES  # the templates the kb package brings

MAIN = """{% from "partials/kb-slot.html" import slot with context %}<html lang="{{ lang.t('language') }}">
<title>{{ page.title | striptags | e }} - {{ config.site_name }}</title>
{%- call slot("feeds") %}{% include "partials/kb-feeds.html" %}{% endcall %}
{%- if page.meta.description %}<meta name="description" content="{{ page.meta.description }}">{% endif %}
{%- if page.canonical_url %}<link rel="canonical" href="{{ page.canonical_url }}">
<meta property="og:url" content="{{ page.canonical_url | e }}">{% endif %}
{%- if page.toc | first is defined %}<a class="skip" href="{{ (page.toc | first).url }}">skip</a>{% endif %}
<header>{{ page.title }}</header>
{%- if page.meta.hide %}<p hidden>{{ page.meta.hide | join(",") }}</p>{% endif %}
<aside>{% call slot("toc") %}{% include "partials/kb-toc.html" %}{% endcall %}</aside>
<nav>{{ kb_parent.title if kb_parent else "" }} · {{ base_url }}</nav>
{% call slot("tocbox") %}{% include "partials/kb-toc-box.html" %}{% endcall %}
<article>{% if "<h1" not in page.content %}<h1>{{ page.title }}</h1>{% endif %}{{ page.content }}</article>
</html>"""
TOC = """<ul>{% for item in page.toc %}<li><a href="{{ item.url }}">{{ item.title }}</a>
{%- for child in item.children %}<i>{{ child.title | e }}</i>{% endfor %}</li>{% endfor %}</ul>"""
BOX = """{% if page.toc %}<details><summary>{{ lang.t("toc") }}</summary>{{ page.toc | length }}</details>{% endif %}"""
LANGUAGE = """{% macro t(key) %}{{ {"language": "zh", "toc": "目录"}[key] }}{% endmacro %}"""

# what a build says of its frames (the "kb: theme parts: …; theme frames: …" line of its log)
SAID = "theme frames: {} made, {} refused, {} pages filled, {} rendered in full ({} tables of contents reused)"


@dataclass
class Inclusion:
    draft: bool = False

    def is_excluded(self) -> bool:
        return self.draft


@dataclass
class File:
    src_uri: str
    inclusion: Inclusion = field(default_factory=Inclusion)


@dataclass
class Entry:
    title: str
    url: str
    children: list[Entry] = field(default_factory=list)
    level: int = 2


@dataclass
class Page:
    src: str
    title: str
    content: str
    toc: list[Entry] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    canonical_url: str | None = None
    parent: Any = None
    previous_page: Any = None
    next_page: Any = None
    edit_url: str | None = None
    draft: bool = False

    def __post_init__(self) -> None:
        self.file = File(self.src, Inclusion(self.draft))
        self.url = self.src.removesuffix(".md") + "/"


INDEX = Page("briefs/index.md", "简报", "<h1>简报</h1>")


def environment(main: str = MAIN) -> Environment:
    templates = {
        "main.html": main,
        TEMPLATE: "{{ page.content }}",
        "partials/kb-toc.html": TOC,
        "partials/kb-toc-box.html": BOX,
        "partials/language.html": LANGUAGE,
    }
    for name in ("partials/kb-slot.html", "kb-slots.html", "partials/kb-feeds.html"):  # the package's own
        templates[name] = (OVERRIDES / name).read_text("utf-8")
    return Environment(loader=DictLoader(templates))


def brief(n: int, title: str | None = None, meta: dict[str, Any] | None = None, **kw: Any) -> Page:
    toc = [Entry("一、来源", f"#src-{n}", [Entry("1.1 队列", f"#q-{n}")]), Entry("二、增量", f"#inc-{n}")]
    meta = {"description": f"第 {n} 期的摘要 &amp; 数字", **(meta or {})}
    content = f'<h1 id="t">第 {n} 期</h1><p>正文 {n} &lt;b&gt;</p>'
    return Page(f"briefs/inference/2026-01-{n:02d}.md", title or f"第 {n} 期", content, toc, meta, parent=INDEX, **kw)


CONFIG = {"site_name": "知识库"}  # one object for the build, as MkDocs' config


def context(page: Page, **more: Any) -> dict[str, Any]:
    parent = {"kb_parent": page.parent} if page.parent else {}  # as the kb plugin gives it
    return {"page": page, "config": CONFIG, "base_url": "../../..", **parent, **more}


def build(
    env: Environment, pages: list[Page], more: Callable[[Page], dict[str, Any]] = lambda page: {}
) -> tuple[Frames, dict[str, str]]:
    """Each page as the plugin builds it (take, then render into its context, with ``more`` of it),
    beside the page the template renders in full (every kb_slot None: a plain pass-through)."""
    full_env = environment()
    full_env.loader = env.loader
    full_env.globals["lang"] = full_env.get_template("partials/language.html").make_module({})
    expected = {p.src: full_env.get_template("main.html").render(context(p, **more(p))) for p in pages}
    frames = Frames(frozenset())
    frames.install(env)
    env.globals["lang"] = env.get_template("partials/language.html").make_module({})
    built = {}
    for page in pages:
        frames.take(page)
        made = frames.render(page, context(page, **more(page)))
        built[page.src] = made if made is not None else env.get_template("main.html").render(context(page))
    assert built == expected
    return frames, built


def test_one_frame_for_pages_of_one_kind_each_filled_in():
    frames, built = build(environment(), [brief(n) for n in range(1, 6)])
    assert str(frames) == SAID.format(1, 0, 4, 1, 0)
    page = built["briefs/inference/2026-01-03.md"]
    assert '<a class="skip" href="#src-3">' in page and "<i>1.1 队列</i>" in page and "<details><summary>目录" in page
    assert "kbframe" not in "".join(built.values())


def test_a_title_printed_through_different_filters_is_rendered_in_full():
    pages = [brief(1), brief(2, "Q&A <快> 推理"), brief(3, "两个  空格"), brief(4, "'引号'"), brief(5)]
    frames, built = build(environment(), pages)
    assert str(frames) == SAID.format(1, 0, 1, 4, 0)
    assert "<title>Q&amp;A 推理 - 知识库</title>" in built["briefs/inference/2026-01-02.md"]
    assert "<header>Q&A <快> 推理</header>" in built["briefs/inference/2026-01-02.md"]


def test_each_page_has_its_own_feed_links_in_its_kinds_frame():
    """A paper page's head links the feeds of its own topics (kb.site.pages.files.page_feeds): one
    frame for every paper page, the links made once for each list of feeds and filled in."""
    feeds = {t: {"title": t, "atom": f"{t}.atom.xml", "rss": f"{t}.rss.xml", "topic": t} for t in ("rag", "agent")}
    topics = {"papers/p1.md": ["rag"], "papers/p2.md": ["agent"], "papers/p3.md": ["rag", "agent"]}
    pages = [Page(src, src[7:9], f"<h1>{src}</h1>") for src in (*topics, "papers/p4.md")]
    env = environment()
    env.globals["kb_page_feeds"] = lambda src: [feeds[t] for t in topics.get(src, ["rag"])]
    frames, built = build(env, pages, lambda p: {"kb_page_feeds": env.globals["kb_page_feeds"]})
    assert str(frames) == SAID.format(1, 0, 3, 1, 3)  # no table of contents: each page the first's
    links = {src: re.findall(r'<link rel="alternate"[^>]*href="([^"]+)"', page) for src, page in built.items()}
    assert links["papers/p2.md"] == ["../../../agent.atom.xml", "../../../agent.rss.xml"]
    assert links["papers/p3.md"] == [f"../../../{t}.{kind}.xml" for t in ("rag", "agent") for kind in ("atom", "rss")]
    assert links["papers/p1.md"] == links["papers/p4.md"] == ["../../../rag.atom.xml", "../../../rag.rss.xml"]


def test_kinds_of_page_each_have_their_frame():
    plain = [brief(1), brief(2)]
    no_toc = [Page(f"papers/p{n}.md", f"论文 {n}", f"<p>论文 {n}</p>") for n in (1, 2)]  # no <h1>: the theme's
    hidden = [brief(n, meta={"hide": ["toc"]}) for n in (3, 4)]
    addressed = [brief(n, canonical_url=f"https://kb.example/briefs/{n}/") for n in (5, 6)]
    frames, built = build(environment(), plain + no_toc + hidden + addressed)
    assert str(frames) == SAID.format(4, 0, 4, 4, 1)
    assert "<h1>论文 2</h1><p>论文 2</p>" in built["papers/p2.md"] and "skip" not in built["papers/p2.md"]
    assert '<meta property="og:url" content="https://kb.example/briefs/6/">' in built["briefs/inference/2026-01-06.md"]


def test_what_another_plugin_adds_to_a_pages_context_is_part_of_its_kind():
    main = MAIN.replace("<header>", "<header>{{ tags | join(',') }} · {{ extra_css | join(',') }} ")
    tags = {1: ["推理"], 2: ["推理"], 3: ["量化", "推理"]}
    pages = [brief(n) for n in tags]
    frames, built = build(environment(main), pages, lambda p: {"tags": tags[int(p.src[-5:-3])], "extra_css": ["a.css"]})
    assert str(frames) == SAID.format(2, 0, 1, 2, 0)
    assert "<header>量化,推理 · a.css 第 3 期</header>" in built["briefs/inference/2026-01-03.md"]


def test_a_skip_link_the_url_filter_would_change_is_rendered_in_full():
    page = brief(2)
    page.toc[0].url = "#a\\b"
    frames, _ = build(environment(), [brief(1), page, brief(3)])
    assert str(frames) == SAID.format(1, 0, 1, 2, 0)


@pytest.mark.parametrize(
    "change",
    [
        "{{ page.title | upper }}",
        "{{ page.toc | length }}",
        "{{ page.content[:9] }}",
        "{{ (page.toc | first).title.upper() }}",  # the stand-in's entry has no title: the render fails
    ],
)
def test_a_template_the_stand_in_cannot_reproduce_gets_no_frame(change):
    frames, _ = build(environment(MAIN.replace("<header>{{ page.title }}</header>", change)), [brief(1), brief(2)])
    assert str(frames) == SAID.format(0, 1, 0, 2, 0)


def test_pages_in_the_nav_drafts_and_pages_with_neighbours_are_not_framed():
    in_nav = Page("inference.md", "推理", "<h1>推理</h1>")
    draft = brief(2, draft=True)
    neighbour = brief(3, previous_page=INDEX)
    edited = brief(4, edit_url="https://example.org/edit/x.md")
    env = environment()
    frames = Frames(frozenset({"inference.md"}))
    frames.install(env)
    for page in (in_nav, draft):
        frames.take(page)
        assert "template" not in page.meta and frames.render(page, context(page)) is None
    frames, built = build(environment(), [brief(1), neighbour, edited, brief(5)])
    assert str(frames) == SAID.format(1, 0, 1, 3, 0)


def _entry(title: str, url: str, level: int, children: tuple[Any, ...] = (), **more: Any) -> Any:
    from types import SimpleNamespace

    return SimpleNamespace(title=title, url=url, level=level, children=list(children), **more)


def test_tables_of_contents_are_shared_by_what_the_templates_print():
    """Material's table of contents and the box above the article print a page-title entry's
    entries alone: tables that differ only in that title share their rendering; any other
    difference, or an entry Material prints its ``typeset`` for, does not."""
    from kb.site.plugin.frame import _toc_key

    def under(title: str, *children: Any) -> list[Any]:
        return [_entry(title, f"#{title.lower()}", 1, children)]

    notes, bib = _entry("笔记", "#notes", 2), _entry("BibTeX", "#bibtex", 2)
    assert _toc_key(under("Albireo", notes, bib)) == _toc_key(under("Vega", notes, bib))
    assert _toc_key(under("Albireo", notes, bib)) != _toc_key(under("Albireo", notes))
    assert _toc_key(under("Albireo", notes)) != _toc_key(under("Albireo", _entry("笔记（2）", "#notes", 2)))
    assert _toc_key(under("Albireo")) != _toc_key(under("Vega"))  # no entries under it: the title is printed
    assert _toc_key([notes, bib]) != _toc_key(under("Albireo", notes, bib))
    assert _toc_key(under("Albireo", _entry("笔记", "#notes", 2, typeset={"title": "<em>笔记</em>"}))) is None
