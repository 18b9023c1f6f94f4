"""The edition tool's reading of HTML, on small pages: references found where they are,
rewritten without touching anything else, article text read as blocks for the diff."""

from __future__ import annotations

from kb.editions.changes import blocks
from kb.editions.freeze import rewrite, scan

PAGE = """<!doctype html><html><head><title>活文档 &amp; X - 站点</title>
<link rel="stylesheet" href="../assets/main.css"><script src='../assets/b.js'></script>
<script id="__config" type="application/json">{"base": "..", "search": "../assets/w.js"}</script>
<script>var s = '<a href="../papers/not-a-link/">';</script></head>
<body><article class="md-content__inner"><h1 id="t">标题<a class="headerlink" href="#t">¶</a></h1>
<p>见 <a href="../papers/ssr/?x=1&amp;y=2#bib">SSR</a> 与 <img srcset="../assets/a.png 1x, ../assets/b.png 2x"></p>
<ul><li>一 <code>{{ x }}</code></li><li>二</li></ul>
<table><tr><th>日期</th><th>值</th></tr><tr><td>9-1</td><td>3</td></tr></table>
<div class="admonition kb-edition"><p>横幅</p></div></article></body></html>"""


def test_scan_finds_attribute_urls_the_worker_title_and_article():
    s = scan(PAGE)
    urls = [r.url for r in s.refs]
    assert urls == [
        "../assets/main.css",
        "../assets/b.js",
        "../assets/w.js",
        "#t",
        "../papers/ssr/?x=1&y=2#bib",
        "../assets/a.png 1x, ../assets/b.png 2x",
    ]
    assert "../papers/not-a-link/" not in urls  # inside a script: not markup
    assert s.title == "活文档 & X - 站点"
    assert s.stylesheets == ["../assets/main.css"]
    assert PAGE[s.article_start :].startswith('<h1 id="t">')
    worker = next(r for r in s.refs if r.url == "../assets/w.js")
    assert worker.start is None


def test_rewrite_replaces_only_the_values_and_escapes_them():
    s = scan(PAGE)
    paper = next(r for r in s.refs if r.url.startswith("../papers/ssr/"))
    script = next(r for r in s.refs if r.url == "../assets/b.js")
    out = rewrite(PAGE, {paper: "../../latest/papers/ssr/?x=1&y=2#bib", script: '../x".js'})
    assert 'href="../../latest/papers/ssr/?x=1&amp;y=2#bib"' in out
    assert "src='../x&quot;.js'" in out
    assert (
        out.replace("../../latest/papers/ssr/?x=1&amp;y=2#bib", "../papers/ssr/?x=1&amp;y=2#bib").replace(
            "../x&quot;.js", "../assets/b.js"
        )
        == PAGE
    )


def test_blocks_read_the_article_text_without_permalinks_or_the_edition_banner():
    assert blocks(PAGE) == [
        ("h1", "标题"),
        ("p", "见 SSR 与"),
        ("p", "一 {{ x }}"),
        ("p", "二"),
        ("tr", "日期 | 值"),
        ("tr", "9-1 | 3"),
    ]


def test_scan_reads_the_document_title_not_a_drawing_title():
    assert scan("<title>页 - 站</title><body><svg><title>图：3 条</title></svg></body>").title == "页 - 站"
