"""Parts of the theme made once per build instead of once per page.

Material renders its logo and menu button, primary navigation, the tabs, the palette toggle, the
search dialog, the stylesheet links, its scripts' settings and the script tags for every page.
For a page outside the nav (every brief and paper page) these depend only on which index page it
hangs under (the active tab and section) and on the folder of its URL (links are
relative to it): made once for each such pair and reused, byte for byte.
Pages in the nav (the hand-written ones, the indexes) are rendered as Material renders them.

The templates ask for it with ``partials/kb-memo.html``'s ``remember`` macro; here are the three
functions it calls.  Nothing here imports MkDocs: a page is anything with ``file.src_uri`` and
``url``; the index page it hangs under is the template context's ``kb_parent`` (:mod:`kb.site.plugin`).

The theme's own files ship inside the package (``kb/theme/``), so a site of another repository
builds with ``pip install`` alone: :data:`TEMPLATES` (templates over Material's, found after the
project's own ``custom_dir`` and before Material's: :func:`install`) and :data:`ASSETS` (the
scripts and styles the templates and pages load, added to the site under ``assets/``).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, PrefixLoader

__all__ = ["ASSETS", "PREFIX", "SCRIPTS", "STYLES", "TEMPLATES", "Parts", "asset_files", "install", "place"]
__all__ += ["SEARCH_DIALOG", "WORDS_SCRIPT", "search_dialog", "words_script"]

PREFIX = "material"  # "material/partials/nav.html": Material's own template, under an override of the same name
THEME = Path(__file__).resolve().parents[1] / "theme"  # the package's theme: kb/theme/
TEMPLATES = THEME / "templates"  # over Material's (main.html, partials/…)
ASSETS = THEME / "assets"  # the site's scripts and styles
SITE_ASSETS = "assets"  # where they are in the built site
# Loaded on every page, in this order, before the project's own extra_css/extra_javascript (the
# header search's files are loaded by partials/search.html); kb-words.js first: the others read it.
STYLES = ("assets/kb.css",)
SCRIPTS = ("assets/kb-words.js", "assets/kb-tables.js", "assets/kb-previews.js")


_INDENT = re.compile(r"[ \t]*\n\s*")  # a line break with the blanks around it (and blank lines)
# the line break after a statement alone on its line (the line before keeps its own break)
_STATEMENT_LINE = re.compile(r"(?<=\n)(\{%(?:(?!%\}).)*%\})\n")
_KEEPS_BLANKS = re.compile(r"<(pre|textarea)\b", re.IGNORECASE)  # where a browser shows blanks as written


class LeanLoader(BaseLoader):
    """A loader whose templates lose their indentation: each line break with the blanks around it
    becomes one line break.  A browser shows a run of blanks between tags or words as one, so the
    pages look and read the same, and Material's templates' indentation is no longer repeated in
    every page (several KB a page); a statement alone on its line (``{% if … %}``) leaves no
    empty line either.  A template with ``<pre>`` or ``<textarea>`` stays as it is."""

    def __init__(self, inner: BaseLoader) -> None:
        self.inner = inner

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.inner.get_source(environment, template)
        if not _KEEPS_BLANKS.search(source):
            source = _STATEMENT_LINE.sub(r"\1", _INDENT.sub("\n", source))
        return source, filename, uptodate

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


def asset_files() -> dict[str, Path]:
    """The theme's scripts and styles by their path in the site (``assets/kb.css``: the file)."""
    return {f"{SITE_ASSETS}/{p.name}": p for p in sorted(ASSETS.iterdir()) if p.suffix in (".js", ".css")}


WORDS_SCRIPT = "assets/kb-words.js"  # the script that gives the others the interface words (kbWord)
SEARCH_DIALOG = "partials/kb-search-dialog.html"  # the inside of the header's search dialog
_WORDS_HERE = "{} /* the interface words: kb.site.theme.words_script */"  # where they go in it


def search_dialog(env: Environment, config: Any) -> str:
    """The inside of the header's search dialog (:data:`SEARCH_DIALOG`), the same in every page: made
    once with the theme's words and icons (``config``: MkDocs'), for ``assets/kb-search.js`` to put
    in each page's dialog (:func:`words_script`, ``search.dialog``); 2 KB a page less."""
    lang = env.get_template("partials/language.html").make_module({"config": config})
    return env.get_template(SEARCH_DIALOG).render(config=config, lang=lang)


