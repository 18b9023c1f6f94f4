"""Front matter of hand-written pages: found by MkDocs' own rule, read with the strict YAML
reader of data, and checked against :data:`FRONT_MATTER` (the keys the theme prints are refused)."""

from __future__ import annotations

import re

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


def body_start(text: str) -> int:
    """Where MkDocs' Markdown starts: after the front matter and the blank lines after it."""
    end = _front_matter_end(text)
    if not end:
        return 0
    while end < len(text) and text[end] == "\n":
        end += 1
    return end


def front_matter_diagnostics(text: str, shown: str, template_page: bool = True) -> list[Diagnostic]:
    """Front matter of a page, read with the same strict rules as data (no aliases, tags,
    duplicate keys; size and depth limits), before MkDocs' own YAML reader sees it; then
    checked against :data:`FRONT_MATTER`."""
    start, end = _front_matter(text)
    if not end:
        return []
    located, diags = load_text(text[start:end], shown)
    out = [Diagnostic(d.path, d.line + 1, d.col, d.message, d.key, d.severity, d.code) for d in diags]
    if located is None or out:
        return out
    data = located.data
    if data is None:
        return []
    if not isinstance(data, dict):
        return [Diagnostic(shown, 2, 1, "front matter must be a mapping of keys (title: …)", code="front-matter")]

    for key, value in data.items():
        out.extend(_key_diagnostics(_At(located, shown), key, value, template_page))
    return out


class _At:
    """Diagnostics located at a front-matter key or its value (lines counted from the page's start)."""

    def __init__(self, located: Located, shown: str) -> None:
        self.located, self.shown = located, shown

    def __call__(self, keypath: KeyPath, message: str, value: bool = True) -> Diagnostic:
        line, col = self.located.value_where(keypath) if value else self.located.where(keypath)
        key = ".".join(str(k) for k in keypath)
        return Diagnostic(self.shown, line + 1, col, message, key=key, code="front-matter")


def _key_diagnostics(at: _At, key: str, value: object, template_page: bool) -> list[Diagnostic]:
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


def _shown(value: object) -> str:
    text = str(value)
    return (text[:60] + "…" if len(text) > 60 else text).encode("unicode_escape").decode("ascii")
