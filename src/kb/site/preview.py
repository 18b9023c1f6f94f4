"""What ``kb preview`` rebuilds after a change, as data (pure: no MkDocs import).

The preview builds the whole site once, then, on each change, builds only the pages whose
inputs changed.  :func:`snapshot` of the watched files (:meth:`Project.watched`) finds what
changed since the last build; :func:`change_of` sorts the changed files: a data record (brief, paper) or a
hand-written page leaves the rest of the site as it was; anything else (a topic, a demo,
``mkdocs.yml``, ``overrides/``, ``hooks/``) may change every page.  :func:`affected` then
compares the knowledge base of the last good build with the new one, record by record: a
brief page is rebuilt when its record, its figures, its findings, its claims, its neighbours,
a paper it names or the title of a brief it links to changed; a paper page when its record,
its backlinks (mentions, also from hand-written pages), its sightings, anchors, findings, its
status as of each topic's latest brief or the title of a brief it links to changed.  The
papers index shows what the paper pages are made from: it is rebuilt when one of them is, or a
paper is added or removed; the backlog too, and also when its own figures change (the pending
items, the open claims, the ids without a paper file).
The list of briefs and the statistics are always rebuilt.

:class:`Preview` is what the preview hands the kb plugin for one build (the plugin's
``preview`` attribute, read by :mod:`kb.site.layout`); ``mkdocs build`` never sets it.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kb.knowledge.backlog import as_of, duplicate_cards, open_claims, pending_items
from kb.knowledge.figures import paper_status
from kb.knowledge.index import KnowledgeBase, brief_page, paper_page
from kb.knowledge.load import Memo
from kb.render import backlog, charts, indexes
from kb.site.search_index import IndexStats, Stop, Written

# generated pages that summarise every record: compared with the last build's before written
SUMMARY_PAGES = frozenset({indexes.BRIEFS, indexes.PAPERS, backlog.PAGE, charts.PAGE})
ALWAYS = frozenset({indexes.BRIEFS, charts.PAGE})  # of those, rebuilt on every change
WITH_PAPERS = frozenset({indexes.PAPERS, backlog.PAGE})  # rebuilt when a paper page is (see affected)
PAPER_PAGES = paper_page("x").rpartition("/")[0] + "/"  # "papers/": where paper pages are
DATA_RECORDS = ("briefs", "papers")  # data/<kind>/...: a change the comparison below handles


@dataclass(frozen=True)
class Change:
    """The files changed since the last build, relative to their root (``data/…``, ``docs/…``,
    or a path beside ``mkdocs.yml``); ``everything``: one of them may change every page."""

    paths: tuple[str, ...] = ()
    everything: bool = False


def change_of(data: Iterable[str], docs: Iterable[str], other: Iterable[str]) -> Change:
    """Sort changed files: ``data`` relative to the data directory, ``docs`` relative to
    ``docs/``, ``other`` (mkdocs.yml, overrides/, hooks/, …) relative to the project."""
    data, docs, other = sorted(data), sorted(docs), sorted(other)
    everything = bool(other) or any(p.split("/", 1)[0] not in DATA_RECORDS for p in data)
    shown = [f"data/{p}" for p in data] + [f"docs/{p}" for p in docs] + other
    return Change(tuple(shown), everything)


@dataclass(frozen=True)
class Project:
    """The project to preview: its ``mkdocs.yml``, data directory and preview directory."""

    config_file: Path
    data_dir: Path
    site_dir: Path
    docs_dir: Path
    theme_dir: Path | None  # overrides/ (the theme's custom_dir)

    @property
    def root(self) -> Path:
        return self.config_file.parent

    def watched(self) -> list[Path]:
        """What a change of triggers a build: data/, docs/, mkdocs.yml, overrides/ and hooks/."""
        paths = [self.data_dir, self.docs_dir, self.config_file, self.root / "hooks"]
        return [p for p in [*paths, self.theme_dir] if p is not None and p.exists()]

    def sort(self, changed: set[Path]) -> Change:
        data, docs, other = [], [], []
        for path in changed:
            if path.is_relative_to(self.data_dir):
                data.append(path.relative_to(self.data_dir).as_posix())
            elif path.is_relative_to(self.docs_dir):
                docs.append(path.relative_to(self.docs_dir).as_posix())
            else:
                other.append(os.path.relpath(path, self.root))
        return change_of(data, docs, other)


def ignored(name: str) -> bool:
    """Editors' temporary and backup files (``.x.swp``, ``x~``, ``.#x``, atomic-write temporaries)."""
    return name.startswith((".", "#")) or name.endswith("~") or name == "4913"