def words_script(words: Mapping[str, object]) -> str:
    """The site's ``assets/kb-words.js``: the theme's, with the interface words the page scripts
    show (``words``, from the message catalogue) written into it.  One file the browser keeps,
    instead of the same JSON in every page (1.4 KB a page)."""
    source = (ASSETS / Path(WORDS_SCRIPT).name).read_text("utf-8")
    assert _WORDS_HERE in source, f"{WORDS_SCRIPT} has no place for the words"
    return source.replace(_WORDS_HERE, json.dumps(words, ensure_ascii=False, sort_keys=True))


def place(page: Any, parent: Any) -> tuple[str | None, str]:
    """Where a page outside the nav is, for the theme: the index page it hangs under (``parent``,
    the context's ``kb_parent``; its source path, None: none) and the folder of its URL (the
    theme's links are relative to it)."""
    index = getattr(getattr(parent, "file", None), "src_uri", None)
    return index, posixpath.dirname(page.url.rstrip("/"))


class Parts:
    """The made parts of one build, by (part, parent page, URL folder)."""

    def __init__(self, in_nav: Collection[str]) -> None:
        self._in_nav = in_nav  # source paths of the pages in the nav
        self._made: dict[str, str] = {}
        self.reused = 0  # parts not made again

    def __len__(self) -> int:
        return len(self._made)

    def key(self, part: str, page: Any, parent: Any = None) -> str | None:
        """Where ``part`` of ``page`` (under ``parent``: :func:`place`) is kept; None: made for this page alone."""
        if page is None or getattr(page, "file", None) is None or page.file.src_uri in self._in_nav:
            return None
        parent, folder = place(page, parent)
        return f"{part}\0{parent}\0{folder}"

    def get(self, key: str | None) -> str | None:
        made = None if key is None else self._made.get(key)
        self.reused += made is not None
        return made

    def keep(self, key: str | None, made: str) -> str:
        if key is not None:
            self._made[key] = made
        return made


def install(
    env: Environment,
    theme_dirs: list[str],
    in_nav: Collection[str],
    compiled: Path | None = None,
    custom_dir: str | None = None,
) -> Parts:
    """Give the environment the package's templates (:data:`TEMPLATES`: after the project's
    ``custom_dir``, whose templates stay its own, and before the theme's), the templates
    ``kb_part_key``/``kb_part``/``kb_keep`` and Material's templates under ``material/`` (the
    overrides that remember a part include the original), and makes ``tojson`` write characters
    as they are, without blanks.  ``compiled``: a directory of the build's cache where Jinja keeps each template
    compiled, checked against its source (compiling Material's templates is a fair part of a warm
    build: docs/performance.md; ``kb preview`` uses the same directory).
    Compiled templates are code (marshal, and Jinja unpickles each one's checksum): ``compiled``
    is only ever the user's cache directory (:func:`kb.site.cache.location`), never a checkout."""
    if compiled is not None:
        compiled.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = FileSystemBytecodeCache(str(compiled))
    material = next(d for d in theme_dirs if Path(d).parts[-2:] == ("material", "templates"))
    loader: BaseLoader | None = env.loader
    loaders: list[BaseLoader] = [FileSystemLoader(custom_dir)] if custom_dir else []
    loaders.append(FileSystemLoader(TEMPLATES))
    loaders += [loader] if loader is not None else []
    env.loader = LeanLoader(ChoiceLoader([*loaders, PrefixLoader({PREFIX: FileSystemLoader(material)})]))
    # tojson (Material's settings in every page, its interface words Chinese) writes characters as
    # they are, not as \uXXXX: half the bytes; <, >, & and ' stay escaped, the pages are UTF-8; and
    # no blank after a comma or colon
    json_kwargs = {"ensure_ascii": False, "separators": (",", ":")}
    env.policies["json.dumps_kwargs"] = {**env.policies.get("json.dumps_kwargs", {}), **json_kwargs}
    parts = Parts(in_nav)
    env.globals.update(kb_part_key=parts.key, kb_part=parts.get, kb_keep=parts.keep)
    return parts
