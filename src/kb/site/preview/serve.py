"""``kb preview``: the site built once, served with live reload, and rebuilt in the same process
after each change, only the pages the change affects (:mod:`kb.site.preview` decides which).
The server is the standard library's HTTP server (:class:`Server`), the watcher a look at the
watched files' sizes and times every :data:`POLL` seconds (:func:`kb.site.preview.snapshot`): no
MkDocs or livereload object is changed.

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
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, ConfigurationError

from kb.data.diagnostics import UserError
from kb.data.loader import display_path
from kb.gcpause import gc_paused
from kb.site.preview import Change, Preview, Project, ignored, snapshot
from kb.site.preview.later import Job, Later
from kb.site.search.index import IndexStats, Stop, Written
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
        text = record.getMessage().strip()
        if text and text not in self.messages:
            self.messages.append(text)


def _not_dirty_warning(record: logging.LogRecord) -> bool:
    """MkDocs warns that a dirty build may leave stale links: the preview decides what is stale."""
    return not record.getMessage().startswith("A 'dirty' build is being performed")


@dataclass
class Builder:
    """Builds the preview: the whole site first, then what each change affects.  It never raises:
    a failed build leaves ``errors`` for the served pages."""

    project: Project
    say: Say
    warn: Say
    preview: Preview = field(default_factory=Preview)
    errors: list[str] = field(default_factory=list)
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # kb.site.preview.snapshot
    pending: set[Path] = field(default_factory=set)  # changed since the last good build
    pages: int = 0  # pages of the last good build's site
    freeze: bool = False  # after the first good build, exempt what stays from the garbage collector
    _search: Later | None = field(default=None, repr=False)  # the search index brought up to date, when idle

    def first(self) -> bool:
        """The first build: every page, and the search index."""
        self.files = snapshot(self.project.watched())
        return self._build(None)

    def __call__(self, now: dict[str, tuple[int, int]] | None = None) -> None:
        """Build what changed since the last look (``now``: the watched files as just looked at)."""
        now = snapshot(self.project.watched()) if now is None else now
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
        # collection would scan them all, so none runs meanwhile.
        paused = gc_paused() if self.preview.partial else nullcontext()
        try:
            with _data_env(self.project.data_dir), paused:
                config = self._config()
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
        plugin = config.plugins["kb"]
        site = plugin.site  # type: ignore[attr-defined]  # the kb plugin
        changed = {p.resolve() for p in self.pending}
        for d in site.kb.warnings:  # the findings of the files just changed, as `kb validate` says them
            if change is not None and Path(d.path).resolve() in changed:
                self.warn(f"kb preview: {d.text()}")
        for d in plugin.inert:  # type: ignore[attr-defined]  # of the pages read: every one first, then the edited
            self.warn(f"kb preview: {d.text()} (the page shows it as text; kb validate refuses it)")
        self.preview.succeeded(site.kb)
        self.errors, self.pending = [], set()
        hand = self._hand_written(config)
        self.pages = sum(1 for p in site.generated if p.endswith(".md")) + len(hand)
        self.say(_built_line(change, self.preview, self.pages, hand, seconds))
        if self.preview.index is not None:
            self._search = Later(SEARCH_IDLE, partial(self._index, self.preview.index))
        if change is None and self.freeze:  # the memo and the records: a full collection would scan them all
            gc.collect()
            gc.freeze()

    def _config(self) -> MkDocsConfig:
        config = load_config(str(self.project.config_file), site_dir=str(self.project.site_dir))
        config.plugins["kb"].preview = self.preview  # type: ignore[attr-defined]  # the kb plugin's seam
        return config

    @staticmethod
    def _hand_written(config: MkDocsConfig) -> list[str]:
        docs = Path(config.docs_dir)
        return [p.relative_to(docs).as_posix() for p in docs.rglob("*.md") if not ignored(p.name)]

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


def _built_line(change: Change | None, preview: Preview, total: int, hand: list[str], seconds: float) -> str:
    if change is None:
        return f"kb preview: built {total:,} pages in {seconds:.1f} s, with the search index"
    what = ", ".join(change.paths) if change.paths else "a retry"
    # the hand-written pages whose data changed, and those edited (MkDocs builds a newer file again)
    edited = {p.removeprefix("docs/") for p in change.paths} & set(hand)
    built = len(hand) if preview.hand_built is None else len(preview.hand_built | edited)
    rebuilt = total if preview.built is None else len(preview.built) + built
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


RELOAD = "/.kb-preview/reload"  # ?epoch=N answers the build's number once it is past N (a long poll)
WAIT = 30.0  # seconds a reload request is held before it is answered with the same number
# Added to every served page: reloads it once a build after the one it was served from has ended.
RELOADER = (
    "<script>/* kb preview: livereload */(function poll(e){{fetch('{url}?epoch='+e,{{cache:'no-store'}})"
    ".then(function(r){{return r.text()}}).then(function(t){{if(+t>e){{location.reload()}}else{{poll(e)}}}},"
    "function(){{setTimeout(function(){{poll(e)}},1000)}})}})({epoch})</script>"
)


class Server(ThreadingHTTPServer):
    """The preview directory served over HTTP (the standard library's server): each HTML page
    with :data:`RELOADER` and, after a failed build, the builder's errors at its top."""

    daemon_threads = True  # a reload request held open does not keep the process

    def __init__(self, builder: Builder, host: str, port: int) -> None:
        self.builder = builder
        self.epoch = 0  # builds ended since the server started
        self.built = threading.Condition()
        handler = partial(_Handler, directory=str(builder.project.site_dir))
        if ":" in host:
            self.address_family = socket.AF_INET6
        super().__init__((host, port), handler)  # binds and listens: a port in use is said at once
        address, bound = str(self.server_address[0]), self.server_address[1]
        self.url = f"http://{f'[{address}]' if ':' in address else address}:{bound}/"

    def reload(self) -> None:
        """A build has ended: the pages served before it reload."""
        with self.built:
            self.epoch += 1
            self.built.notify_all()

    def after(self, epoch: int) -> int:
        """The build's number once it is past ``epoch``, else after :data:`WAIT` seconds."""
        with self.built:
            self.built.wait_for(lambda: self.epoch > epoch, WAIT)
            return self.epoch

    def page(self, content: bytes) -> bytes:
        """A served HTML page: with :data:`RELOADER` at its end, the errors of a failed build at its top."""
        b = self.builder
        if b.errors:
            at = content.find(b">", content.find(b"<body")) + 1
            content = content[:at] + banner(b.errors, b.served()).encode() + content[at:]
        script = RELOADER.format(url=RELOAD, epoch=self.epoch).encode()
        end = content.rfind(b"</body>")
        return content[:end] + script + content[end:] if end >= 0 else content + script

    def missing(self) -> bytes:
        """What a missing file is answered with: the errors of a failed build, else the site's 404 page."""
        b = self.builder
        if b.errors:
            page = banner(b.errors, b.served())
            return self.page(
                f"<!doctype html><meta charset=utf-8><title>kb preview</title><body>{page}</body>".encode()
            )
        theirs = b.project.site_dir / "404.html"
        return self.page(theirs.read_bytes()) if theirs.is_file() else b"404"


class _Handler(SimpleHTTPRequestHandler):
    server: Server

    def do_GET(self) -> None:  # noqa: N802  (the standard library's name)
        url = urlsplit(self.path)
        if url.path == RELOAD:
            asked = parse_qs(url.query).get("epoch", ["0"])[0]
            self._send(200, str(self.server.after(int(asked) if asked.isdigit() else 0)).encode(), "text/plain")
            return
        path = Path(self.translate_path(self.path))
        if path.is_dir() and url.path.endswith("/"):
            path = path / "index.html"
        if not path.exists():
            self._send(404, self.server.missing(), "text/html; charset=utf-8")
        elif path.suffix == ".html" and path.is_file():
            self._send(200, self.server.page(path.read_bytes()), "text/html; charset=utf-8")
        else:
            super().do_GET()

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # any build may change any file
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002  (the standard library's name)
        pass  # each request is not news


def serve(project: Project, host: str, port: int, say: Say, warn: Say) -> int:
    """Build, then serve on ``host:port`` until interrupted; rebuild on every change (the watched
    files looked at every :data:`POLL` seconds, :func:`kb.site.preview.snapshot`)."""
    logging.getLogger("mkdocs").setLevel(logging.WARNING)  # its INFO lines name every page kept as built
    builder = Builder(project, say, warn, freeze=True)  # this process only previews
    try:
        server = Server(builder, host, port)
    except OSError as exc:
        warn(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}")
        return 1
    project.site_dir.mkdir(parents=True, exist_ok=True)
    builder.first()
    threading.Thread(target=server.serve_forever, name="kb-preview-http", daemon=True).start()
    say(f"kb preview: serving {display_path(project.site_dir)} at {server.url} (Ctrl-C stops)")
    try:
        while True:
            time.sleep(POLL)
            if (now := snapshot(project.watched())) != builder.files:
                builder(now)  # not looked at again: a large site's thousands of files
                server.reload()
    except KeyboardInterrupt:
        say("kb preview: stopped")
    finally:
        server.shutdown()
        server.server_close()
        builder.settle_search(run=False)  # one that has started stops (its files whole)
    return 0
