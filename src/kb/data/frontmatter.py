"""Page metadata of hand-written pages, in both forms MkDocs reads (``mkdocs.utils.meta.get_data``):
YAML front matter between ``---`` lines, read with the strict YAML reader of data; and, in a page
without it, MultiMarkdown-style ``key: value`` lines at the page's start up to the first blank
line.  Each key is checked against :data:`FRONT_MATTER` at its line (the keys the theme prints
are refused), and :func:`allowed_meta` is what the build lets through to the theme."""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from datetime import date

from kb.data.diagnostics import Diagnostic, KeyPath
from kb.data.yamlstrict import Located, load_text

# Front matter of hand-written pages: key -> kind.  Everything else is refused, because
# the theme prints some keys raw (subtitle, status, author, location with template redirect).
FRONT_MATTER: dict[str, str] = {
    "title": "line",  # shown in <title>, the nav and the header: escaped by the kb plugin
    "description": "line",  # <meta name="description">: escaped by the kb plugin
    "hide": "hide",  # Material: list of navigation, toc, footer, path, tags, feedback
    "search": "search",  # Material/search plugin: {exclude: bool} or {boost: number}
    "template": "template",  # only from THEME_TEMPLATES
    "render_macros": "bool",  # only on pages in hooks/template_pages.txt (no effect: listed pages are templates)
}
HIDE = frozenset({"navigation", "toc", "footer", "path", "tags", "feedback"})
THEME_TEMPLATES = frozenset({"main.html"})
MAX_LINE = {"title": 200, "description": 500}


_FILLERS = frozenset("\u115f\u1160\u3164\uffa0")  # Hangul fillers: blank letters


def control_free(text: str) -> bool:
    """No control characters (Cc) or invisible formatting characters (Cf: bidi controls,
    zero-width joiners, soft hyphen, TAG characters, ...) or blank Hangul fillers."""
    import unicodedata

    return not any(unicodedata.category(ch) in ("Cc", "Cf") or ch in _FILLERS for ch in text)


# the same rule MkDocs uses to find front matter (mkdocs.utils.meta): "---" with optional
# trailing blanks, closed by "---" or "..."
_FRONT = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def _front_matter(text: str) -> tuple[int, int]:
    """(start, end) of the YAML inside the front matter, or (0, 0)."""
    m = _FRONT.match(text)
    return (m.start(1), m.end(1)) if m else (0, 0)


def _front_matter_end(text: str) -> int:
    m = _FRONT.match(text)
    return m.end() if m else 0


# MkDocs' second form (mkdocs.utils.meta): its own patterns for a "key: value" line and for a
# line continuing the last value (indented by four spaces or a tab)
_META = re.compile(r"^[ ]{0,3}(?P<key>[A-Za-z0-9_-]+):\s*(?P<value>.*)")
_META_MORE = re.compile(r"^([ ]{4}|\t)(\s*)(?P<value>.*)")


@dataclass
class MetaLine:
    """One key of MultiMarkdown-style metadata: its name as MkDocs keeps it (lower case), its value
    (continuation lines joined with a space, as MkDocs joins them) and where they are written."""

    key: str
    value: str
    line: int
    col: int
    value_col: int


def metadata_lines(text: str) -> tuple[list[MetaLine], int]:
    """The MultiMarkdown-style metadata MkDocs reads from ``text`` (none when the page has ``---``
    front matter) and where its Markdown starts, line by line as ``mkdocs.utils.meta.get_data``
    reads it.  A key given twice is listed twice (MkDocs joins the values)."""
    if _FRONT.match(text):
        return [], body_start(text)
    found: list[MetaLine] = []
    pos, line_no, end = 0, 1, len(text)
    while pos <= len(text):
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        line = text[pos:stop]
        if line.strip() == "":  # a blank line ends it, and is no part of the Markdown
            end = stop + 1
            break
        if m := _META.match(line):
            value = m.group("value")
            col = m.start("value") + len(value) - len(value.lstrip()) + 1
            found.append(MetaLine(m.group("key").lower().strip(), value.strip(), line_no, m.start("key") + 1, col))
        elif (more := _META_MORE.match(line)) and found:
            found[-1].value += " " + more.group("value").strip()
        else:
            end = pos
            break
        pos, line_no = stop + 1, line_no + 1
    while end < len(text) and text[end] == "\n":
        end += 1
    return found, min(end, len(text))


def body_start(text: str) -> int:
    """Where MkDocs' Markdown starts: after the front matter (either form) and the blank lines after it."""
    end = _front_matter_end(text)
    if not end:
        return metadata_lines(text)[1]
    while end < len(text) and text[end] == "\n":
        end += 1
    return end


def front_matter_diagnostics(text: str, shown: str, template_page: bool = True) -> list[Diagnostic]:
    """Front matter of a page, read with the same strict rules as data (no aliases, tags,
    duplicate keys; size and depth limits), before MkDocs' own YAML reader sees it; then
    checked against :data:`FRONT_MATTER`."""
    start, end = _front_matter(text)
    if not end:
        return _metadata_diagnostics(text, shown, template_page)
    located, diags = load_text(text[start:end], shown)
    out = [Diagnostic(d.path, d.line + 1, d.col, d.message, d.key, d.severity, d.code) for d in diags]
    if located is None or out:
        return out
    data = located.data
    if not isinstance(data, dict):  # MkDocs would show it as text (empty, or not a mapping)
        return [Diagnostic(shown, 2, 1, "front matter must be a mapping of keys (title: …)", code="front-matter")]

    for key, value in data.items():
        out.extend(_key_diagnostics(_At(located, shown), key, value, template_page))
    return out


