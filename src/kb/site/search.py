"""Site search with Pagefind: what each built page tells the index, and the index itself.

As MkDocs writes each page, :func:`mark` marks its ``<article>`` as the body Pagefind indexes and
gives it the page's **type** (简报, 论文, 活文档, …), **topic** and **date** as Pagefind filters and
metadata (empty, hidden elements: nothing a reader sees), and each arXiv id in its text one more,
hidden word (:mod:`kb.site.search_words`).  After the build :func:`index_site` runs
Pagefind (the binary its Python package ships, the extended build: Chinese is segmented) over the
written site; pages without a marked body (the 404 page, anything under ``assets/``) are not
indexed.  The index is written to ``pagefind/`` beside the pages; a reader's browser downloads only
the chunks a query needs (``assets/kb-search.js``; the bytes per query are measured by
``scripts/bench_search.py``).  With the cache on, Pagefind writes into a store kept between builds
(:mod:`kb.site.search_store`).  Pagefind runs beside the build's process, so the process gives back
the memory it has freed first, and Pagefind's allocator is set to keep its own peak lower
(:data:`ALLOCATOR`).

Nothing here imports MkDocs; the plugin calls :func:`mark` from ``on_post_page`` and
:func:`index_site` from ``on_post_build``.  The Pagefind binary ships inside the
``pagefind[extended]`` wheel and runs locally: no network.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kb.render.messages import UI
from kb.site import search_parts, search_store, search_words

if TYPE_CHECKING:  # pragma: no cover
    from kb.knowledge.index import KnowledgeBase

__all__ = [
    "ALLOCATOR",
    "OUTPUT",
    "TYPES",
    "Facts",
    "IndexStats",
    "facts_for",
    "indexed",
    "mark",
    "weight",
    "index_site",
    "pagefind_env",
]

MEMORY_MB = 2048  # Pagefind's memory for one run (estimated: kb.site.search_parts); a larger site is indexed in parts
MEMORY_ENV = "KB_SEARCH_MEMORY"  # MB; replaces search_memory of mkdocs.yml (benchmarks, tests)
BODY = "data-pagefind-body"  # the attribute that marks what Pagefind indexes of a page (:func:`mark`)
OUTPUT = "pagefind"  # the bundle's directory, beside the pages; editions use latest/'s (kb.editions.freeze)

# The result types a reader can filter by, in the order the filter lists them (their names are
# interface text: the message catalogue's).
TYPES = tuple(UI[f"search.type.{k}"] for k in ("brief", "paper", "living", "backlog", "index", "home", "about"))
BRIEF, PAPER, LIVING, BACKLOG, INDEX, HOME, ABOUT = TYPES
TYPE_FILTER, TOPIC_FILTER = UI["search.filter.type"], UI["search.filter.topic"]  # Pagefind's filter names
# How much a word on the page counts (Pagefind's data-pagefind-weight on the indexed body).  The living
# document and the paper pages are where a topic or a name is defined; briefs report it on a date;
# the home page and the indexes only repeat the titles of other pages, so they never come first.
WEIGHTS = {LIVING: 2.0, PAPER: 1.5, BRIEF: 1.0, INDEX: 0.25, ABOUT: 0.5}
HEADINGS = 10.0  # Pagefind's largest weight: a section named 推理调度 is the answer to 推理调度, and
# the page whose identity list names 2505.02922 is the answer to 2505.02922
INDEXES = {"briefs/": INDEX, "papers/": INDEX, "stats/": INDEX, "backlog/": BACKLOG, "": HOME}

# Not indexed: the permalink signs after headings, the edition banner of a frozen page, and what a
# page only repeats from other pages: a paper page's backlinks quote the briefs that mention it
# (each brief is indexed itself, and a phrase of a brief should find the brief), a brief's
# previous/next links name its neighbours.  A quarter of a paper page's words, a sixth of Pagefind's work.
# And what a page repeats of itself: a brief's glance at the top lists its increments, side items and
# claims, each a jump link to its section; a word there is found in that section, and the result
# opens the section (a sixteenth of a brief's words).
EXCLUDE = [".headerlink", ".kb-edition", ".kb-backlinks", ".kb-prevnext", ".kb-glance", ".kb-glance-side"]
EXCLUDE += ["script", "style", "svg"]
SKIP_PAGES = ("404.html",)
SKIP_DIRS = ("assets/", f"{OUTPUT}/", "api/", "feeds/")

_ARTICLE = re.compile(r"<article\b[^>]*>", re.IGNORECASE)
_HEADING = re.compile(r"<h[2-4](?=[\s>])", re.IGNORECASE)
_IDENTITY = '<ul class="kb-identity"'  # a paper page's identity list (kb.render.paper)
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
    identity: float | None = None  # weight of a paper page's identity list (its id, authors, venue, dates)


@dataclass
class IndexStats:
    pages: int = 0
    seconds: float = 0.0
    bytes: int = 0  # the whole bundle on disk
    files: int = 0
    reused: int = 0  # files of the bundle kept from the last build (a store: :func:`index_site`)
    parts: int = 1  # Pagefind runs (more than one: the site indexed in parts, merged)

    def report(self) -> tuple[int, float, int, int, int]:
        return self.pages, self.seconds, self.bytes // 1024, self.reused, self.parts


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
        return Facts(PAPER, titles, date, WEIGHTS[PAPER], identity=HEADINGS)
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


def indexed(url: str) -> bool:
    """Whether the page at ``url`` (site-relative, as MkDocs gives it) belongs in the index."""
    return url not in SKIP_PAGES and not url.startswith(SKIP_DIRS)


def weight(page: str) -> int:
    """What Pagefind holds of a written page (:func:`mark`), for its memory estimate: the
    characters of its marked body."""
    start = page.find(BODY)
    return max(0, page.rfind("</article>") - start) if start >= 0 else 0


def mark(text: str, facts: Facts) -> str | None:
    """The built page with its ``<article>`` marked as the indexed body, the facts as filters and
    metadata (empty, hidden elements: no text) and its arXiv ids as words
    (:func:`kb.site.search_words.mark`).  ``None``: the page has no article."""
    m = _ARTICLE.search(text)
    end = text.rfind("</article>")
    if m is None or end < m.end():
        return None
    attrs = f" {BODY}"
    if facts.weight is not None:
        attrs += f' data-pagefind-weight="{facts.weight:g}"'
    marks = [m.group(0)[:-1] + attrs + ">"]
    marks.append(f'<span hidden data-pagefind-filter="{TYPE_FILTER}:{q(facts.type)}"></span>')
    marks.append(f'<span hidden data-pagefind-meta="type:{q(facts.type)}"></span>')
    for title in facts.topics:
        marks.append(f'<span hidden data-pagefind-filter="{TOPIC_FILTER}:{q(title)}"></span>')
    if facts.topics:
        marks.append(f'<span hidden data-pagefind-meta="topic:{q(" · ".join(facts.topics))}"></span>')
    if facts.date:
        marks.append(f'<span hidden data-pagefind-meta="date:{q(facts.date)}"></span>')
        marks.append(f'<span hidden data-pagefind-sort="date:{q(facts.date)}"></span>')
    body = search_words.mark(text[m.end() : end])
    if facts.headings is not None:
        body = _HEADING.sub(lambda h: f'{h.group(0)} data-pagefind-weight="{facts.headings:g}"', body)
    if facts.identity is not None:
        body = body.replace(_IDENTITY, f'{_IDENTITY} data-pagefind-weight="{facts.identity:g}"', 1)
    return text[: m.start()] + "".join(marks) + body + text[end:]


def _build(site_dir: Path, out: Path, pages: int, parts: list[list[str]]) -> None:
    """Pagefind's binary (the one the Python API runs: ``pagefind.service.get_executable``, the
    extended build) indexes the written site: in one run, or one run a part (the HTML files of
    each in ``parts``), the parts merged into one bundle (:mod:`kb.site.search_parts`).  The API's
    service is not used: it answers one request per 0.1 s poll and can stop the binary before the
    last file of the bundle is flushed."""
    import shutil
    import tempfile

    if len(parts) <= 1:
        indexed = _run(site_dir, out, None)
    else:
        scratch = Path(tempfile.mkdtemp(prefix=".kb-parts-", dir=out.parent))
        try:
            bundles = [scratch / str(i) for i in range(len(parts))]
            indexed = sum(_run(site_dir, bundle, part) for bundle, part in zip(bundles, parts, strict=True))
            search_parts.merge([b for b in bundles if b.exists()], out)  # a part of unmarked pages has none
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    # more than this build marked: a --dirty build leaves the pages it did not rebuild (marked before)
    if indexed < pages:
        raise RuntimeError(f"Pagefind indexed {indexed} of {pages} pages")


def _run(site_dir: Path, out: Path, files: list[str] | None) -> int:
    """One Pagefind run over the written site (``files``: these HTML files only) into ``out``;
    the number of pages it indexed."""
    import json
    import os
    import subprocess
    import tempfile

    binary = _binary()
    with tempfile.TemporaryDirectory(prefix="kb-pagefind-") as scratch:
        config = {
            "site": str(site_dir.resolve()),
            "output_path": str(out.resolve()),
            "force_language": "zh",
            # the marked body is the whole document to Pagefind: it skips the header, the navigation
            # and the footer of every page instead of walking them for a body (the same bundle,
            # a sixth less of its work)
            "root_selector": f"[{BODY}]",
            "exclude_selectors": EXCLUDE,
        }
        if files is not None:
            config["glob"] = search_parts.glob_of(files)
        (Path(scratch) / "pagefind.json").write_text(json.dumps(config), "utf-8")
        run = subprocess.run(
            [str(binary)], cwd=scratch, env=pagefind_env(os.environ), capture_output=True, text=True, timeout=600
        )
        if run.returncode != 0:
            if files is not None and "Indexed 0 pages" in run.stdout:  # a part without a marked body
                return 0
            raise RuntimeError((run.stdout + run.stderr)[-2000:])
        m = re.search(r"Indexed (\d+) page", run.stdout)
        if m is None:
            raise RuntimeError(f"Pagefind did not say what it indexed:\n{run.stdout[-2000:]}")
        return int(m.group(1))


# Pagefind's memory allocator (jemalloc, read from this variable): one arena instead of one per
# thread, and freed pages handed back after a second instead of ten.  At 3,000 pages its peak
# resident memory goes from about 880 MB to about 755 MB, with the same page fragments and word
# index and no more CPU time.
ALLOCATOR = ("_RJEM_MALLOC_CONF", "narenas:1,dirty_decay_ms:1000")


def pagefind_env(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment Pagefind runs in: ours, with :data:`ALLOCATOR` unless it is set already."""
    name, value = ALLOCATOR
    return {name: value, **environ}


