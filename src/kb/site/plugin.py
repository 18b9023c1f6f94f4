"""The MkDocs adapter: a plugin whose event handlers wire the build to the
knowledge base.  It is the only module that imports mkdocs; every decision
lives in :mod:`kb.site.layout` and the renderers."""

from __future__ import annotations

import html
import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page

from kb.data import arxiv_id
from kb.data.diagnostics import DataError
from kb.data.pages import front_matter_diagnostics, read_page, template_pages
from kb.demos import ENV as DEMOS_ENV
from kb.demos import SITE_DIR, enabled
from kb.demos.render import asset_files
from kb.knowledge.index import paper_page
from kb.render.autolink import autolink
from kb.site.config import KbConfig
from kb.site.layout import Options, Site, add_hand_written, build_site, feed_files, feed_links

log = logging.getLogger("mkdocs.plugins.kb")
TEMPLATE_LIST = Path("hooks") / "template_pages.txt"  # reviewed list of template pages, beside mkdocs.yml


class KnowledgeBasePlugin(BasePlugin[KbConfig]):
    """Loads the knowledge base once per build and adds the generated pages."""

    def __init__(self) -> None:
        self._site: Site | None = None
        self._allowed: frozenset[str] = frozenset()

    @property
    def site(self) -> Site:
        if self._site is None:
            raise PluginError("the knowledge base is not loaded yet (is the kb plugin listed under plugins: in mkdocs.yml?)")
        return self._site

    # ------------------------------------------------------------------ config
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        root = Path(config.config_file_path).resolve().parent
        data_dir = Path(os.environ.get("KB_DATA") or self.config.data_dir)
        if not data_dir.is_absolute():
            data_dir = root / data_dir
        try:
            demos = enabled(self.config.demos)
        except ValueError as exc:
            raise PluginError(f"{DEMOS_ENV}: {exc}") from None
        try:
            self._site = build_site(Options(data_dir=data_dir, demos=demos, site_url=config.site_url or "",
                                            topic=self.config.topic))
        except DataError as exc:
            lines = [d.text() for d in exc.diagnostics if d.is_error]
            raise PluginError("the data has errors (run `kb validate`):\n" + "\n".join(lines)) from None
        topic = self.config.topic
        if topic is not None and topic not in self._site.kb.topics:
            raise PluginError(f"plugins.kb.topic: unknown topic {topic!r}; expected one of: {', '.join(self._site.kb.topics)}")
        for d in self._site.kb.warnings:
            log.info("kb: %s", d.text())
        self._allowed = template_pages(root / TEMPLATE_LIST)
        config.watch.append(str(data_dir))
        return config

    # ------------------------------------------------------------------- files
    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        site = self.site
        hand_written = {f.src_uri: Path(f.abs_src_path).read_text("utf-8-sig")
                        for f in files.documentation_pages() if f.abs_src_path and f.generated_by is None}
        add_hand_written(site, hand_written)  # collect first: backlinks from hand-written prose
        for src_uri, content in site.generated.items():
            self._add(files, config, src_uri, content=content,
                      inclusion=InclusionLevel.INCLUDED if src_uri in site.in_nav else InclusionLevel.NOT_IN_NAV)
        if site.options.demos:  # off: no demo script, shader or style is shipped at all
            for path in asset_files():
                files.append(File.generated(config, f"{SITE_DIR}/{path.name}", abs_src_path=str(path)))

        def page_url(src_uri: str) -> str:
            found = files.get_file_from_path(src_uri)
            assert found is not None, src_uri
            return found.url

        for path, data in feed_files(site, page_url).items():
            self._add(files, config, path, content=data)
        return files

    @staticmethod
    def _add(files: Files, config: MkDocsConfig, src_uri: str, content: str | bytes,
             inclusion: InclusionLevel = InclusionLevel.UNDEFINED) -> None:
        if files.get_file_from_path(src_uri) is not None:
            raise PluginError(f"docs/{src_uri} is generated from data: remove the hand-written file")
        files.append(File.generated(config, src_uri, content=content, inclusion=inclusion))

    def on_env(self, env: Any, config: MkDocsConfig, files: Files) -> Any:
        env.globals["kb_feeds"] = feed_links(self.site)
        return env

    # ------------------------------------------------------------------- pages
    def on_page_read_source(self, page: Page, config: MkDocsConfig) -> str | None:
        """Hand-written pages: front matter obeys the data rules (no aliases, tags, duplicate
        keys, limits) before MkDocs' YAML reader expands anything."""
        if page.file.generated_by is not None or not page.file.abs_src_path:
            return None
        shown = f"docs/{page.file.src_uri}"
        source, problems = read_page(Path(page.file.abs_src_path), shown)
        if source is not None:
            problems = front_matter_diagnostics(source, shown)
        if problems:
            raise PluginError("\n".join(d.text() for d in problems))
        return source

    @event_priority(100)  # before the macros plugin
    def on_page_markdown(self, markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        """Only reviewed pages (and generated brief pages) may run macros; titles and
        descriptions from front matter are escaped before any template sees them."""
        src = page.file.src_uri
        page.meta["render_macros"] = src in self._allowed or src in self.site.template_pages
        for key in ("title", "description"):
            value = page.meta.get(key)
            if value is not None:
                page.meta[key] = html.escape(str(value), quote=True)
        return markdown

    def on_page_content(self, html_text: str, page: Page, config: MkDocsConfig, files: Files) -> str:
        if page.file.generated_by is not None:
            return html_text
        site = self.site

        def target(ident: arxiv_id.ArxivId) -> tuple[str, str]:
            pid = site.kb.by_arxiv.get(ident.base)
            dest = files.get_file_from_path(paper_page(pid)) if pid else None
            if pid is None or dest is None:
                return ident.abs_url, f"arXiv {ident}"
            return dest.url_relative_to(page.file), site.kb.papers[pid].display_title

        return autolink(html_text, target)
