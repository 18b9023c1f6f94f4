"""``kb preview``: the site built once, served with live reload, and rebuilt in the same process
after each change, only the pages the change affects (:mod:`kb.site.preview` decides which).

With :mod:`kb.site.plugin`, the only module that imports MkDocs.  Each build is MkDocs' own
``build`` of the project's ``mkdocs.yml`` (theme, nav, the kb plugin: the pages ``mkdocs build``
makes) into the preview directory, with ``dirty=True`` (the directory is not cleaned, unchanged
theme files are not copied again); the kb plugin's ``preview`` attribute tells it which pages to
build (:class:`kb.site.preview.Preview`).  The data files' records stay in memory between builds
and are parsed again only when their bytes change.  The first build indexes the site with
Pagefind; after later ones Pagefind indexes the whole site again when idle (a change meanwhile
stops it).  A failed build (data errors, a page MkDocs refuses) is shown in the terminal and atop
every served page; the last good build stays served (and indexed).
"""

from __future__ import annotations

import gc
import html
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import jinja2
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, ConfigurationError
from mkdocs.livereload import LiveReloadServer, _serve_url
from mkdocs.structure.files import File
from watchdog.observers.api import BaseObserver
from watchdog.observers.polling import PollingEmitter, PollingObserver

from kb.data.diagnostics import UserError
from kb.gcpause import gc_paused
from kb.site.later import Job, Later
from kb.site.preview import Change, Preview, Project, ignored, snapshot
from kb.site.search_index import IndexStats, Stop, Written
from kb.site.theme import TEMPLATES as THEME_TEMPLATES

PREVIEW_DIR = Path(".cache") / "kb" / "preview"  # beside mkdocs.yml (.cache/ is git-ignored)
DATA_ENV = "KB_DATA"
POLL = 0.25  # seconds between two looks at the watched files (MkDocs' default: 0.5)
SEARCH_IDLE = 1.5  # seconds without a change before the search index is brought up to date
Say = Callable[[str], None]


def project(config_file: Path, data_dir: Path | None = None) -> Project:
    """The project of ``config_file``; ``data_dir`` (else ``KB_DATA``, else the plugin's ``data_dir``)."""
    try:
        config = load_config(str(config_file))
    except (ConfigurationError, Abort) as exc:  # MkDocs has logged each problem
        raise UserError(f"{config_file}: {exc}") from None
    root = config_file.resolve().parent
    if "kb" not in config.plugins:
        raise UserError(f"{config_file}: the kb plugin is not listed under plugins:")
    plugin = config.plugins["kb"]
    given = data_dir or Path(os.environ.get(DATA_ENV) or plugin.config["data_dir"])
    custom = config.theme.custom_dir
    own = THEME_TEMPLATES.parent  # the kb package's theme: watched where it is this project's own checkout
    return Project(
        config_file=config_file.resolve(),
        data_dir=given.resolve() if given.is_absolute() or data_dir else (root / given).resolve(),
        site_dir=root / PREVIEW_DIR,
        docs_dir=Path(config.docs_dir).resolve(),
        theme_dir=Path(custom).resolve() if custom else own if own.is_relative_to(root) else None,
    )


class _Collect(logging.Handler):
    """MkDocs' warnings and errors during one build (a strict build fails on any warning)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("mkdocs.livereload"):  # requests the server answered meanwhile
            return
        text = record.getMessage().strip()
        if text and text not in self.messages:
            self.messages.append(text)


class _Compiled(jinja2.BytecodeCache):
    """The theme's compiled templates, kept in memory across builds (keyed on their source)."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self.store.get(bucket.key)
        if code is not None and bucket.checksum:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


def _not_dirty_warning(record: logging.LogRecord) -> bool:
    """MkDocs warns that a dirty build may leave stale links: the preview decides what is stale."""
    return not record.getMessage().startswith("A 'dirty' build is being performed")


