"""Parts of the theme made once per build instead of once per page.

Material renders its logo and menu button, primary navigation, the tabs, the palette toggle, the
search dialog, the stylesheet links, its scripts' settings and the script tags for every page.
For a page outside the nav (every brief and paper page) these depend only on which index page it
hangs under (its ``parent``: the active tab and section) and on the folder of its URL (links are
relative to it): made once for each such pair and reused, byte for byte.
Pages in the nav (the hand-written ones, the indexes) are rendered as Material renders them.

The templates ask for it with ``overrides/partials/kb-memo.html``'s ``remember`` macro; here
are the three functions it calls.  Nothing here imports MkDocs: a page is anything with
``file.src_uri``, ``url`` and ``parent``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, PrefixLoader

__all__ = ["PREFIX", "Parts", "install", "place"]

PREFIX = "material"  # "material/partials/nav.html": Material's own template, under an override of the same name


def place(page: Any) -> tuple[str | None, str]:
    """Where a page outside the nav is, for the theme: the index page it hangs under (its source
    path; None: none) and the folder of its URL (the theme's links are relative to it)."""
    parent = getattr(getattr(page.parent, "file", None), "src_uri", None)
    return parent, posixpath.dirname(page.url.rstrip("/"))


class Parts:
    """The made parts of one build, by (part, parent page, URL folder)."""

    def __init__(self, in_nav: Collection[str]) -> None:
        self._in_nav = in_nav  # source paths of the pages in the nav
        self._made: dict[str, str] = {}
        self.reused = 0  # parts not made again

    def __len__(self) -> int:
        return len(self._made)

    def key(self, part: str, page: Any) -> str | None:
        """Where ``part`` of ``page`` is kept; None: made for this page alone."""
        if page is None or getattr(page, "file", None) is None or page.file.src_uri in self._in_nav:
            return None
        parent, folder = place(page)
        return f"{part}\0{parent}\0{folder}"

    def get(self, key: str | None) -> str | None:
        made = None if key is None else self._made.get(key)
        self.reused += made is not None
        return made

    def keep(self, key: str | None, made: str) -> str:
        if key is not None:
            self._made[key] = made
        return made


def install(env: Environment, theme_dirs: list[str], in_nav: Collection[str], compiled: Path | None = None) -> Parts:
    """Give the templates ``kb_part_key``/``kb_part``/``kb_keep`` and Material's templates under
    ``material/`` (the overrides that remember a part include the original).  ``compiled``: a
    directory of the build's cache where Jinja keeps each template compiled, checked against its
    source (compiling Material's templates is a fair part of a warm build: docs/performance.md),
    unless the environment has a bytecode cache already (``kb preview`` keeps them in memory).
    Compiled templates are code (marshal, and Jinja unpickles each one's checksum): ``compiled``
    is only ever the user's cache directory (:func:`kb.site.cache.location`), never a checkout."""
    if compiled is not None and env.bytecode_cache is None:
        compiled.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(compiled))
    material = next(d for d in theme_dirs if Path(d).parts[-2:] == ("material", "templates"))
    loader: BaseLoader | None = env.loader
    loaders: list[BaseLoader] = [loader] if loader is not None else []
    env.loader = ChoiceLoader([*loaders, PrefixLoader({PREFIX: FileSystemLoader(material)})])
    parts = Parts(in_nav)
    env.globals.update(kb_part_key=parts.key, kb_part=parts.get, kb_keep=parts.keep)
    return parts
