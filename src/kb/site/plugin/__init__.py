"""The MkDocs adapter: a plugin whose event handlers wire the build to the
knowledge base.  It is the only module that imports mkdocs; every decision
lives in :mod:`kb.site.pages.layout` and the renderers."""

from __future__ import annotations

import gc
import html
import logging
import os
import secrets
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import cast

from jinja2 import Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import TableOfContents, get_toc
from mkdocs.utils.templates import TemplateContext

from kb.data.cjk import join_cjk_breaks
from kb.data.diagnostics import DataError, Diagnostic, line_col
from kb.data.frontmatter import allowed_meta
from kb.data.pages import (
    body_start,
    check_page,
    published_files,
    read_list,
    read_page,
    template_diagnostics,
    template_pages,
)
from kb.data.template import Call, substitute
from kb.demos import SITE_DIR
from kb.demos.render import asset_files
from kb.knowledge.views import page_dates
from kb.messages import UI, script_words
from kb.render import htmltext, placement, sanitize
from kb.render.autolink import linker
from kb.render.glossary import explainer
from kb.render.html import PERMALINK_TITLE
from kb.render.macros import MACROS, page_topic
from kb.render.macros import Context as MacroContext
from kb.render.macros import call as macro_call
from kb.render.macros import diagnostics as macro_diagnostics
from kb.render.placement import Placeholders
from kb.site import cache, search, theme
from kb.site.pages import Edition, htmlpage, type_of
from kb.site.pages.demos import demos_html
from kb.site.pages.files import feed_links, feed_topics, page_feeds
from kb.site.pages.layout import Options, Site, add_hand_written, build_site, check_finished, make_files
from kb.site.plugin import finish, frame, pagetoc
from kb.site.plugin.config import KbConfig, add_living_documents, address, demos_on
from kb.site.preview import Preview
from kb.site.search import index as search_index
from kb.site.search import words as search_words
from kb.site.search.index import IndexStats, Stop

log = logging.getLogger("mkdocs.plugins.kb")
TEMPLATE_LIST = Path("hooks") / "template_pages.txt"  # reviewed list of template pages, beside mkdocs.yml
NO_TOOLTIPS = ("glossary.md",)  # the glossary explains every term itself
STATIC_LIST = Path("hooks") / "static_files.txt"  # reviewed .html/.svg/.js files under docs/, beside mkdocs.yml
SOCIAL_IMAGE = "assets/social.png"  # the default Open Graph image, when docs/ has one (1200x630)


