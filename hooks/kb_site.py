"""MkDocs adapter: wires build events to the knowledge base.  Nothing else
imports mkdocs.  All decisions live in ``kb.site`` and the renderers."""

from __future__ import annotations

import html
import logging
import os
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, InclusionLevel

from kb import arxiv_id
from kb.diagnostics import DataError
from kb.pages import front_matter_diagnostics, read_page, template_pages
from kb.index import paper_page
from kb.render.autolink import autolink
from kb.demos import SITE_DIR, enabled
from kb.demos.render import asset_files
from kb.site import Options, add_hand_written, build_site, current
from kb.site import feed_files, feed_links

log = logging.getLogger("mkdocs.plugins.kb")
HERE = Path(__file__).resolve().parent
_allowed: frozenset[str] = frozenset()


def on_config(config, **kwargs):
    global _allowed
    root = Path(config.config_file_path).resolve().parent
    extra = config.extra
    data_dir = Path(os.environ.get("KB_DATA") or extra.get("kb_data", "data"))
    if not data_dir.is_absolute():
        data_dir = root / data_dir
    try:
        demos = enabled(extra.get("kb_demos"))
    except ValueError as exc:
        raise PluginError(str(exc)) from None
    try:
        site = build_site(Options(data_dir=data_dir, demos=demos, site_url=config.site_url or ""))
    except DataError as exc:
        lines = [d.text() for d in exc.diagnostics if d.is_error]
        raise PluginError("the data has errors (run `kb validate`):\n" + "\n".join(lines)) from None
    for d in site.kb.warnings:
        log.info("kb: %s", d.text())
    _allowed = template_pages(HERE / "template_pages.txt")
    config.watch.append(str(data_dir))
    return config


def on_files(files, config, **kwargs):
    site = current()
    hand_written = {f.src_uri: Path(f.abs_src_path).read_text("utf-8-sig")
                    for f in files.documentation_pages() if f.abs_src_path and f.generated_by is None}
    add_hand_written(site, hand_written)  # collect first: backlinks from hand-written prose
    for src_uri, content in site.generated.items():
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            raise PluginError(f"docs/{src_uri} is generated from data: remove the hand-written file")
        inclusion = InclusionLevel.INCLUDED if src_uri in site.in_nav else InclusionLevel.NOT_IN_NAV
        files.append(File.generated(config, src_uri, content=content, inclusion=inclusion))
    if site.options.demos:  # off: no demo script, shader or style is shipped at all
        for path in asset_files():
            files.append(File.generated(config, f"{SITE_DIR}/{path.name}", abs_src_path=str(path)))
    _add_feeds(site, files, config)
    return files


# feeds: Atom/RSS files made from data, linked from every page head (overrides/main.html)
def _add_feeds(site, files, config) -> None:
    def page_url(src_uri: str) -> str:
        return files.get_file_from_path(src_uri).url

    for path, data in feed_files(site, page_url).items():
        if files.get_file_from_path(path) is not None:
            raise PluginError(f"docs/{path} is generated from data: remove the hand-written file")
        files.append(File.generated(config, path, content=data))


def on_env(env, config, files, **kwargs):
    env.globals["kb_feeds"] = feed_links(current())
    return env


def on_page_read_source(page, config, **kwargs):
    """Hand-written pages: front matter obeys the data rules (no aliases, tags, duplicate
    keys, limits) before MkDocs' YAML reader expands anything."""
    if page.file.generated_by is not None or not page.file.abs_src_path:
        return None
    source, problems = read_page(Path(page.file.abs_src_path), f"docs/{page.file.src_uri}")
    if source is not None:
        problems = front_matter_diagnostics(source, f"docs/{page.file.src_uri}")
    if problems:
        raise PluginError("\n".join(d.text() for d in problems))
    return source


@event_priority(100)  # before the macros plugin
def on_page_markdown(markdown, page, config, files, **kwargs):
    """Only reviewed pages (and generated brief pages) may run macros; titles and
    descriptions from front matter are escaped before any template sees them."""
    site = current()
    src = page.file.src_uri
    page.meta["render_macros"] = src in _allowed or src in site.template_pages
    for key in ("title", "description"):
        value = page.meta.get(key)
        if value is not None:
            page.meta[key] = html.escape(str(value), quote=True)
    return markdown


def on_page_content(html_text, page, config, files, **kwargs):
    site = current()
    if page.file.generated_by is not None:
        return html_text

    def target(ident: arxiv_id.ArxivId) -> tuple[str, str]:
        pid = site.kb.by_arxiv.get(ident.base)
        if pid is None:
            return ident.abs_url, f"arXiv {ident}"
        dest = files.get_file_from_path(paper_page(pid))
        return dest.url_relative_to(page.file), site.kb.papers[pid].display_title

    return autolink(html_text, target)