def snapshot(paths: list[Path]) -> dict[str, tuple[int, int]]:
    """Every watched file (by its path as a string) with its modification time and size; read
    from the directory listings (``os.scandir``), the thousands of files of a large site in
    hundredths of a second."""
    out: dict[str, tuple[int, int]] = {}
    folders = []
    for top in paths:
        if top.is_file():
            st = top.stat()
            out[str(top)] = (st.st_mtime_ns, st.st_size)
        elif top.is_dir():
            folders.append(str(top))
    while folders:
        try:
            entries = list(os.scandir(folders.pop()))
        except OSError:  # gone meanwhile
            continue
        for e in entries:
            if ignored(e.name):
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    folders.append(e.path)
                    continue
                st = e.stat()
            except OSError:  # gone meanwhile
                continue
            out[e.path] = (st.st_mtime_ns, st.st_size)
    return out


@dataclass
class Preview:
    """One build of ``kb preview``, set on the kb plugin before the build.

    ``change`` is what changed since ``before`` (the knowledge base of the last good build);
    without either, every page is built.  ``search``: index the site with Pagefind (the first
    build); later builds leave ``index``, which brings the kept index up to date, for
    :class:`kb.site.serve.Builder` to run when no change comes.  The memo keeps each data file's
    record across builds."""

    memo: Memo = field(default_factory=Memo)
    before: KnowledgeBase | None = None
    change: Change | None = None
    search: bool = True
    built: frozenset[str] | None = None  # out: the generated pages this build rendered (None: all)
    written: Written | None = None  # what the preview directory's pages give the search index
    index: Callable[[Stop], IndexStats] | None = None  # out: bring the search index up to date (kb.site.serve runs it)
    writing: Written = field(default_factory=Written)  # this build's pages as the kb plugin writes them
    _redo: frozenset[str] | None = field(default=frozenset(), repr=False)  # written by failed builds (None: any)
    _inputs: tuple[KnowledgeBase, Inputs] | None = field(default=None, repr=False)
    _made: dict[str, str] = field(default_factory=dict, repr=False)  # this build's summary pages
    _kept: dict[str, str] = field(default_factory=dict, repr=False)  # the last good build's

    @property
    def partial(self) -> bool:
        """Only some pages are built: the machine-readable files, feeds and BibTeX are kept as built."""
        partial = self.before is not None and self.change is not None and not self.change.everything
        return partial and self._redo is not None  # after a failed build that wrote any page: every page

    def choose(self, after: KnowledgeBase) -> frozenset[str] | None:
        """The generated pages to build with ``after`` loaded (None: every page)."""
        new = preview_inputs(after)
        old = self._inputs[1] if self._inputs and self._inputs[0] is self.before else None
        if old is None and self.partial:
            assert self.before is not None
            old = preview_inputs(self.before)
        self._inputs, self._made = (after, new), {}  # the next build's "before", if this one succeeds
        self.built = affected(old, new) | (self._redo or set()) if self.partial and old is not None else None
        return self.built

    def unchanged(self, generated: dict[str, str], skipped: set[str]) -> set[str]:
        """The summary pages made exactly as the last good build made them: their HTML in the
        preview directory stands (a new figure in a brief does not change the list of briefs).
        ``skipped``: not made at all (:meth:`choose` left them out), kept as built."""
        self._made = {page: generated[page] for page in SUMMARY_PAGES if page in generated and page not in skipped}
        redo = self._redo or frozenset()  # a failed build's page on disk: not the last good build's
        same = {p for p, made in self._made.items() if self.partial and self._kept.get(p) == made and p not in redo}
        if self.built is not None:
            self.built = self.built - same
        return same

    def indexing(self, written: Written, site_dir: Path) -> Written:
        """What the search index of the preview directory is made of after this build wrote
        ``written`` (a partial build: the other pages as the last good builds wrote them)."""
        if self.written is not None and self.partial:
            written = written.over(self.written, site_dir)
        self.written = written
        return written

    def succeeded(self, kb: KnowledgeBase) -> None:
        """The build went well: ``kb`` is the next build's ``before``, its pages the ones built."""
        self.before = kb
        self._kept.update(self._made)
        self._made, self._redo = {}, frozenset()

    @property
    def unsettled(self) -> bool:
        """A build failed after writing a page since the last good build: some pages are its."""
        return self._redo != frozenset()

    def failed(self) -> bool:
        """The build failed; true if it wrote a page first (:attr:`writing`).  Then what it built
        is built again by the next build, which compares with the last good one: the pages on
        disk are not all that one's (it wrote any of every page: the next builds every page)."""
        wrote = bool(self.writing.weights)
        if wrote:
            self._redo = None if self.built is None or self._redo is None else self._redo | self.built
        return wrote