@dataclass
class Builder:
    """Builds the preview: the whole site first, then what each change affects.  As the live
    reload server's builder it never raises: a failed build leaves ``errors`` for the page."""

    project: Project
    say: Say
    warn: Say
    preview: Preview = field(default_factory=Preview)
    errors: list[str] = field(default_factory=list)
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # kb.site.preview.snapshot
    pending: set[Path] = field(default_factory=set)  # changed since the last good build
    pages: int = 0  # pages of the last good build's site
    templates: _Compiled = field(default_factory=_Compiled)
    freeze: bool = False  # after the first good build, exempt what stays from the garbage collector
    _search: Later | None = field(default=None, repr=False)  # the search index brought up to date, when idle

    def first(self) -> bool:
        """The first build: every page, and the search index."""
        self.files = snapshot(self.project.watched())
        return self._build(None)

    def __call__(self) -> None:
        now = snapshot(self.project.watched())
        changed = {Path(p) for p in now.keys() | self.files.keys() if now.get(p) != self.files.get(p)}
        self.files = now
        self.pending |= changed
        if changed or self.errors:
            self._build(self.project.sort(self.pending))

    def settle_search(self, run: bool = True) -> Job | None:
        """The search index's pending update run now (``run``), else dropped or, if it has started,
        stopped where it can: the kept index as it was (a build must not write pages Pagefind is
        reading).  Returns the update unless it was done."""
        if (later := self._search) is None:
            return None
        job = later.settle(run)
        self._search = None  # not before: Ctrl-C while waiting leaves it for the last settle to wait for
        return job

    def _index(self, job: Callable[[Stop], IndexStats], stop: Stop) -> bool:
        """The search index's update; False: stopped before its end."""
        started = time.perf_counter()
        try:
            stats = job(stop)
        except Exception as exc:  # PluginError: Pagefind missing or failing
            self.warn(f"kb preview: updating the search index failed: {exc}")
            return True
        seconds = time.perf_counter() - started
        if stats.stopped:
            self.say(f"kb preview: search index update stopped after {seconds:.1f} s for a newer change")
        else:
            self.say(f"kb preview: search index brought up to date in {seconds:.1f} s ({stats.pages:,} pages read)")
        return not stats.stopped

    def _build(self, change: Change | None) -> bool:
        dropped = self.settle_search(run=False)  # this build's pages are indexed after it, with those changed before
        started = time.perf_counter()
        good = self.preview.before is not None
        self.preview.index, self.preview.writing = None, Written()
        self.preview.change = change if good else None
        self.preview.search = not good  # the first good build indexes the site; later ones: when idle
        collect = _Collect()
        mkdocs_log, build_log = logging.getLogger("mkdocs"), logging.getLogger("mkdocs.commands.build")
        mkdocs_log.addHandler(collect)
        build_log.addFilter(_not_dirty_warning)
        # A partial build's garbage is little; the memo and the last knowledge base are much: a full
        # collection would scan them all (about 0.7 s at 3,000 pages), so none runs meanwhile.
        paused = gc_paused() if self.preview.partial else nullcontext()
        try:
            with _data_env(self.project.data_dir), paused:
                config = self._config()
                self._mark_hand_written(config)
                build(config, dirty=good)  # the first good build starts from an empty directory
        except (Exception, SystemExit) as exc:  # MkDocs' Abort is a SystemExit
            self.errors = collect.messages or [str(exc) or type(exc).__name__]
            update = self._failed(change, dropped)
            self._search = Later(SEARCH_IDLE, update) if update is not None else None  # what is served
            return False
        finally:
            mkdocs_log.removeHandler(collect)
            build_log.removeFilter(_not_dirty_warning)
        self._succeeded(config, change if good else None, collect.messages, time.perf_counter() - started)
        return True

    def _failed(self, change: Change | None, dropped: Job | None) -> Job | None:
        """The build failed: said; the search index update to run when idle returned."""
        wrote = self.preview.failed()  # the pages it wrote: the next build makes them again
        self._report_failure(change)
        if self.preview.index is not None:  # it ended after writing every page (MkDocs' warnings, strict)
            return partial(self._index, self.preview.index)
        # the update before would read a page this build wrote as the page that update knew
        return None if wrote else dropped

    def _succeeded(self, config: MkDocsConfig, change: Change | None, messages: list[str], seconds: float) -> None:
        for message in messages:  # a project that is not strict: its warnings
            self.warn(f"kb preview: {message}")
        site = config.plugins["kb"].site  # type: ignore[attr-defined]  # the kb plugin
        changed = {p.resolve() for p in self.pending}
        for d in site.kb.warnings:  # the findings of the files just changed, as `kb validate` says them
            if change is not None and Path(d.path).resolve() in changed:
                self.warn(f"kb preview: {d.text()}")
        self.preview.succeeded(site.kb)
        self.errors, self.pending = [], set()
        hand = len(self._hand_written(config))
        self.pages = sum(1 for p in site.generated if p.endswith(".md")) + hand
        self.say(_built_line(change, self.preview, self.pages, hand, seconds))
        if self.preview.index is not None:
            self._search = Later(SEARCH_IDLE, partial(self._index, self.preview.index))
        if change is None and self.freeze:  # the memo and the records: a full collection would scan them all
            gc.collect()
            gc.freeze()

    def _config(self) -> MkDocsConfig:
        config = load_config(str(self.project.config_file), site_dir=str(self.project.site_dir))
        config.plugins["kb"].preview = self.preview  # type: ignore[attr-defined]  # the kb plugin's seam
        theme, cache = config.theme, self.templates

        def get_env() -> jinja2.Environment:  # the theme's templates, compiled once per process
            env = make_env()
            env.bytecode_cache = cache
            return env

        make_env, theme.get_env = theme.get_env, get_env  # type: ignore[method-assign]
        return config

    @staticmethod
    def _hand_written(config: MkDocsConfig) -> list[str]:
        docs = Path(config.docs_dir)
        return [p.relative_to(docs).as_posix() for p in docs.rglob("*.md") if not ignored(p.name)]

    def _mark_hand_written(self, config: MkDocsConfig) -> None:
        """A dirty build rebuilds a hand-written page only when it is newer than its HTML: mark
        every one stale (they are few, and the home page and living documents show the data)."""
        for src in self._hand_written(config):
            dest = Path(File(src, config.docs_dir, config.site_dir, config.use_directory_urls).abs_dest_path)
            if dest.exists():
                os.utime(dest, (0, 0))

    def served(self) -> str:
        """What is served after a failed build."""
        if self.preview.before is None:
            return "nothing has been built yet"
        if self.preview.unsettled:
            return "serving the pages it wrote before it failed, the others as the last good build made them"
        return "still serving the last good build"

    def _report_failure(self, change: Change | None) -> None:
        what = ", ".join(change.paths) if change and change.paths else "the site"
        self.warn(f"kb preview: building after {what} failed ({self.served()}):")
        for message in self.errors:
            self.warn("  " + message.replace("\n", "\n  "))


