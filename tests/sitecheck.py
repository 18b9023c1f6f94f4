"""Checks that hold for any built site, whatever its data: every internal link and
anchor resolves, nothing is loaded from another site, no script URL is linked."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urldefrag, urljoin, urlparse

from bs4 import BeautifulSoup

EXTERNAL = ("http", "https", "mailto", "javascript", "data")


def _ids(path: Path, cache: dict) -> set[str]:
    if path not in cache:
        soup = BeautifulSoup(path.read_text("utf-8"), "lxml")
        cache[path] = {el["id"] for el in soup.select("[id]")} | {el["name"] for el in soup.select("a[name]")}
    return cache[path]


def broken_links(site: Path) -> tuple[int, list[str]]:
    """(links checked, broken ones) over the article and navigation links of every page."""
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
            if urlparse(href).scheme in EXTERNAL:
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
    return checked, broken


def foreign_resources(site: Path) -> list[str]:
    """Stylesheets, scripts, images or frames loaded from another site (or protocol-relative)."""
    out = []
    for page in site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text("utf-8"), "lxml")
        for el in soup.select("link[href], script[src], img[src], iframe[src], source[src]"):
            ref = el.get("href") or el.get("src")
            if el.name == "link" and "alternate" in (el.get("rel") or []):
                continue  # feed links are same-site too, but are not loaded by the page
            if urlparse(ref).scheme or ref.startswith("//"):
                out.append(f"{page.relative_to(site)}: {ref}")
    return out


def script_links(site: Path) -> list[str]:
    out = []
    for page in site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text("utf-8"), "lxml")
        for a in soup.select("a[href]"):
            if a["href"].strip().lower().startswith(("javascript:", "data:", "vbscript:")):
                out.append(f"{page.relative_to(site)}: {a['href']}")
    return out