def _binary() -> Path:
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None:
        raise RuntimeError("the Pagefind binary is missing: pip install 'pagefind[extended]'")
    return Path(binary)


def _bundle_name() -> str:
    """The store's directory for the Pagefind that runs (its package's version, and which binary:
    ``PAGEFIND_BINARY_PATH`` can name another); another Pagefind, another format."""
    import hashlib
    from importlib.metadata import version

    binary = _binary().resolve()
    st = binary.stat()
    which = hashlib.sha256(f"{binary}\0{st.st_size}\0{st.st_mtime_ns}".encode()).hexdigest()[:12]
    return f"{version('pagefind')}-{which}"


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


def index_site(
    site_dir: Path,
    pages: int,
    store: Path | None = None,
    weights: Mapping[str, int] | None = None,
    memory_mb: int = MEMORY_MB,
) -> IndexStats:
    """Index the built site at ``site_dir``, where ``pages`` pages are marked (:func:`mark`), into
    ``site_dir/pagefind/`` (replacing an older index).  With a ``store`` (the cache's, kept between
    builds) Pagefind writes its bundle there and the site gets links to it: a file Pagefind finds
    already written it does not compress and write again (its name is its content's hash), so a
    build after one more brief writes only what changed (:mod:`kb.site.search_store`).
    ``weights``: the characters of indexed HTML of each page's file (site-relative path); Pagefind's
    memory is kept near ``memory_mb`` (``KB_SEARCH_MEMORY`` replaces it) by indexing the site in parts
    when it would need more (:mod:`kb.site.search_parts`)."""
    import shutil

    require_extended()
    _return_freed_memory()
    budget = search_parts.part_size(_memory(memory_mb))
    stats = IndexStats(pages=pages)
    start = time.perf_counter()
    out = site_dir / OUTPUT
    if out.exists():
        shutil.rmtree(out)
    parts = search_parts.plan(weights, budget) if weights is not None else []
    if weights is None or len(parts) > 1:  # the files on disk: a --dirty build's older pages are indexed too
        parts = search_parts.plan(_weights(site_dir, weights or {}), budget)
    stats.parts = max(1, len(parts))
    if store is None:
        _build(site_dir, out, pages, parts)
    else:
        bundle = store / _bundle_name()
        with search_store.locked(store):  # two builds at once (`mkdocs serve` and a build) take turns
            for old in [d for d in store.iterdir() if d.is_dir() and d != bundle]:
                shutil.rmtree(old)  # an older Pagefind's
            stats.reused = search_store.update(bundle, lambda dest: _build(site_dir, dest, pages, parts))
            search_store.link_tree(bundle, out, _unused)
    for unused in [p for p in out.iterdir() if _unused(p.name)]:
        unused.unlink()
    stats.seconds = time.perf_counter() - start
    files = [p for p in out.rglob("*") if p.is_file()]
    stats.files, stats.bytes = len(files), sum(p.stat().st_size for p in files)
    return stats