class KnowledgeBasePlugin(BasePlugin[KbConfig]):
    """Loads the knowledge base once per build and adds the generated pages."""

    preview: Preview | None = (
        None  # set by `kb preview` before a build (kb.site.preview.serve); never by `mkdocs build`
    )

    def __init__(self) -> None:
        self._site: Site | None = None
        self._allowed: frozenset[str] = frozenset()
        self._reviewed: frozenset[str] = frozenset()
        self._templates: dict[str, tuple[str, int, list[Call]]] = {}
        self._outputs: dict[str, tuple[str, dict[int, str]]] = {}  # kb preview: a template page's calls made (_restale)
        self._slots: dict[str, Placeholders] = {}  # src uri -> HTML waiting for the Markdown step to end
        self._made: dict[str, str] = {}  # src uri -> a generated page's HTML, made before the Markdown step
        self._links: dict[str, dict[str, dict[str, str]]] = {}  # src uri -> its links the plugin made, to anchors
        self._ids: dict[str, frozenset[str]] = {}  # src uri -> the ids a page holds (what links' anchors name)
        self._tocs: dict[str, TableOfContents] = {}  # src uri -> the table of contents of a page in a frame
        self._linked: frozenset[str] = frozenset()  # what hand-written pages may link to as an anchor
        self._urls: dict[str, str] | None = None  # src uri -> URL of every file of the build
        self._files: dict[str, File] = {}  # src uri -> every file of the build (as Files.get_file_from_path)
        self._cache: cache.PageCache | None = None
        self._written = search_index.Written()  # what this build wrote for the search index
        self._facts: dict[str, search.Facts | None] = {}  # src uri -> its search facts, as in its cache key
        self._in_nav: frozenset[str] = frozenset()  # source paths of the pages in the nav
        self._parts: theme.Parts | None = None  # theme parts made once this build
        self._frames = frame.Frames(frozenset())  # pages outside the nav rendered into frames this build
        self._feed_links: list[dict[str, str]] = []  # every feed, for the pages' heads (on_env)
        self._head_feeds: dict[str, list[dict[str, str]]] = {}  # src uri -> the feeds its head links (_page_feeds)
        self._words: dict[str, object] = {}  # what the theme's scripts show (assets/kb-words.js)
        self._words_file: File | None = None  # that file, when it is the package's
        self._nonce = "kbhtml" + secrets.token_hex(16)  # unguessable: contributed text cannot forge it
        # template syntax in the plain pages read this build: shown as text, refused by kb validate
        self.inert: list[Diagnostic] = []

    @property
    def site(self) -> Site:
        if self._site is None:
            raise PluginError("the knowledge base is not loaded (is the kb plugin under plugins: in mkdocs.yml?)")
        return self._site

    # ------------------------------------------------------------------ config
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        self._written = search_index.Written() if self.preview is None else self.preview.writing
        config.mdx_configs.setdefault("toc", {})["permalink_title"] = PERMALINK_TITLE  # as on generated pages
        root = Path(config.config_file_path).resolve().parent
        data_dir = root / (os.environ.get("KB_DATA") or self.config.data_dir)  # an absolute one stays as it is
        demos = demos_on(self.config.demos)
        address(config, previewing=self.preview is not None)  # KB_SITE_URL; no edition selector when served
        try:
            options = Options(data_dir=data_dir, demos=demos, site_url=config.site_url or "", topic=self.config.topic)
            options.preview = self.preview  # `kb preview`: which pages to build (kb.site.preview)
            if not self.preview:  # a preview keeps what it reuses in memory
                cache.keep(options, root)  # the records, their mentions and entries, finished pages
            elif (where := cache.location(root)) is not None:  # and the theme's templates compiled as a build's
                options.templates = where / cache.TEMPLATES
            self._site = build_site(options)
        except DataError as exc:
            lines = [d.text() for d in exc.diagnostics if d.is_error]
            raise PluginError("the data has errors (run `kb validate`):\n" + "\n".join(lines)) from None
        topic = self.config.topic
        if topic is not None and topic not in self._site.kb.topics:
            raise PluginError(
                f"plugins.kb.topic: unknown topic {topic!r}; expected one of: {', '.join(self._site.kb.topics)}"
            )
        for d in self._site.kb.warnings:
            log.info("kb: %s", d.text())
        if (r := options.records) is not None:
            kept = options.mentions.reused if options.mentions else 0
            log.info("kb: data files: %d read from the cache, %d parsed; mentions of %d kept", r.hits, r.misses, kept)
        docs = Path(config.docs_dir)  # a topic's page that is not there is a broken link, not a nav entry
        # the nav's titles reach the theme's templates unescaped (as page titles do: on_page_markdown)
        living = {t.page: html.escape(t.title) for t in self._site.kb.topics.values() if (docs / t.page).is_file()}
        add_living_documents(config.nav, living)
        self._allowed = template_pages(root / TEMPLATE_LIST)
        self._reviewed = read_list(root / STATIC_LIST)
        self._check_docs(Path(config.docs_dir))  # before MkDocs lists docs/ (names it cannot handle)
        config.watch.append(str(data_dir))
        # the theme's own styles and scripts (kb.site.theme), before the project's own
        config.extra_css[:0] = [s for s in theme.STYLES if s not in config.extra_css]
        listed = {str(s) for s in config.extra_javascript}
        config.extra_javascript[:0] = [s for s in theme.SCRIPTS if s not in listed]
        return config

    # ------------------------------------------------------------------- files
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        site = self.site
        hand_written = {}
        for f in files.documentation_pages():
            if f.abs_src_path and f.generated_by is None:
                text, problems = read_page(Path(f.abs_src_path), f"docs/{f.src_uri}", Path(config.docs_dir))
                if text is None:
                    raise PluginError("\n".join(d.text() for d in problems))
                hand_written[f.src_uri] = text
        self._linked = finish.fragments(hand_written.values())
        add_hand_written(site, hand_written)  # collect first: backlinks from hand-written prose
        check_finished(site, {f.src_uri for f in files} | set(site.generated))
        if self.preview is not None:
            self._restale(files, hand_written)
        for src_uri, content in site.generated.items():
            inclusion = InclusionLevel.INCLUDED if src_uri in site.in_nav else InclusionLevel.NOT_IN_NAV
            if src_uri in site.skipped:  # a preview build of other pages: known (links resolve), not built
                inclusion = InclusionLevel.EXCLUDED
            self._add(files, config, src_uri, content=content, inclusion=inclusion)
        self._words = {**script_words(), "search.types": list(search.TYPES)}  # what the theme's scripts show
        self._words_file = None
        for src_uri, path in theme.asset_files().items():  # the package's; a file of docs/ at that path wins
            if files.get_file_from_path(src_uri) is not None:
                continue
            if src_uri == theme.WORDS_SCRIPT:  # with the words in it (kbWord); the search dialog's: on_env
                self._words_file = File.generated(config, src_uri, content=theme.words_script(self._words))
                files.append(self._words_file)
            else:
                files.append(File.generated(config, src_uri, abs_src_path=str(path)))
        if site.options.demos:  # off: no demo script, shader or style is shipped at all
            for path in asset_files():
                files.append(File.generated(config, f"{SITE_DIR}/{path.name}", abs_src_path=str(path)))

        def page_url(src_uri: str) -> str:
            found = files.get_file_from_path(src_uri)
            assert found is not None, src_uri
            return found.url

        for feed_path, data in make_files(site, page_url).items():
            kept = InclusionLevel.EXCLUDED if feed_path in site.skipped else InclusionLevel.UNDEFINED
            self._add(files, config, feed_path, content=data, inclusion=kept)
        return files

    def _restale(self, files: Files, pages: dict[str, str]) -> None:
        """``kb preview``: a dirty build makes a hand-written page again when its file is newer than
        its HTML; those whose inputs changed (:meth:`Preview.stale`) are made older.  Each page's
        inputs: the generated pages (its links), the targets of arXiv ids and the feeds (in every
        page's head), and a template page's macro calls made (kept for its rendering)."""
        assert self.preview is not None
        kb, site = self.site.kb, self.site
        ids = {base: (pid, kb.papers[pid].display_title) for base, pid in kb.by_arxiv.items() if pid in kb.papers}
        common = (frozenset(site.generated), ids, feed_links(kb))
        shown = {src: (common, self._made_calls(src, text)) for src, text in pages.items()}
        for src in self.preview.stale(shown):
            found = files.get_file_from_path(src)
            if found is not None and os.path.exists(found.abs_dest_path):
                os.utime(found.abs_dest_path, (0, 0))

    def _made_calls(self, src: str, text: str) -> object:
        """The outputs of a template page's macro calls (none of another page); a page whose calls
        fail is always made again (its build says why)."""
        if src not in self._allowed:
            return ()
        calls, problems = template_diagnostics(text, f"docs/{src}", MACROS)
        try:
            outputs = {call.start: self._call(src, text, call) for call in calls} if not problems else None
        except PluginError:  # said as the page is built
            outputs = None
        if outputs is None:
            return object()  # equal to nothing: made again
        self._outputs[src] = (text, outputs)
        return tuple(outputs.items())

    def _check_docs(self, docs_dir: Path) -> None:
        """Every file under docs/ (MkDocs would publish it): a safe name, no link or special
        file, size limits, active types (.html, .svg, .js, ...) only at reviewed paths."""
        problems = [d.text() for _, d in published_files(docs_dir, self._reviewed, lambda e: f"docs/{e.rel}") if d]
        if problems:
            raise PluginError("docs/ has files that cannot be published:\n" + "\n".join(problems))

    @staticmethod
    def _add(files: Files, config: MkDocsConfig, src_uri: str, content: str | bytes, inclusion: InclusionLevel) -> None:
        if files.get_file_from_path(src_uri) is not None:
            raise PluginError(f"docs/{src_uri} is generated from data: remove the hand-written file")
        files.append(File.generated(config, src_uri, content=content, inclusion=inclusion))

    def on_env(self, env: Environment, /, *, config: MkDocsConfig, files: Files) -> Environment:
        env.globals["kb_feeds"] = self._feed_links = feed_links(self.site.kb)
        self._head_feeds = {}
        env.globals["kb_page_feeds"] = self._page_feeds  # the feeds a page's head links
        env.globals["kb_ui"] = UI  # interface words of the templates (kb/theme/templates), from the catalogue
        env.globals["kb_dates"] = page_dates(self.site.kb)  # the sitemap's lastmod (sitemap.xml)
        env.globals["kb_social_image"] = files.get_file_from_path(SOCIAL_IMAGE) is not None  # the project's own
        self._parts = theme.install(  # the package's templates; kb-memo.html
            env, config.theme.dirs, self._in_nav, self.site.options.templates, config.theme.custom_dir
        )
        self._frames.install(env)  # partials/kb-slot.html
        if self._words_file is not None:  # with the search dialog's inside (files are copied later)
            dialog = theme.search_dialog(env, config)
            self._words_file.content_string = theme.words_script({**self._words, "search.dialog": dialog})
        return env

    # ------------------------------------------------------------------- pages
    def on_page_read_source(self, page: Page, config: MkDocsConfig) -> str | None:
        """Hand-written pages, before MkDocs reads anything: no link, no special file, size checked
        before reading; front matter obeys the data rules and the front-matter schema; template
        syntax only in reviewed template pages, and there only calls of registered macros."""
        if page.file.generated_by is not None or not page.file.abs_src_path:
            return None
        src = page.file.src_uri
        shown = f"docs/{src}"
        source, problems = read_page(Path(page.file.abs_src_path), shown, Path(config.docs_dir))
        if source is not None:
            problems = check_page(src, source, shown, self._allowed, MACROS)
        # Template syntax in a page that is not a template is inert here (no template engine runs:
        # it is shown as text); `kb validate` refuses it so that nobody relies on it, and the build
        # says so (kb preview as a warning: the contributor sees there what the pull request's check says)
        fatal = [d for d in problems if d.is_error and (d.code != "template" or src in self._allowed)]
        if fatal:
            raise PluginError("\n".join(d.text() for d in fatal))
        inert = [d for d in problems if d.is_error and d.code == "template"]
        for d in inert:
            log.info("kb: %s (shown as text; kb validate refuses it)", d.text())
        self.inert += inert
        assert source is not None
        if src in self._allowed:
            calls, _ = template_diagnostics(source, shown, MACROS)
            topic = page_topic(self.site.kb, src, self.site.default_topic)  # a living document's: its own
            wrong = macro_diagnostics(source, shown, calls, self.site.kb, topic)  # as kb validate
            if wrong:
                raise PluginError("\n".join(d.text() for d in wrong))
            self._templates[src] = (source, body_start(source), calls)
        return source

    @event_priority(100)  # first: no other plugin sees the calls
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Template pages: each macro call is replaced by a placeholder for its HTML output (no
        template engine runs); a generated page (HTML already, or a brief page's macro call) is
        finished here and handed back as the skeleton of its headings and ids
        (:func:`finish.skeleton`): no HTML of ours goes through Markdown.  Of the page's metadata
        (either form MkDocs reads) only what the front-matter allowlist allows reaches the theme,
        titles and descriptions escaped."""
        src = page.file.src_uri
        page.meta.pop("render_macros", None)  # no effect (no template engine runs); kb validate says where
        dropped = allowed_meta(page.meta, template_page=True)
        if dropped and page.file.generated_by is None:  # on_page_read_source refused them: a form it does not know
            log.warning(f"kb: docs/{src}: page metadata not allowed, left out: {', '.join(dropped)}")
        for key in ("title", "description"):
            value = page.meta.get(key)
            if value is not None:
                page.meta[key] = html.escape(str(value), quote=True)
        if page.file.generated_by is not None:  # what an edition does with it (kb.editions.freeze)
            edition = type_of(self.site, src).edition
            if edition is not Edition.FROZEN:
                page.meta["kb_edition"] = edition.value
        if page.file.generated_by is None and src not in self._templates:
            return markdown  # a plain hand-written page
        if (done := self.site.finished.get(src)) is not None:  # HTML as the render cache kept it
            return self._keep(page, done)
        if src in self._templates:
            source, start, calls = self._templates[src]  # the calls' places are checked after conversion
            if source[start:] != markdown:  # pragma: no cover - MkDocs strips exactly the front matter
                raise PluginError(f"docs/{src}: the page changed between reading and rendering")
            slots = self._slots[src] = Placeholders(self._nonce)
            links: dict[str, str] = {}  # the page's links resolved so far
            return self._substitute(
                page, source, start, calls, lambda call, out: self._slot(page, files, slots, links, source, call, out)
            )
        if src in self.site.template_pages:
            calls, problems = template_diagnostics(markdown, f"docs/{src}", MACROS)
            if problems:  # pragma: no cover - generated pages are made by the project
                raise PluginError("\n".join(d.text() for d in problems))
            markdown = self._substitute(page, markdown, 0, calls, lambda call, out: out)
        return self._generated(page, markdown.strip(), files)

    def _generated(self, page: Page, made: str, files: Files) -> str:
        """A generated page's HTML (``made``) finished: its links resolved, the first use of each term
        explained, its search words added (:mod:`kb.site.search.words`) and its outline read in one
        walk; kept for ``on_page_content`` (and in the render cache, for a brief or a paper page);
        what MkDocs learns of it is handed back as Markdown."""
        src = page.file.src_uri
        page_html, found = self._resolve(page, made, files, {})
        if not page.meta.get("description"):
            self._describe(page)
        outline = htmlpage.Outline()
        readers: list[htmltext.Reader] = [outline.read]
        if src not in NO_TOOLTIPS:
            readers.append(explainer(page_html))
        if type_of(self.site, src).facts is not None and search.indexed(page.url):  # its words, for on_post_page
            readers.append(search_words.words(page_html))
        page_html = htmltext.edit(page_html, readers, htmlpage.Outline.NAMES, htmlpage.Outline.ATTRS)
        finished = finish.read(page_html, outline, found, titled=True)
        markdown = self._keep(page, finished)
        kept = self.site.options.finished
        if kept is not None and src in kept.keys:  # a brief or paper page
            title, description = page.meta.get("title"), page.meta.get("description")
            kept.put(src, replace(finished, title=title, description=description))
        return markdown

    def _keep(self, page: Page, finished: finish.Finished) -> str:
        """A generated page's HTML, kept for ``on_page_content``, with its ids and its links to
        anchors (checked at the end of the build); returned: what MkDocs is to learn of it."""
        src = page.file.src_uri
        finish.titles(page, finished)
        self._made[src] = finished.content
        self._ids[src] = finished.anchor_ids
        self._links[src] = finished.anchors
        if not self._frames.takes(page):
            return finish.skeleton(finished)
        self._tocs[src] = get_toc(finished.toc)  # the frame shows it (kb.site.plugin.frame)
        return finish.skeleton(finished, self._linked)

    def _slot(
        self, page: Page, files: Files, slots: Placeholders, links: dict[str, str], text: str, call: Call, out: str
    ) -> str:
        """A template page's macro call: a placeholder for its HTML (links resolved).  When the HTML
        has headings, ids or links to anchors and the call starts its line, the placeholder is
        followed by the skeleton that tells MkDocs of them (:func:`finish.skeleton`), which goes
        again once the page is converted (:meth:`Placeholders.collapse`)."""
        page_html, found = self._resolve(page, out, files, links)
        token = slots.add(page_html)
        for target, anchors in found.anchors.items():
            self._links.setdefault(page.file.src_uri, {}).setdefault(target, {}).update(anchors)
        if text.rfind("\n", 0, call.start) + 1 != call.start:  # in a line: Markdown's blocks would split it
            return token
        finished = finish.read(page_html, htmlpage.outline(page_html), found, titled=False)
        if not (finished.toc or finished.anchor_ids):
            return token
        return f"{token}\n\n{finish.skeleton(finished)}\n\n{slots.end(token)}"

    def _substitute(
        self, page: Page, text: str, start: int, calls: list[Call], wrap: Callable[[Call, str], str]
    ) -> str:
        src = page.file.src_uri
        made = self._outputs.pop(src, None)  # kb preview has made them (_restale)
        done = made[1] if made is not None and made[0] == text else {}

        def output(call: Call) -> str:
            out = done.get(call.start)
            return wrap(call, self._call(src, text, call) if out is None else out)

        return substitute(text, calls, output, start)

    def _call(self, src: str, text: str, call: Call) -> str:
        """The output of one macro call of ``text``, the page ``src``'s source."""
        try:
            ctx = MacroContext(
                self.site.kb, src, self.site.default_topic, lambda sec: demos_html(self.site, src, section=sec)
            )
            return macro_call(ctx, call.name, call.args, call.kwargs)
        except Exception as exc:  # a macro refusing its arguments: a located error
            line, col = line_col(text, call.start)
            raise PluginError(f"docs/{src}:{line}:{col}: {call.render()}: {exc}") from None

    def on_page_content(self, html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """A generated page: its HTML (made in ``on_page_markdown``) in the place of what MkDocs
        converted.  A hand-written page: sanitized (nh3, :mod:`kb.render.sanitize`), then arXiv ids
        linked; then the HTML of its macros takes their placeholders' place, and on every page but
        the glossary and the home page the first use of each term is explained in place (``<abbr>``)."""
        src = page.file.src_uri
        made = self._made.pop(src, None)
        if made is not None:
            return self._from_cache(page, made)
        slots = self._slots.pop(src, None)
        if slots:
            html_text = slots.collapse(html_text)
        html_text = join_cjk_breaks(sanitize.clean(html_text))  # a line break in Chinese text is no space
        self._refuse_ids(page, html_text, config)
        if (template := self._templates.pop(src, None)) is not None and slots:  # each call in text, as validate
            source, _, calls = template
            wrong = placement.misplaced(html_text, slots, len(calls))
            if wrong:
                raise PluginError(
                    "\n".join(d.text() for d in placement.diagnostics(source, f"docs/{src}", calls, wrong))
                )
        readers = [linker(html_text, finish.arxiv_target(self.site.kb, page, files))]
        if slots:  # the hand-written text's ids linked first: the macros' HTML links its own
            html_text = slots.swap(htmltext.edit(html_text, readers))
            readers = []
        if src not in NO_TOOLTIPS:
            readers.append(explainer(html_text))
        outline = htmlpage.Outline()  # the page's ids, for the anchors of the links the plugin made
        readers.append(outline.read)
        html_text = htmltext.edit(html_text, readers, htmlpage.Outline.NAMES, htmlpage.Outline.ATTRS)
        self._ids[src] = frozenset(outline.ids)
        return self._from_cache(page, html_text)  # one walk: ids linked, terms explained, ids read

    @staticmethod
    def _refuse_ids(page: Page, html_text: str, config: MkDocsConfig) -> None:
        """A hand-written page's ids may not be the theme's or the site's own (``__config``,
        ``kb-words``, ...: :func:`kb.render.sanitize.reserved_id`): located as ``kb validate`` does."""
        found = sanitize.refused(html_text)
        if not found:
            return
        shown = f"docs/{page.file.src_uri}"
        source, problems = read_page(Path(page.file.abs_src_path or ""), shown, Path(config.docs_dir))
        if source is not None:
            problems = sanitize.located(source, body_start(source), shown, found)
        raise PluginError("\n".join(d.text() for d in problems))

    def _describe(self, page: Page) -> None:
        """A generated page's description from its own content (meta description, Open Graph)."""
        describe = type_of(self.site, page.file.src_uri).describe
        if describe is not None and (text := describe(self.site.kb, page.file.src_uri)):
            page.meta["description"] = html.escape(text, quote=True)

    # ------------------------------------------------------------- page cache
    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        """The page cache (:mod:`kb.site.cache`), salted with everything every page's output depends on."""
        self._in_nav = frozenset(p.file.src_uri for p in nav.pages)
        self._frames = frame.Frames(self._in_nav)
        root = Path(config.config_file_path).resolve().parent
        where = cache.location(root)
        if where is not None and self.preview is None:
            self._cache = cache.PageCache(
                where / cache.PAGES, cache.salt(root, config.site_url or "", str(nav), feed_links(self.site.kb))
            )
        return nav

    def _toc(self, page: Page) -> TableOfContents:
        """The page's table of contents: MkDocs' own, or the one a page in a frame is shown with."""
        return self._tocs.get(page.file.src_uri, page.toc)

    def _page_feeds(self, src_uri: str) -> list[dict[str, str]]:
        """The feeds the head of the page at ``src_uri`` links (:func:`kb.site.pages.files.page_feeds`),
        found once a build: the render cache's key, the frame's slot and its template ask for them."""
        found = self._head_feeds.get(src_uri)
        if found is None:
            found = self._head_feeds[src_uri] = page_feeds(
                self._feed_links, src_uri, feed_topics(self.site.kb, src_uri)
            )
        return found

    def _from_cache(self, page: Page, content: str) -> str:
        """The whole page from the cache if its key (all the theme reads, and its search facts) is
        there; else one for the theme's frames to render, if it is outside the nav (:mod:`kb.site.plugin.frame`)."""
        built = None
        if self._cache is not None:
            neighbours = [(p.title, p.url) if p else None for p in (page.previous_page, page.next_page)]
            facts = self._facts[page.file.src_uri] = self._facts_of(page)
            parts = cache.page_parts(
                page.file.src_uri,
                page.url,
                str(page.title),
                page.meta,
                content,
                str(self._toc(page)),
                neighbours,
                facts,
            )
            parts.append(repr(self._page_feeds(page.file.src_uri)))  # the head's (the salt has every feed)
            built = self._cache.look(page.file.src_uri, parts)
        if built is None:
            self._frames.take(page)
            return content
        page.meta["template"] = cache.TEMPLATE
        return built

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        """What is written carries the search index's marks (:func:`kb.site.search.mark`: the page's
        body, type, topic and date); so does what goes to the cache, so a page from it is final."""
        src = page.file.src_uri
        facts = self._facts.pop(src) if src in self._facts else self._facts_of(page)  # marked as keyed
        indexed = facts is not None and search.indexed(page.url)
        cached = self._cache is not None and self._cache.from_cache(src)
        generated = page.file.generated_by is not None  # its words are in its HTML already (_generated)
        marked = output if cached or facts is None or not indexed else search.mark(output, facts, not generated)
        if marked is None:  # not kept either: every build says it
            log.warning(f"kb: {src} has no <article>: it is not in the search index")
            return output
        self._written.add(indexed)
        if self._cache is not None and not cached:
            self._cache.keep(src, marked)
        return marked

    def _facts_of(self, page: Page) -> search.Facts | None:
        """What search shows and filters of the page, as its page type says (None: not indexed)."""
        facts = type_of(self.site, page.file.src_uri).facts
        return facts(self.site.kb, page.file.src_uri) if facts is not None else None

    def _file_map(self, files: Files) -> dict[str, File]:
        if self._urls is None:  # every file and its URL by source path (the files are final by now)
            self._files = {f.src_uri: f for f in files}
            self._urls = {src: f.url for src, f in self._files.items()}
        return self._files

    def _resolve(self, page: Page, made: str, files: Files, done: dict[str, str]) -> tuple[str, htmlpage.Links]:
        """HTML the plugin made for ``page`` with its links resolved (``done``: the page's links resolved
        so far), returned with what resolving them found.  A link to a missing page is said as MkDocs
        says it (and makes a kept page stale: made again)."""
        self._file_map(files)
        assert self._urls is not None
        found = htmlpage.Links()
        resolve = htmlpage.resolver(page.file.src_uri, page.file.url, self._urls, found)
        made = htmlpage.resolve_links(made, resolve, done)
        for link, target in found.missing:  # what MkDocs says of a Markdown link to a missing page
            log.warning(
                f"Doc file '{page.file.src_uri}' contains a link '{link}', but the target '{target}' "
                "is not found among documentation files."
            )
        return made, found

    # ------------------------------------------------------------- page context
    @event_priority(-100)  # last: a page rendered here (kb.site.plugin.frame) is rendered with what other plugins added
    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext | None:
        """Pages out of the nav (for build cost) hang under the page their type names as
        ``parent``: the theme's breadcrumb, tabs and navigation read ``kb_parent`` and
        ``kb_ancestors`` (that page and its sections) of the context as the page's own
        (kb/theme/templates/partials/path.html, tabs-item.html, nav-item.html)."""
        index = type_of(self.site, page.file.src_uri).parent
        if page.parent is None and index is not None:
            found = next((p for p in nav.pages if p.file.src_uri == index), None)
            if found is not None:
                _give(context, kb_parent=found, kb_ancestors=[found, *found.ancestors])
        pagetoc.adjust(page, self._feed_links, self._in_nav)
        if (whole := self._frames.render(page, context, self._tocs.pop(page.file.src_uri, None))) is not None:
            _give(context, kb_whole_page=whole)  # the template it has now prints it (kb.site.plugin.frame.TEMPLATE)
        return context

    # ------------------------------------------------------------------ search
    def on_post_build(self, config: MkDocsConfig) -> None:
        """The Pagefind index of the written pages (:mod:`kb.site.search`); a preview's later ones: when idle."""
        for src, link, target, anchor in finish.unfound(self._links, self._ids):  # as MkDocs says it
            problem = (
                "there is no such anchor on this page"
                if target == src
                else f"the doc '{target}' does not contain an anchor '#{anchor}'"
            )
            log.log(config.validation.links.anchors, f"Doc file '{src}' contains a link '{link}', but {problem}.")
        self._links, self._ids = {}, {}
        if self._cache is not None:
            log.info("kb: page cache: %d built from it, %d built anew, %d old entries removed", *self._cache.finish())
        if (finished := self.site.options.finished) is not None:
            log.info("kb: finished pages: %d from the cache, %d made, %d old removed", *finished.finish())
        if self._parts is not None:
            log.info("kb: theme parts: %d made, %d reused; %s", len(self._parts), self._parts.reused, self._frames)
        site_dir = config.site_dir
        if self.preview is None and search_index.leave(site_dir, self._written.pages):
            pass  # `kb build` indexes the site once this process has ended
        elif self.preview is None or self.preview.search:
            self._index(Path(site_dir), self._written.pages)
        else:  # kb preview brings the index up to date when idle
            self.preview.index = partial(self._index, Path(site_dir), None)
        self.on_build_error()  # the end of a build, as after a failed one

    def _index(self, site_dir: Path, pages: int | None, stop: Stop | None = None) -> IndexStats:
        try:
            stats = search_index.index_site(site_dir, pages, stop)
        except Exception as exc:  # the binary missing or failing: the site has no search
            raise PluginError(f"search index (Pagefind): {exc}") from None
        log.info("kb: %s", stats.report())
        return stats

    def on_build_error(self, error: Exception | None = None) -> None:
        """What the load froze out of garbage collection goes back to it (`mkdocs serve` builds again)."""
        if self.preview is None:
            gc.unfreeze()


def _give(context: TemplateContext, **values: object) -> None:
    """Template context variables of the kb plugin's own (``kb_...``), which the theme's templates
    read (kb/theme/templates): MkDocs types the context with its own keys only."""
    cast("dict[str, object]", context).update(values)
