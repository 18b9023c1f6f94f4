"""What ``kb preview`` rebuilds after a change, as data (pure: no MkDocs import).

The preview builds the whole site once, then, on each change, builds only the pages whose
inputs changed.  :func:`snapshot` of the watched files (:meth:`Project.watched`) finds what
changed since the last build; :func:`change_of` sorts the changed files: a data record (brief, paper) or a
hand-written page leaves the rest of the site as it was; anything else (a topic, a demo,
``mkdocs.yml``, ``overrides/``, ``hooks/``) may change every page.  Then what each generated
page is made from, as its page type declares it (:mod:`kb.site.pages`: ``inputs`` and
``follows``), is compared between the knowledge base of the last good build and the new one
(:func:`kb.site.pages.affected`); only the pages whose inputs changed are made again.

:class:`Preview` is what the preview hands the kb plugin for one build (the plugin's
``preview`` attribute, read by :mod:`kb.site.pages.layout`); ``mkdocs build`` never sets it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kb.bib.keys import Carried
from kb.knowledge.index import KnowledgeBase
from kb.knowledge.load import Memo
from kb.site import pages
from kb.site.search.index import IndexStats, Stop, Written

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
    theme_dir: Path | None  # the theme's custom_dir (overrides/), if any

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
    build); later builds leave ``index``, which indexes the site again, for
    :class:`kb.site.preview.serve.Builder` to run when no change comes.  The memo keeps each data file's
    record across builds (and with it each paper's related papers), ``entries`` each paper's BibTeX entry."""

    memo: Memo = field(default_factory=Memo)
    entries: Carried = field(default_factory=dict)  # each paper's BibTeX entry (kb.bib.keys.carry)
    before: KnowledgeBase | None = None
    change: Change | None = None
    search: bool = True
    built: frozenset[str] | None = None  # out: the generated pages this build rendered (None: all)
    index: Callable[[Stop], IndexStats] | None = (
        None  # out: bring the search index up to date (kb.site.preview.serve runs it)
    )
    writing: Written = field(default_factory=Written)  # this build's pages as the kb plugin writes them
    _redo: frozenset[str] | None = field(default=frozenset(), repr=False)  # written by failed builds (None: any)
    _inputs: tuple[KnowledgeBase, pages.Snapshot] | None = field(default=None, repr=False)
    _made: dict[str, str | bytes] = field(default_factory=dict, repr=False)  # this build's summary pages
    _kept: dict[str, str | bytes] = field(default_factory=dict, repr=False)  # the last good build's
    _shown: dict[str, object] = field(default_factory=dict, repr=False)  # this build's hand-written pages' inputs
    _shown_kept: dict[str, object] = field(default_factory=dict, repr=False)  # the last good build's
    hand_built: frozenset[str] | None = None  # out: the hand-written pages this build rendered (None: all)

    @property
    def partial(self) -> bool:
        """Only some pages are built: the machine-readable files, feeds and BibTeX are kept as built."""
        partial = self.before is not None and self.change is not None and not self.change.everything
        return partial and self._redo is not None  # after a failed build that wrote any page: every page

    def choose(self, after: KnowledgeBase) -> frozenset[str] | None:
        """The generated pages to build with ``after`` loaded (None: every page)."""
        new = pages.snapshot(after)
        old = self._inputs[1] if self._inputs and self._inputs[0] is self.before else None
        if old is None and self.partial:
            assert self.before is not None
            old = pages.snapshot(self.before)
        self._inputs, self._made = (after, new), {}  # the next build's "before", if this one succeeds
        self.built = pages.affected(old, new) | (self._redo or set()) if self.partial and old is not None else None
        return self.built

    def unchanged(self, generated: Mapping[str, str | bytes], skipped: set[str], compared: set[str]) -> set[str]:
        """Of the ``compared`` pages (page types that summarise every record), those made exactly as
        the last good build made them: their HTML in the preview directory stands (a new figure in a
        brief does not change the list of briefs).  ``skipped``: not made at all (:meth:`choose`
        left them out), kept as built."""
        self._made = {page: generated[page] for page in compared if page in generated and page not in skipped}
        redo = self._redo or frozenset()  # a failed build's page on disk: not the last good build's
        same = {p for p, made in self._made.items() if self.partial and self._kept.get(p) == made and p not in redo}
        if self.built is not None:
            self.built = self.built - same
        return same

    def stale(self, shown: Mapping[str, object]) -> frozenset[str]:
        """Of the hand-written pages (source path -> what it shows of the data: the outputs of its
        macro calls, the targets of its arXiv ids), those to build again: every one unless this build
        is partial and the pages on disk are the last good build's; else those whose inputs changed.
        A page whose file changed is built again by MkDocs in any case (it is newer than its HTML)."""
        self._shown = dict(shown)
        every = not self.partial or self.unsettled
        self.hand_built = None if every else frozenset(p for p, now in shown.items() if self._shown_kept.get(p) != now)
        return frozenset(shown) if self.hand_built is None else self.hand_built

    def succeeded(self, kb: KnowledgeBase) -> None:
        """The build went well: ``kb`` is the next build's ``before``, its pages the ones built."""
        self.before = kb
        self._kept.update(self._made)
        self._shown_kept = self._shown
        self._made, self._redo, self._shown = {}, frozenset(), {}

    @property
    def unsettled(self) -> bool:
        """A build failed after writing a page since the last good build: some pages are its."""
        return self._redo != frozenset()

    def failed(self) -> bool:
        """The build failed; true if it wrote a page first (:attr:`writing`).  Then what it built
        is built again by the next build, which compares with the last good one: the pages on
        disk are not all that one's (it wrote any of every page: the next builds every page)."""
        wrote = bool(self.writing.files)
        if wrote:
            self._redo = None if self.built is None or self._redo is None else self._redo | self.built
        return wrote