# the kinds a "key: value" line can give (its value is text); the others need "---" front matter
_TEXT_KINDS = frozenset({"line", "template"})
_LINES_FORM = "MkDocs reads 'key: value' lines at the start of a page without '---' front matter as its metadata"


def _metadata_diagnostics(text: str, shown: str, template_page: bool) -> list[Diagnostic]:
    """MultiMarkdown-style metadata (:func:`metadata_lines`): each key checked by the same allowlist
    as front matter, at its line; a value that is not text, or a key given twice, is refused."""
    out: list[Diagnostic] = []
    seen: set[str] = set()
    for meta in metadata_lines(text)[0]:

        def at(keypath: KeyPath, message: str, value: bool = True, meta: MetaLine = meta) -> Diagnostic:
            return Diagnostic(
                shown, meta.line, meta.value_col if value else meta.col, message, meta.key, code="front-matter"
            )

        kind = FRONT_MATTER.get(meta.key)
        if meta.key in seen:
            out.append(at((meta.key,), f"page metadata '{_shown(meta.key)}' is given twice ({_LINES_FORM})", False))
        elif kind is None:
            allowed = ", ".join(k for k, v in FRONT_MATTER.items() if v in _TEXT_KINDS)
            out.append(
                at(
                    (meta.key,),
                    f"page metadata '{_shown(meta.key)}' is not allowed ({_LINES_FORM}); allowed: {allowed}; "
                    "to start the page with this text, put a heading or a blank line before it",
                    value=False,
                )
            )
        elif kind in _TEXT_KINDS or (kind == "bool" and not template_page):
            out.extend(_key_diagnostics(at, meta.key, meta.value, template_page))
        else:
            out.append(
                at((meta.key,), f"{meta.key} can only be given in '---' front matter ({_LINES_FORM}: text only)")
            )
        seen.add(meta.key)
    return out


class _At:
    """Diagnostics located at a front-matter key or its value (lines counted from the page's start)."""

    def __init__(self, located: Located, shown: str) -> None:
        self.located, self.shown = located, shown

    def __call__(self, keypath: KeyPath, message: str, value: bool = True) -> Diagnostic:
        line, col = self.located.value_where(keypath) if value else self.located.where(keypath)
        key = ".".join(str(k) for k in keypath)
        return Diagnostic(self.shown, line + 1, col, message, key=key, code="front-matter")


_Locate = Callable[..., Diagnostic]  # (keypath, message, value=True) -> a located diagnostic


def _key_diagnostics(at: _Locate, key: str, value: object, template_page: bool) -> list[Diagnostic]:
    """What is wrong with one front-matter key and its value."""
    out: list[Diagnostic] = []
    kind = FRONT_MATTER.get(key)
    if kind is None:
        out.append(
            at(
                (key,),
                f"front-matter key '{_shown(key)}' is not allowed; allowed: {', '.join(FRONT_MATTER)}",
                value=False,
            )
        )
    elif kind == "line":
        if not isinstance(value, str) or "\n" in value:
            out.append(at((key,), f"{key} must be one line of text"))
        elif len(value) > MAX_LINE[key]:
            out.append(at((key,), f"{key} is longer than {MAX_LINE[key]} characters"))
        elif not control_free(value):
            out.append(at((key,), f"{key} contains control or invisible formatting characters"))
    elif kind == "hide":
        if not isinstance(value, list) or not all(isinstance(v, str) and v in HIDE for v in value):
            out.append(at((key,), f"hide must be a list of: {', '.join(sorted(HIDE))}"))
    elif kind == "search":
        ok = (
            isinstance(value, dict)
            and set(value) <= {"exclude", "boost"}
            and isinstance(value.get("exclude", False), bool)
            and (
                value.get("boost") is None
                or (isinstance(value["boost"], (int, float)) and not isinstance(value["boost"], bool))
            )
        )
        if not ok:
            out.append(at((key,), "search must be a mapping with exclude: true/false and/or boost: <number>"))
    elif kind == "template":
        if value not in THEME_TEMPLATES:
            out.append(
                at(
                    (key,),
                    f"template '{_shown(value)}' is not allowed; allowed: {', '.join(sorted(THEME_TEMPLATES))}",
                )
            )
    elif kind == "bool":
        if not template_page:
            d = at((key,), "render_macros is only allowed on pages listed in hooks/template_pages.txt", value=False)
            out.append(Diagnostic(d.path, d.line, d.col, d.message, d.key, d.severity, "template"))
        elif not isinstance(value, bool):
            out.append(at((key,), f"{key} must be true or false"))
    return out


def _nowhere(keypath: KeyPath, message: str, value: bool = True) -> Diagnostic:
    return Diagnostic("", 1, 1, message)


def allowed_meta(meta: MutableMapping[str, object], template_page: bool) -> list[str]:
    """Remove from ``meta`` (a page's metadata as MkDocs read it) every key :data:`FRONT_MATTER`
    does not allow or whose value it refuses; the keys removed, in order.  A line that MkDocs'
    YAML reader took for a number, a date or a boolean (``title: 2026-09-01``; the strict reader
    keeps it as text) is text again, as the theme would print it."""
    for key, value in meta.items():
        if FRONT_MATTER.get(key) == "line" and isinstance(value, (int, float, date)):  # bool is an int
            meta[key] = str(value)
    dropped = [
        key
        for key, value in meta.items()
        if not isinstance(key, str) or _key_diagnostics(_nowhere, key, value, template_page)
    ]
    for key in dropped:
        del meta[key]
    return [str(key) for key in dropped]


def _shown(value: object) -> str:
    text = str(value)
    return (text[:60] + "…" if len(text) > 60 else text).encode("unicode_escape").decode("ascii")
