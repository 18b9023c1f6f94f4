"""Freezing a small hand-made site: what is kept, what points at latest/, and that nothing
outside the site's assets/ is ever copied into an edition (the site is built from
contributor content, so its search index and pages are not trusted)."""

from __future__ import annotations

import json
from pathlib import Path

from kb.editions.freeze import freeze

CONFIG = '<script id="__config" type="application/json">{"base": "%s", "search": "%sassets/js/workers/w.js"}</script>'


def page(up: str, body: str, title: str = "T - 站") -> str:
    return (
        f'<html><head><title>{title}</title><link rel="stylesheet" href="{up}assets/main.css">'
        f"{CONFIG % (up or '.', up)}</head><body><article>{body}</article></body></html>"
    )


def make_site(root: Path, langs: list[str]) -> Path:
    site = root / "site"
    files = {
        "index.html": page(
            "", '<a href="inference/">活文档</a> <a href="papers/x/">X</a> <a href="backlog/">待办</a>', "站"
        ),
        "inference/index.html": page(
            "../",
            '<a href="../papers/x/#k">X</a> <a href="../feeds/a.xml">feed</a>'
            ' <a href="../nowhere/">dangling</a> <a href="https://e.example/">out</a>',
        ),
        "papers/x/index.html": page("../../", "X"),
        "backlog/index.html": page("../", "B"),
        "feeds/a.xml": "<feed/>",
        "assets/main.css": "body{background:url(img/bg.png)} .a{background:url(../../outside.png)}",
        "assets/img/bg.png": "png",
        "assets/js/workers/w.js": "worker",
        "assets/js/lunr/min/lunr.stemmer.support.min.js": "s",
        "assets/js/lunr/min/lunr.zh.min.js": "zh",
        "assets/js/lunr/min/lunr.multi.min.js": "m",
        "search/search_index.json": json.dumps(
            {
                "config": {"lang": langs},
                "docs": [
                    {"location": "", "title": "home"},
                    {"location": "inference/#s", "title": "s"},
                    {"location": "papers/x/", "title": "x"},
                ],
            }
        ),
    }
    for rel, text in files.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, "utf-8")
    (root / "outside.png").write_text("secret", "utf-8")
    (root / "secret.min.js").write_text("secret", "utf-8")
    return site


def test_freeze_keeps_frozen_pages_and_assets_and_sends_the_rest_to_latest(tmp_path):
    site = make_site(tmp_path, ["zh", "en", "../../../../secret", "a/b"])
    dest = tmp_path / "edition"
    frozen = freeze(site, dest, "2026-10")
    files = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert files == [
        "assets/img/bg.png",
        "assets/js/lunr/min/lunr.multi.min.js",
        "assets/js/lunr/min/lunr.stemmer.support.min.js",
        "assets/js/lunr/min/lunr.zh.min.js",
        "assets/js/workers/w.js",
        "assets/main.css",
        "edition.json",
        "index.html",
        "inference/index.html",
        "search/search_index.json",
    ]
    assert frozen.records == {"papers/x/": "T"}
    home = (dest / "index.html").read_text("utf-8")
    assert 'href="inference/"' in home and 'href="../latest/papers/x/"' in home and 'href="../latest/backlog/"' in home
    doc = (dest / "inference" / "index.html").read_text("utf-8")
    for kept in (
        'href="../../latest/papers/x/#k"',
        'href="../../latest/feeds/a.xml"',
        'href="../nowhere/"',
        'href="https://e.example/"',
        'href="../assets/main.css"',
    ):
        assert kept in doc, kept
    assert doc.index('<div class="admonition info kb-edition"') == doc.index("<article>") + len("<article>")
    index = json.loads((dest / "search" / "search_index.json").read_text("utf-8"))
    assert [d["location"] for d in index["docs"]] == ["", "inference/#s"]
    assert not [p for p in dest.rglob("*") if p.is_file() and p.read_text("utf-8") == "secret"]  # nothing from outside
