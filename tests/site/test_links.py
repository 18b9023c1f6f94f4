"""Every internal link and anchor of the built site resolves."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlparse

from bs4 import BeautifulSoup


def _ids(path: Path, cache: dict) -> set[str]:
    if path not in cache:
        soup = BeautifulSoup(path.read_text("utf-8"), "lxml")
        cache[path] = {el["id"] for el in soup.select("[id]")} | {el["name"] for el in soup.select("a[name]")}
    return cache[path]


def test_internal_links_and_anchors_resolve(site):
    cache: dict = {}
    broken = []
    checked = 0
    for page in sorted(site.rglob("*.html")):
        if page.name == "404.html":
            continue
        rel_url = "/" + page.relative_to(site).as_posix()
        soup = BeautifulSoup(page.read_text("utf-8"), "lxml")
        for a in soup.select("article a[href], nav a[href]"):
            href = a["href"]
            if urlparse(href).scheme in ("http", "https", "mailto", "javascript", "data"):
                continue
            url, frag = urldefrag(urljoin(rel_url, href))
            target = site / unquote(url).lstrip("/")
            if target.is_dir() or url.endswith("/"):
                target = target / "index.html"
            checked += 1
            if not target.is_file():
                broken.append(f"{rel_url}: {href} (no {target.relative_to(site)})")
            elif frag and frag not in _ids(target, cache):
                broken.append(f"{rel_url}: {href} (no #{frag})")
    assert checked > 500
    assert not broken, "\n".join(broken[:30])


def test_no_external_links_are_javascript(site):
    for page in site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text("utf-8"), "lxml")
        for a in soup.select("a[href]"):
            assert not a["href"].strip().lower().startswith(("javascript:", "data:", "vbscript:")), (page, a)


def test_every_resource_is_served_by_the_site(site):
    """No CDN, no web fonts: stylesheets, scripts and images load from the site itself."""
    for page in site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text("utf-8"), "lxml")
        for el in soup.select("link[href], script[src], img[src], iframe[src], source[src]"):
            ref = el.get("href") or el.get("src")
            if el.name == "link" and "alternate" in (el.get("rel") or []):
                continue  # feed links are same-site too, but are not loaded by the page
            assert not urlparse(ref).scheme and not ref.startswith("//"), (page, ref)