Inputs = dict[str, tuple[object, ...]]  # generated page -> what it is made from


def inputs(kb: KnowledgeBase) -> Inputs:
    """What each brief and paper page is made from (compared between two builds; the render
    cache's keys, :mod:`kb.site.rendercache`)."""
    named = _named(kb)
    out: Inputs = {brief_page(key): _brief_inputs(kb, key, named) for key in kb.briefs}
    out.update((paper_page(pid), _paper_inputs(kb, pid)) for pid in kb.papers)
    return out


def preview_inputs(kb: KnowledgeBase) -> Inputs:
    """:func:`inputs`, and what the backlog adds to the paper pages' inputs (what a preview compares)."""
    return {**inputs(kb), backlog.PAGE: _backlog_inputs(kb)}


def affected(before: Inputs, after: Inputs) -> frozenset[str]:
    """The generated pages whose inputs differ between two builds (:func:`inputs`), with the pages
    always rebuilt, and the papers index and the backlog when a paper page changed, came or went
    (they show its name, status, first sighting, anchor and number of backlinks)."""
    changed = {page for page, made in after.items() if before.get(page) != made}
    papers = any(page.startswith(PAPER_PAGES) for page in changed | (before.keys() - after.keys()))
    return ALWAYS | changed | (WITH_PAPERS if papers else frozenset())


def _named(kb: KnowledgeBase) -> dict[str, set[str]]:
    """Brief key -> the papers its page names: those its parts mention, and the computed
    carried-over and net-new ones (their names and links are on its page)."""
    out: dict[str, set[str]] = defaultdict(set)
    for m in kb.mentions:
        if m.place.brief and m.paper:
            out[m.place.brief].add(m.paper)
    for key, fig in kb.figures.items():
        out[key].update(c.paper for c in fig.carried)
        out[key].update(fig.net_new_papers)
    return out


def _brief_inputs(kb: KnowledgeBase, key: str, named: dict[str, set[str]]) -> tuple[object, ...]:
    brief = kb.briefs[key]
    prev, nxt = kb.previous(key), kb.next(key)
    # the claims it raises and updates, each with its whole history
    claims = [kb.claims.get(brief.topic, c.id) for c in brief.claims]
    claims += [kb.claims.get(brief.topic, u.claim) for u in brief.claim_updates]
    papers = sorted(pid for pid in named.get(key, ()) if pid in kb.papers)
    linked = [nxt] + [ev.brief for state in claims if state for ev in state.events]  # named by their titles
    return (
        brief,
        kb.figures.get(key),
        kb.findings("brief", key),
        prev,
        kb.briefs[prev] if prev else None,
        kb.figures.get(prev) if prev else None,
        nxt,
        claims,
        [
            (pid, kb.papers[pid], kb.history.first_seen(pid), kb.history.anchors.get(pid), kb.findings("paper", pid))
            for pid in papers
        ],
        _titles(kb, linked),
    )


def _titles(kb: KnowledgeBase, keys: Iterable[str | None]) -> list[tuple[str, str | None]]:
    """The titles of the briefs a page links to by their name (kb.render.links.brief_title)."""
    return [(k, kb.briefs[k].title) for k in sorted({k for k in keys if k and k in kb.briefs})]


def _backlog_inputs(kb: KnowledgeBase) -> tuple[object, ...]:
    """The backlog's own figures; the papers it names change with their pages (:func:`affected`),
    the briefs it links by key show the date the key holds, the topics do not change in a preview build."""
    pending = [(topic, as_of(kb, topic), pending_items(kb, topic)) for topic in kb.topics]
    return (pending, kb.unknown_ids(), open_claims(kb), duplicate_cards(kb))


def _paper_inputs(kb: KnowledgeBase, pid: str) -> tuple[object, ...]:
    seen = kb.history.by_paper.get(pid, [])
    topics = sorted({kb.briefs[s.brief].topic for s in seen if s.brief in kb.briefs} & set(kb.by_topic))
    # the status as of each topic's latest brief (not that brief: its page does not name it)
    latest = [(t, paper_status(kb.history, pid, kb.by_topic[t][-1], t)) for t in topics]
    anchors = kb.history.anchors.get(pid, [])
    return (
        kb.papers[pid],
        kb.mentions_of(pid),
        seen,
        anchors,
        kb.findings("paper", pid),
        latest,
        _titles(kb, [s.brief for s in seen] + [a.brief for a in anchors]),
    )