def _built_line(change: Change | None, preview: Preview, total: int, hand: int, seconds: float) -> str:
    if change is None:
        return f"kb preview: built {total:,} pages in {seconds:.1f} s, with the search index"
    what = ", ".join(change.paths) if change.paths else "a retry"
    rebuilt = total if preview.built is None else len(preview.built) + hand
    search = f"the search index follows after {SEARCH_IDLE:g} s without changes"
    return f"kb preview: {what} changed: rebuilt {rebuilt:,} of {total:,} pages in {seconds:.1f} s ({search})"


@contextmanager
def _data_env(data_dir: Path) -> Iterator[None]:
    """The data directory for the plugin (``KB_DATA``), for the build only."""
    old = os.environ.get(DATA_ENV)
    os.environ[DATA_ENV] = str(data_dir)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop(DATA_ENV, None)
        else:
            os.environ[DATA_ENV] = old


BANNER = (
    '<div id="kb-preview-errors" role="alert" style="position:sticky;top:0;z-index:10000;margin:0;'
    "padding:.8em 1.2em;background:#b71c1c;color:#fff;font:14px/1.5 monospace;white-space:pre-wrap;"
    'max-height:50vh;overflow:auto">{}</div>'
)


def banner(errors: list[str], served: str) -> str:
    """The errors of the last build, at the top of every served page (``served``: what it shows)."""
    head = f"kb preview: the last build failed; {served}."
    return BANNER.format(html.escape("\n\n".join([head, *errors])))


