"""Site search with Pagefind: what each built page tells the index, and the index itself.

After MkDocs has written the site, :func:`index_site` reads every built page and hands Pagefind
(the binary its Python package ships, the extended build: Chinese is segmented) a copy of it in which the page's
``<article>`` is marked as the indexed body and carries the page's **type** (简报, 论文, 活文档, …),
**topic** and **date** as Pagefind filters and metadata.  The files on disk are not changed: the
attributes exist only in what the index reads.  The index is written to ``pagefind/`` beside the
pages; a reader's browser downloads only the chunks a query needs (``assets/kb-search.js``; the
bytes per query are measured by ``scripts/bench_search.py``).

Nothing here imports MkDocs; the plugin calls :func:`index_site` from ``on_post_build``.  The
Pagefind binary ships inside the ``pagefind[extended]`` wheel and runs locally: no network.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase

__all__ = ["OUTPUT", "TYPES", "Facts", "IndexStats", "facts_for", "marked", "index_site"]

OUTPUT = "pagefind"  # the bundle's directory, beside the pages; editions use latest/'s (kb.editions.freeze)

# The result types a reader can filter by, in the order the filter lists them.
BRIEF, PAPER, LIVING, INDEX, BACKLOG, HOME, ABOUT = "简报", "论文", "活文档", "索引", "待办", "首页", "说明"
TYPES = (BRIEF, PAPER, LIVING, BACKLOG, INDEX, HOME, ABOUT)
# How much a word on the page counts (Pagefind's data-pagefind-weight on the indexed body).  The living
# document and the paper pages are where a topic or a name is defined; briefs report it on a date;
# the home page and the indexes only repeat the titles of other pages, so they never come first.
WEIGHTS = {LIVING: 2.0, PAPER: 1.5, BRIEF: 1.0, INDEX: 0.25, ABOUT: 0.5}
HEADINGS = 10.0  # Pagefind's largest weight: a section named 推理调度 is the answer to 推理调度
INDEXES = {"briefs/": INDEX, "papers/": INDEX, "stats/": INDEX, "backlog/": BACKLOG, "": HOME}

# Not indexed: the permalink signs after headings, and the edition banner of a frozen page.
EXCLUDE = [".headerlink", ".kb-edition", "script", "style", "svg"]
SKIP_PAGES = ("404.html",)
SKIP_DIRS = ("assets/", f"{OUTPUT}/", "api/", "feeds/")

_ARTICLE = re.compile(r"<article\b[^>]*>", re.IGNORECASE)
_HEADING = re.compile(r"<h[2-4](?=[\s>])", re.IGNORECASE)
_BRIEF_URL = re.compile(r"^briefs/([^/]+)/(\d{4}-\d{2}-\d{2})-[^/]+/$")
_PAPER_URL = re.compile(r"^papers/([^/]+)/$")


@dataclass(frozen=True)
class Facts:
    """What a result shows beside its title and what a reader can filter it by."""

    type: str
    topics: tuple[str, ...] = ()  # topic titles (the filter shows them)
    date: str | None = None
    weight: float | None = None  # Pagefind page weight (1.0: neutral); the pages that define a name rank higher
    headings: float | None = None  # weight of the section headings (the living document's define its topics)


@dataclass
class IndexStats:
    pages: int = 0
    seconds: float = 0.0
    bytes: int = 0  # the whole bundle on disk
    files: int = 0
    skipped: list[str] = field(default_factory=list)


def page_url(rel: str) -> str:
    """``papers/ssr/index.html`` → ``papers/ssr/``; ``index.html`` → ``""``."""
    return rel[: -len("index.html")] if rel.endswith("index.html") else rel


def _doc_url(page: str) -> str:
    """A docs page (``inference.md``, ``x/index.md``) → its directory URL."""
    stem = page[: -len(".md")]
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def facts_for(kb: KnowledgeBase, url: str) -> Facts:
    """The type, topics and date of the page at ``url`` (site-relative, directory style)."""
    m = _BRIEF_URL.match(url)
    if m:
        topic = kb.topics.get(m.group(1))
        return Facts(BRIEF, (topic.title,) if topic else (), m.group(2))
    m = _PAPER_URL.match(url)
    if m and m.group(1) in kb.papers:
        paper = kb.papers[m.group(1)]
        topics = {b.split("/", 1)[0] for b in _brief_keys(kb, paper.id)}
        titles = tuple(kb.topics[t].title for t in kb.topics if t in topics)
        date = paper.submitted.isoformat() if paper.submitted else (str(paper.published) if paper.published else None)
        return Facts(PAPER, titles, date, WEIGHTS[PAPER])
    for topic in kb.topics.values():
        if url == _doc_url(topic.page):
            date = topic.updates[-1].date.isoformat() if topic.updates else None
            return Facts(LIVING, (topic.title,), date, WEIGHTS[LIVING], headings=HEADINGS)
    if url in INDEXES:
        return Facts(INDEXES[url], weight=WEIGHTS[INDEX])
    return Facts(ABOUT, weight=WEIGHTS[ABOUT])


def _brief_keys(kb: KnowledgeBase, paper_id: str) -> Iterable[str]:
    for mention in kb.mentions_of(paper_id):
        if mention.place.brief:
            yield mention.place.brief


def q(value: str) -> str:
    """A value from data in an attribute: escaped."""
    return html.escape(value, quote=True)


def marked(text: str, facts: Facts) -> str | None:
    """The page as the index reads it: its ``<article>`` only, marked as the indexed body, with the
    facts as filters and metadata (empty, hidden elements: no text).  ``None``: no article."""
    m = _ARTICLE.search(text)
    end = text.rfind("</article>")
    if m is None or end < m.end():
        return None
    attrs = " data-pagefind-body"
    if facts.weight is not None:
        attrs += f' data-pagefind-weight="{facts.weight:g}"'
    marks = [m.group(0)[:-1] + attrs + ">"]
    marks.append(f'<span hidden data-pagefind-filter="类型:{q(facts.type)}"></span>')
    marks.append(f'<span hidden data-pagefind-meta="type:{q(facts.type)}"></span>')
    for title in facts.topics:
        marks.append(f'<span hidden data-pagefind-filter="主题:{q(title)}"></span>')
    if facts.topics:
        marks.append(f'<span hidden data-pagefind-meta="topic:{q(" · ".join(facts.topics))}"></span>')
    if facts.date:
        marks.append(f'<span hidden data-pagefind-meta="date:{q(facts.date)}"></span>')
        marks.append(f'<span hidden data-pagefind-sort="date:{q(facts.date)}"></span>')
    body = text[m.end() : end + len("</article>")]
    if facts.headings is not None:
        body = _HEADING.sub(lambda h: f'{h.group(0)} data-pagefind-weight="{facts.headings:g}"', body)
    head = '<!DOCTYPE html><html lang="zh"><head><meta charset="utf-8"></head><body>'
    return head + "".join(marks) + body + "</body></html>"


def _pages(site_dir: Path) -> list[str]:
    return sorted(
        rel
        for p in site_dir.rglob("*.html")
        if p.is_file()
        and (rel := p.relative_to(site_dir).as_posix()) not in SKIP_PAGES
        and not rel.startswith(SKIP_DIRS)
    )


def _build(site_dir: Path, kb: KnowledgeBase, stats: IndexStats) -> None:
    """The marked copies go to a scratch directory that Pagefind's binary (the one the Python API
    runs: ``pagefind.service.get_executable``, the extended build) indexes in one run.  The API's
    service is not used: it answers one request per 0.1 s poll and can stop the binary before the
    last file of the bundle is flushed."""
    import json
    import subprocess
    import tempfile

    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise RuntimeError("the Pagefind binary is missing: pip install 'pagefind[extended]'")
    with tempfile.TemporaryDirectory(prefix="kb-pagefind-") as scratch:
        pages = Path(scratch) / "site"
        for rel in _pages(site_dir):
            text = marked((site_dir / rel).read_text("utf-8"), facts_for(kb, page_url(rel)))
            if text is None:
                stats.skipped.append(rel)
                continue
            dest = pages / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(text, "utf-8")
            stats.pages += 1
        config = {
            "site": str(pages),
            "output_path": str((site_dir / OUTPUT).resolve()),
            "force_language": "zh",
            "exclude_selectors": EXCLUDE,
        }
        (Path(scratch) / "pagefind.json").write_text(json.dumps(config), "utf-8")
        run = subprocess.run([str(binary)], cwd=scratch, capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            raise RuntimeError((run.stdout + run.stderr)[-2000:])
        m = re.search(r"Indexed (\d+) page", run.stdout)
        if m is None or int(m.group(1)) != stats.pages:
            raise RuntimeError(
                f"Pagefind indexed {m.group(1) if m else '?'} of {stats.pages} pages:\n{run.stdout[-2000:]}"
            )


def require_extended() -> None:
    """Pagefind's extended build (Chinese segmentation) must be the one that runs."""
    import os

    if os.environ.get("PAGEFIND_BINARY_PATH"):
        return
    try:
        import pagefind_bin_extended  # noqa: F401
    except ImportError:
        raise RuntimeError(
            "the search index needs Pagefind's extended build (Chinese segmentation): pip install 'pagefind[extended]'"
        ) from None


def index_site(site_dir: Path, kb: KnowledgeBase) -> IndexStats:
    """Index the built site at ``site_dir`` into ``site_dir/pagefind/`` (replacing an older index)."""
    import shutil

    require_extended()
    stats = IndexStats()
    start = time.perf_counter()
    out = site_dir / OUTPUT
    if out.exists():
        shutil.rmtree(out)
    _build(site_dir, kb, stats)
    # Not loaded: Pagefind's own UIs (the header search is assets/kb-search.js), and its web worker
    # (kb-search.js runs Pagefind on the page: a query downloads one copy of its code, not two).
    for unused in [*out.glob("pagefind-*ui.*"), *out.glob("pagefind-worker.js")]:
        unused.unlink()
    stats.seconds = time.perf_counter() - start
    files = [p for p in out.rglob("*") if p.is_file()]
    stats.files, stats.bytes = len(files), sum(p.stat().st_size for p in files)
    return stats
