"""Options of the ``kb`` MkDocs plugin (``plugins: - kb: {...}`` in mkdocs.yml).

Environment variables override two of them, for scripts and tests that build
the same project from other data: ``KB_DATA`` (a data directory) and
``KB_DEMOS`` (``1/true/yes/on`` or ``0/false/no/off``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError

from kb.demos import ENV as DEMOS_ENV
from kb.demos import enabled

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig

SITE_URL_ENV = "KB_SITE_URL"  # the published address; replaces site_url of mkdocs.yml


class KbConfig(Config):
    data_dir = c.Type(str, default="data")
    """The knowledge base's data directory, relative to mkdocs.yml."""

    demos = c.Type(bool, default=False)
    """Embed the WebGPU kernel demos on the pages that declare them."""

    topic = c.Optional(c.Type(str))
    """Default topic of the macros that take one (``section("s1-3-kv-cache")``), on a page that is
    not a topic's living document (there: that topic); unset: the knowledge base's only topic,
    else the first by id."""


def demos_on(configured: bool) -> bool:
    """Whether the WebGPU demos are built: ``KB_DEMOS``, else ``demos:`` of mkdocs.yml."""
    try:
        return enabled(configured)
    except ValueError as exc:
        raise PluginError(f"{DEMOS_ENV}: {exc}") from None


def published_url() -> str | None:
    """The published address from ``KB_SITE_URL`` (for canonical links, Open Graph, the sitemap
    and the feeds), ending in ``/``; None when it is not set."""
    value = os.environ.get(SITE_URL_ENV, "").strip()
    if not value:
        return None
    if not value.startswith(("https://", "http://")):
        raise PluginError(f"{SITE_URL_ENV}: expected an http(s) address, got {value!r}")
    return value.rstrip("/") + "/"


def address(config: MkDocsConfig, previewing: bool) -> None:
    """Where the site is: ``site_url`` from ``KB_SITE_URL`` when it is set.  A site served where it
    is built (``kb preview``; ``mkdocs serve``, which sets ``site_url`` to its own address) has no
    editions: those live on the published branch (:mod:`kb.editions`), and the theme's version
    selector would ask for a ``versions.json`` the server does not have, a 404 on every page
    opened.  Such a build leaves the selector out."""
    host, port = config.dev_addr
    if previewing or (config.site_url or "").startswith(f"http://{host}:{port}/"):  # as mkdocs serve writes it
        config.extra.pop("version", None)
    if (site_url := published_url()) is not None:
        config.site_url = site_url


def add_living_documents(nav: list[Any] | None, pages: Mapping[str, str]) -> None:
    """Each topic's living document (``pages``: its page, its title) the nav of mkdocs.yml leaves
    out, added beside the living documents it lists (in the same section): a new topic is a topic
    file and its page, and mkdocs.yml names none of them.  Nothing when the nav lists no living
    document (it is the project's to place them) or is not set (MkDocs lists every page)."""
    if not nav:
        return
    missing = [page for page in pages if not _lists(nav, page)]
    if missing and (home := _section_of(nav, set(pages))) is not None:
        home.extend({pages[page]: page} for page in missing)


def _lists(items: list[Any], page: str) -> bool:
    """Whether the nav's ``items`` (at any depth) name ``page``."""
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) and len(item) == 1 else item
        if value == page or (isinstance(value, list) and _lists(value, page)):
            return True
    return False


def _section_of(items: list[Any], pages: set[str]) -> list[Any] | None:
    """The list of the nav holding an entry for one of ``pages``, the first found."""
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) and len(item) == 1 else item
        if isinstance(value, str) and value in pages:
            return items
        if isinstance(value, list) and (found := _section_of(value, pages)) is not None:
            return found
    return None