def _memory(configured: int) -> int:
    """Pagefind's memory for one run in MB: ``KB_SEARCH_MEMORY``, else ``configured``."""
    import os

    value = os.environ.get(MEMORY_ENV, "").strip()
    if not value:
        return configured
    if not value.isdigit():
        raise ValueError(f"{MEMORY_ENV}: expected a whole number of MB, got {value!r}")
    return int(value)


def _weights(site_dir: Path, weights: Mapping[str, int]) -> dict[str, int]:
    """The HTML files Pagefind reads, each with its weight (``weights``, else its size: more)."""
    files = {}
    for path in site_dir.rglob("*.html"):
        rel = path.relative_to(site_dir).as_posix()
        if not rel.startswith(SKIP_DIRS):
            files[rel] = weights[rel] if rel in weights else path.stat().st_size
    return files


def _return_freed_memory() -> None:
    """What this process has freed goes back to the system before Pagefind starts, which is
    resident beside it (glibc's ``malloc_trim``; nothing where the C library has none).  At 3,000
    pages the build's process is about 90 MB smaller while Pagefind runs."""
    import ctypes

    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        return
    trim(0)


def _unused(name: str) -> bool:
    """Not loaded: Pagefind's own UIs (the header search is assets/kb-search.js), and its web worker
    (kb-search.js runs Pagefind on the page: a query downloads one copy of its code, not two)."""
    from fnmatch import fnmatch

    return fnmatch(name, "pagefind-*ui.*") or name == "pagefind-worker.js"
