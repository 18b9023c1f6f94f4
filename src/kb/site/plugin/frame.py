"""Pages outside the nav rendered into a frame: the theme's page made once, each page's own values filled in.

Material renders its whole page template for every page.  For a page outside the nav (every brief
and paper page) nearly all of it depends only on the kind of page: the index page it hangs under
and the folder of its URL (as :mod:`kb.site.theme`'s parts), whether it has a canonical address,
a description, a table of contents.  What is its own is a handful of values: its title, meta
title and description, canonical address, content, the first entry of its table of contents (the
skip link), its two tables of contents (the sidebar and the box above the article) and the feed
links of its head, each a ``slot`` of the theme's ``partials/kb-slot.html``.

:class:`Frames` renders the page template once per kind with a stand-in page (:class:`_Stand`)
whose own values are marks, cuts the result at the marks (:class:`Frame`), and fills each page of
that kind in: its values, and its tables of contents and feed links made by their own templates
(the theme's ``kb-slots.html``, ``partials/kb-feeds.html``).  The first page of each kind is also
rendered in full and compared: a frame that does not give the same text is not used (pages of
that kind are rendered in full).  A page whose title or address the templates would print
differently in different places (through ``striptags`` in one, ``e`` in another: one with ``&``,
``<`` or a run of spaces) is rendered in full too.

Nothing here imports MkDocs: a page is anything with the attributes the templates read; the
plugin gives each page's template context.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from jinja2 import Environment

from kb.site.cache import TEMPLATE  # prints page.content: here the whole page, made by Frames
from kb.site.theme import place

__all__ = ["SLOTS", "TEMPLATE", "Frame", "Frames"]

SLOTS = "kb-slots.html"  # the theme's (kb/theme/templates): a page's own parts, kb_slot_gap between them
FEEDS = "partials/kb-feeds.html"  # the theme's: the feed links of a page's head (a paper page's are its topics')
_OWN_META = ("title", "description")  # page.meta entries that are a page's own values
# Entries of MkDocs' template context that differ from page to page but are no part of the page:
# the documentation files (a new list for each page) and the time of the call.
_UNPRINTED = ("page", "pages", "build_date_utc")
_PLACED = ("kb_parent", "kb_ancestors")  # the kb plugin's, for the index page the page hangs under: in place()
_PRINTED_APART = re.compile(r"[&<>\"'\x00]")  # what striptags or e would print differently


def _plain(text: object) -> bool:
    """Whether every filter the templates use prints ``text`` as it is."""
    return isinstance(text, str) and bool(text) and not _PRINTED_APART.search(text) and text == " ".join(text.split())


def _fixed(value: object) -> object:
    """A template context entry as part of a kind of page: its value if it is text or a list of
    texts (the page's base URL, its stylesheets' and scripts' addresses), else the object itself."""
    if isinstance(value, str | int | float | bool | None):
        return value
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    return id(value)


@dataclass(frozen=True)
class Frame:
    """A page of one kind with its own values left out: constant text and value names, alternately."""

    pieces: tuple[str, ...]

    @classmethod
    def cut(cls, made: str, token: str) -> Frame:
        return cls(tuple(re.split(f"{token}(.+?){token}", made)))

    def fill(self, values: Mapping[str, str]) -> str | None:
        """The page with ``values`` in place; None if the frame has a place the values lack."""
        out = list(self.pieces)
        try:
            out[1::2] = [values[name] for name in self.pieces[1::2]]
        except KeyError:
            return None
        return "".join(out)


@dataclass(frozen=True)
class _Entry:
    """The first entry of the stand-in's table of contents (the skip link's target)."""

    url: str


class _Seen:
    """A page as the templates see it: the page's attributes, but for those set here."""

    def __init__(self, page: Any) -> None:
        self._page = page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)


class _Stand(_Seen):
    """A page as the frame's render sees it: its own values are marks."""

    def __init__(self, page: Any, mark: Any) -> None:
        super().__init__(page)
        self.title = mark("title")
        self.content = mark("content<h1" if "<h1" in page.content else "content")  # content.html looks for <h1
        self.canonical_url = mark("canonical") if page.canonical_url else None
        self.meta = {k: mark(f"meta.{k}") if k in _OWN_META and v else v for k, v in page.meta.items()}
        self.toc = [_Entry("#" + mark("skip"))] if page.toc else []


