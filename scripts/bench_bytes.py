"""What a built site's bytes are made of (a report, not a test).

    python scripts/bench_bytes.py SITE [--json]

SITE is a built site (``kb build --strict -d SITE``; the published ``latest/``).  It prints

* the bytes of the site by part: each page type's HTML (brief, paper, timeline, living
  document, index, other pages), the search index (``pagefind/``), the theme's files
  (``assets/``), the feeds and the other files, with the HTML pages of each type and their
  median and mean bytes;
* for the page of median size of each type, what its bytes are made of: the head (of it the
  feed links and the interface words), the header (search box, palette toggle), the tabs, the
  navigation sidebar, the table of contents (sidebar and the box above the article), the
  article (our content), the footer, the theme's settings and scripts; and, across those, the
  bytes of inline SVG.  The parts do not overlap; what no part holds is "rest" (the page's
  frame); the parts are measured as the HTML parser writes them back, without the runs of
  blanks between tags, which are a row of their own.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

PARTS = (  # (name, CSS selector): the first match of each; the order matters (a part's own bytes)
    ("feed links", "head link[rel=alternate]"),
    ("interface words", "head script#kb-words"),
    ("head, other", "head"),
    ("header", "header.md-header"),
    ("tabs", "nav.md-tabs"),
    ("navigation", "div.md-sidebar--primary"),
    ("toc sidebar", "div.md-sidebar--secondary"),
    ("toc box", ".kb-toc-box"),
    ("breadcrumb", "nav.md-path"),
    ("article", "article.md-content__inner"),
    ("footer", "footer.md-footer"),
    ("settings", "script#__config"),
    ("scripts", "body > script"),
)


def page_type(rel: str) -> str:
    parts = rel.split("/")
    if parts[0] == "briefs" and len(parts) > 3:
        return "brief"
    if parts[0] == "papers" and len(parts) > 2:
        return "paper"
    if parts[0] == "timeline":
        return "timeline"
    if parts[0] in ("briefs", "papers", "backlog", "stats") or rel == "index.html":
        return "index"
    return "other page"


def file_part(rel: str, living: set[str]) -> str:
    top = rel.split("/")[0]
    if rel.endswith(".html"):
        return "living document" if top in living else page_type(rel)
    if top in ("pagefind", "assets"):
        return {"pagefind": "search index", "assets": "theme files"}[top]
    if rel.endswith((".atom.xml", ".rss.xml")):
        return "feeds"
    return "other files"


def composition(html: str) -> dict[str, int]:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    size = lambda el: len(str(el).encode())  # noqa: E731
    out: dict[str, int] = {"svg (inside the parts)": sum(size(s) for s in soup.find_all("svg"))}
    # the parser drops blank-only text between tags and writes attributes its own way: the
    # difference to the page's bytes is mostly those blanks (negative: its quoting added more)
    out["blanks between tags"] = len(html.encode()) - size(soup)
    for name, selector in PARTS:
        found = soup.select(selector)
        out[name] = sum(size(el) for el in found)
        for el in found:
            el.decompose()
    out["rest"] = size(soup)
    return out


def report(site: Path) -> dict:
    living = {p.stem for p in site.glob("*.atom.xml") if ".papers." not in p.name}
    living = {t.split(".")[0] for t in living if (site / t.split(".")[0] / "index.html").is_file()}
    bytes_by: dict[str, int] = defaultdict(int)
    pages: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for path in site.rglob("*"):
        if not path.is_file() or path.is_symlink():
            continue
        rel = path.relative_to(site).as_posix()
        part = file_part(rel, living)
        n = path.stat().st_size
        bytes_by[part] += n
        if rel.endswith(".html") and rel != "404.html":
            pages[part].append((n, rel))
    typical = {}
    for part, sizes in pages.items():
        sizes.sort()
        n, rel = sizes[len(sizes) // 2]
        typical[part] = {"page": rel, "bytes": n, "parts": composition((site / rel).read_text("utf-8"))}
    return {
        "total": sum(bytes_by.values()),
        "pages": sum(len(v) for v in pages.values()),
        "parts": dict(sorted(bytes_by.items(), key=lambda kv: -kv[1])),
        "per_type": {
            k: {"pages": len(v), "median": statistics.median(n for n, _ in v), "mean": sum(n for n, _ in v) / len(v)}
            for k, v in pages.items()
        },
        "typical": typical,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("site", type=Path)
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = p.parse_args(argv)
    r = report(args.site)
    if args.json:
        print(json.dumps(r, indent=1, ensure_ascii=False))
        return 0
    total = r["total"]
    print(f"{args.site}: {total / 1e6:,.1f} MB, {r['pages']:,} HTML pages, {total / r['pages'] / 1e3:.1f} KB per page")
    print(f"{'part':<18} {'MB':>8} {'share':>6} {'pages':>6} {'median KB':>10} {'mean KB':>8}")
    for part, n in r["parts"].items():
        t = r["per_type"].get(part)
        extra = f"{t['pages']:>6} {t['median'] / 1e3:>10.1f} {t['mean'] / 1e3:>8.1f}" if t else ""
        print(f"{part:<18} {n / 1e6:>8.1f} {n / total:>6.0%} {extra}")
    for part, t in r["typical"].items():
        print()
        print(f"{part}: the page of median size, {t['page']} ({t['bytes'] / 1e3:.1f} KB)")
        for name, n in t["parts"].items():
            if n:
                print(f"  {name:<24} {n / 1e3:>6.1f} KB {n / t['bytes']:>5.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
