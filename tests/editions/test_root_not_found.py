"""The root 404.html of the published tree: the site's themed page when its addresses reach
latest/ from anywhere (site_url set), with the edition redirect first in its head; else a plain
page that reads on a phone and links home."""

from __future__ import annotations

from pathlib import Path

from bs4 import BeautifulSoup

from kb.editions.layout import not_found_page

THEMED = """<!doctype html><html lang="zh"><head>
<meta charset="utf-8"><link rel="stylesheet" href="{base}assets/stylesheets/main.css">
</head><body><header class="md-header"></header><article><h1>404 · 找不到这个页面</h1></article></body></html>
"""


def tree(tmp_path: Path, base: str | None) -> Path:
    (tmp_path / "latest").mkdir(parents=True)
    if base is not None:
        (tmp_path / "latest" / "404.html").write_text(THEMED.format(base=base), "utf-8")
    return tmp_path


def test_the_themed_page_answers_at_the_root_with_the_edition_redirect_first(tmp_path):
    page = not_found_page(tree(tmp_path, "/kb/latest/"))
    soup = BeautifulSoup(page, "lxml")
    assert soup.select_one("header.md-header") is not None
    first = soup.head.find(True)
    assert first.name == "script" and '"latest/"' in first.get_text()  # before the styles load
    assert page.replace(first.decode(), "") == THEMED.format(base="/kb/latest/")  # the rest as built


def test_a_page_whose_addresses_do_not_reach_latest_is_not_copied(tmp_path):
    for base in ("/", "../", "assets/../"):  # built without site_url: broken under another path
        page = not_found_page(tree(tmp_path / base.replace("/", "_").replace(".", "d"), base))
        assert "md-header" not in page


def test_the_plain_page_reads_on_a_phone_and_links_home(tmp_path):
    soup = BeautifulSoup(not_found_page(tree(tmp_path, None)), "lxml")
    assert soup.html["lang"] == "zh"
    assert soup.select_one('meta[name="viewport"]')["content"].startswith("width=device-width")
    assert soup.h1.get_text() == "找不到这个页面"
    home = soup.select_one("a#home")
    assert home.get_text() == "回到首页" and home["href"] == "/"  # the script points it at latest/
    assert '"latest/"' in soup.head.script.get_text() and '"latest/"' in soup.body.script.get_text()