class _Shown(_Seen):
    """A page whose table of contents the kb plugin gives (MkDocs learns only the page's ids)."""

    def __init__(self, page: Any, toc: Any) -> None:
        super().__init__(page)
        self.toc = toc


def _toc_key(toc: Any) -> tuple[object, ...] | None:
    """What the templates print of a page's table of contents (None: more than this knows of).
    Where its first entry is the page's title (level 1) with entries under it, both print those
    entries alone."""
    first = next(iter(toc), None)
    if first is not None and first.level == 1 and first.children:
        return _entries_key(first.children)
    whole = _entries_key(toc)
    return None if whole is None else ("whole", *whole)


def _entries_key(entries: Any) -> tuple[object, ...] | None:
    """Each entry's address, title and level, and its entries; None if one has a ``typeset``,
    which Material prints instead of its title."""
    key: list[object] = []
    for item in entries:
        children = _entries_key(item.children)
        if children is None or getattr(item, "typeset", None):
            return None
        key.append((item.url, item.title, item.level, children))
    return tuple(key)


class Frames:
    """The frames of one build, by kind of page, and what they did."""

    def __init__(self, in_nav: Collection[str]) -> None:
        self._env = Environment()  # the theme's, once it is made (:meth:`install`)
        self._in_nav = in_nav
        self._token = "kbframe" + secrets.token_hex(8)
        self._frames: dict[tuple[object, ...], Frame | None] = {}
        self._taken: dict[str, str] = {}  # src uri -> the template the page asked for
        self.filled = self.full = self.slots_reused = 0
        self._lang: Any = None  # Material's partials/language.html, made once
        self._made_slots: dict[tuple[object, ...], dict[str, str]] = {}  # by table of contents (_toc_key)
        self._made_feeds: dict[tuple[object, ...], str] = {}  # by the feeds and the folder of the URL

    def install(self, env: Environment) -> None:
        """Render with the theme's ``env`` and give its templates ``kb_slot`` and ``kb_slot_gap``."""
        self._env = env
        env.globals.update(kb_slot=self._slot, kb_slot_gap=self._token)

    def __str__(self) -> str:
        made = sum(f is not None for f in self._frames.values())
        refused = len(self._frames) - made
        return (
            f"theme frames: {made} made, {refused} refused, {self.filled} pages filled, {self.full} rendered in full"
            f" ({self.slots_reused} tables of contents reused)"
        )

    def _mark(self, name: str) -> str:
        return f"{self._token}{name}{self._token}"

    def _slot(self, name: str, page: Any) -> str | None:
        return self._mark(name) if isinstance(page, _Stand) else None

    def takes(self, page: Any) -> bool:
        """Whether :meth:`take` takes ``page``: outside the nav, and built (not a draft)."""
        return page.file.src_uri not in self._in_nav and not page.file.inclusion.is_excluded()

    def take(self, page: Any) -> None:
        """Render ``page`` here (:meth:`render`) if :meth:`takes` says so: its template becomes
        :data:`TEMPLATE`, which prints what :meth:`render` makes."""
        src = page.file.src_uri
        if self.takes(page):  # MkDocs marks a draft's content
            self._taken[src] = page.meta.get("template", "main.html")
            page.meta["template"] = TEMPLATE

    def render(self, page: Any, context: Mapping[str, Any], toc: Any = None) -> str | None:
        """The whole page for a page :meth:`take` took (None for any other), from its kind's frame
        if there is one that gives the same page as the template; shown with the table of contents
        ``toc`` where one is given (the templates see a :class:`_Shown` page)."""
        template = self._taken.pop(page.file.src_uri, None)
        if template is None:
            return None
        if toc is not None:
            page = _Shown(page, toc)
        context = {**context, "page": page}
        kind, values = self._kind(page, template, context), self._values(page)
        frame = self._frames.get(kind) if kind is not None and values is not None else None
        if frame is not None and values is not None:
            filled = frame.fill({**values, **self._slots(context)})
            if filled is not None:
                self.filled += 1
                return filled
        full = self._env.get_template(template).render(context)
        self.full += 1
        if kind is not None and values is not None and kind not in self._frames:
            self._frames[kind] = self._make(template, page, context, values, full)
        return full

    def _make(
        self, template: str, page: Any, context: Mapping[str, Any], values: Mapping[str, str], full: str
    ) -> Frame | None:
        """The frame of ``page``'s kind, if filling it with the page's values gives ``full`` (the page
        rendered in full); None: pages of this kind are rendered in full."""
        try:
            made = self._env.get_template(template).render({**context, "page": _Stand(page, self._mark)})
        except Exception:  # a template the stand-in cannot stand in for: the page itself rendered
            return None
        frame = Frame.cut(made, self._token)
        return frame if frame.fill({**values, **self._slots(context)}) == full else None

    def _slots(self, context: Mapping[str, Any]) -> dict[str, str]:
        """The page's own parts: its tables of contents (:meth:`_tocs`) and its feed links, made
        once for each list of feeds and folder of the URL (their links are relative to it)."""
        page = context["page"]
        feeds = self._env.globals.get("kb_page_feeds")
        key = (context.get("base_url"), repr(feeds(page.file.src_uri)) if callable(feeds) else None)
        made = self._made_feeds.get(key)
        if made is None:
            made = self._made_feeds[key] = self._env.get_template(FEEDS).render(context)
        return {**self._tocs(context), "feeds": made}

    def _tocs(self, context: Mapping[str, Any]) -> dict[str, str]:
        """The page's tables of contents.  Their templates read the page's table of contents and
        whether the page is in the nav (never, for a page taken), besides the theme's words and
        configuration (the same for every page of a build): pages with equal ones (most paper
        pages) share what the first of them made."""
        page = context["page"]
        key = _toc_key(page.toc)
        key = key if key is None else (*key, bool(page.meta.get("kb_subscribe")))  # listed last: kb-toc.html
        made = self._made_slots.get(key) if key is not None else None
        if made is not None:
            self.slots_reused += 1
            return made
        if self._lang is None:  # the theme's words: they depend on its configuration alone
            self._lang = self._env.get_template("partials/language.html").make_module(dict(context))
        toc, box = self._env.get_template(SLOTS).render({**context, "lang": self._lang}).split(self._token)
        made = {"toc": toc, "tocbox": box}
        if key is not None:
            self._made_slots[key] = made
        return made

    def _kind(self, page: Any, template: str, context: Mapping[str, Any]) -> tuple[object, ...] | None:
        """What the frame of ``page`` depends on besides its own values (the rest of its context
        too: what another plugin adds for each page); None: no frame for it."""
        if page.previous_page is not None or page.next_page is not None or page.edit_url:
            return None
        own = tuple(bool(page.meta.get(k)) for k in _OWN_META)
        rest = tuple(sorted((k, repr(v)) for k, v in page.meta.items() if k not in _OWN_META and k != "template"))
        around = tuple(sorted((k, _fixed(v)) for k, v in context.items() if k not in _UNPRINTED + _PLACED))
        has = (bool(page.canonical_url), "<h1" in page.content, bool(page.toc))
        return (template, *place(page, context.get("kb_parent")), has, own, rest, around)

    def _values(self, page: Any) -> dict[str, str] | None:
        """The page's own values as the templates print them; None if one is printed differently in different places."""
        values = {"title": page.title, "content": page.content, "content<h1": page.content}
        for key in _OWN_META:
            if page.meta.get(key):
                values[f"meta.{key}"] = page.meta[key]
        if not _plain(page.title) or ("meta.title" in values and not _plain(values["meta.title"])):
            return None
        if page.canonical_url:
            if not _plain(page.canonical_url):
                return None
            values["canonical"] = page.canonical_url
        if page.toc:
            first = next(iter(page.toc)).url
            if not first.startswith("#") or "\\" in first:  # the url filter changes a backslash (and warns)
                return None
            values["skip"] = first[1:]
        return values