class _QuietPolling(PollingObserver):
    """MkDocs' polling observer, not polling while a build runs: a thread that looks at thousands
    of files competes with the build for the interpreter (about 0.6 s of a 2.5 s build)."""

    def __init__(self, idle: threading.Event) -> None:
        class Emitter(PollingEmitter):
            def queue_events(self, timeout: float) -> None:
                idle.wait()
                super().queue_events(timeout)

        BaseObserver.__init__(self, Emitter, timeout=POLL)


class Server(LiveReloadServer):
    """MkDocs' live reload server, showing the builder's errors on every page; its file
    watcher pauses during builds."""

    def __init__(self, builder: Builder, host: str, port: int) -> None:
        super().__init__(builder=self._build, host=host, port=port, root=str(builder.project.site_dir))
        self.idle = threading.Event()
        self.idle.set()
        self.observer = _QuietPolling(self.idle)
        self.build_delay = 0.05  # quiet time before a build; a poll reports a whole save at once
        self.kb_builder = builder
        self.error_handler = self._error_page
        self._listening = False

    def listen(self) -> None:
        """Bind and listen now (before the first build: a port in use is said at once)."""
        super().server_bind()
        super().server_activate()
        self._listening = True
        host, port = self.server_address[:2]
        self.url = _serve_url(str(host), int(port), "/")  # the real port when 0 was asked for

    def server_bind(self) -> None:  # serve() binds: already done by listen()
        if not self._listening:
            super().server_bind()

    def server_activate(self) -> None:
        if not self._listening:
            super().server_activate()

    def _build(self) -> None:
        self.idle.clear()
        try:
            self.kb_builder()
        finally:
            self.idle.set()

    def _error_page(self, code: int) -> bytes | None:
        b = self.kb_builder
        if b.errors:
            page = banner(b.errors, b.served())
            return f"<!doctype html><meta charset=utf-8><title>kb preview</title><body>{page}</body>".encode()
        theirs = b.project.site_dir / f"{code}.html"
        return theirs.read_bytes() if code == 404 and theirs.is_file() else None

    def _inject_js_into_html(self, content: bytes, epoch: int) -> bytes:
        out: bytes = super()._inject_js_into_html(content, epoch)  # type: ignore[no-untyped-call]
        b = self.kb_builder
        if not b.errors:
            return out
        at = out.find(b">", out.find(b"<body")) + 1
        return out[:at] + banner(b.errors, b.served()).encode() + out[at:]


def serve(project: Project, host: str, port: int, say: Say, warn: Say) -> int:
    """Build, then serve on ``host:port`` until interrupted; rebuild on every change."""
    logging.getLogger("mkdocs").setLevel(logging.WARNING)  # its INFO lines name every page kept as built
    builder = Builder(project, say, warn, freeze=True)  # this process only previews
    server = Server(builder, host, port)
    try:
        server.listen()
    except OSError as exc:
        server.server_close()
        warn(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}")
        return 1
    project.site_dir.mkdir(parents=True, exist_ok=True)
    builder.first()
    for path in project.watched():
        server.watch(str(path))
    say(f"kb preview: serving {_shown(project.site_dir)} at {server.url} (Ctrl-C stops)")
    try:
        server.serve()  # type: ignore[no-untyped-call]
    except KeyboardInterrupt:
        say("kb preview: stopped")
    finally:
        server.shutdown()
        builder.settle_search(run=False)  # one that has started stops (its files whole)
    return 0


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
