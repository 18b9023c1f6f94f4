"""Hand-written pages and files under docs/: the rules a pull request's docs/ must obey.

- **Template code.** Only pages named in the reviewed list ``hooks/template_pages.txt`` are
  templates, and a template may only call the registered macros with literal arguments
  (:mod:`kb.data.template`); any other page containing template syntax is refused.
- **Front matter** is read with the data rules (no aliases, tags, duplicate keys, limits)
  and has a schema (:data:`FRONT_MATTER`): known keys, typed; ``template:`` only from
  :data:`THEME_TEMPLATES`.
- **Files**: names match :data:`SAFE_NAME`; ``.html``, ``.svg``, ``.js`` and other active
  types only at paths listed in ``hooks/static_files.txt``; symlinks and special files are
  refused; every file is size-checked before it is read.

Every problem is a located :class:`Diagnostic` (``docs/…:line:col``); the build
(:mod:`kb.site.plugin`) raises the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from kb.data import template as tpl
from kb.data.diagnostics import Diagnostic, KeyPath, Severity
from kb.data.safefile import Refused, read_limited, walk
from kb.data.yamlstrict import Limits, decode, load_text

if TYPE_CHECKING:
    from kb.knowledge.index import KnowledgeBase

TEMPLATE_LIST = Path("hooks") / "template_pages.txt"  # relative to the project root (where kb and mkdocs run)
STATIC_LIST = Path("hooks") / "static_files.txt"  # reviewed .html/.svg/.js/... files under docs/
_TEMPLATE = re.compile(r"\{\{|\{%|\{#|\}\}|%\}")
_RENDER = re.compile(r"^render_macros[ \t]*:", re.MULTILINE)

PAGE_LIMITS = Limits(max_bytes=4 * 1024 * 1024)
ASSET_MAX_BYTES = 8 * 1024 * 1024

# one path segment: starts with a letter or digit; letters, digits, '_', '-', '.'; no '..'
SAFE_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{0,99}")
SAFE_NAME = "segments of letters, digits, '_', '-' and '.', each starting with a letter or digit"
PAGE_SUFFIXES = frozenset({".md"})
ASSET_SUFFIXES = frozenset(
    {
        ".png",
        ".jpg",
        ".jpeg",
        ".gif",
        ".webp",
        ".avif",
        ".ico",
        ".pdf",
        ".css",
        ".txt",
        ".woff",
        ".woff2",
        ".bib",
        ".csv",
    }
)
# types a browser can run script in (or that load code) when served from the site's origin
ACTIVE_SUFFIXES = frozenset(
    {
        ".html",
        ".htm",
        ".xhtml",
        ".xht",
        ".shtml",
        ".svg",
        ".svgz",
        ".js",
        ".mjs",
        ".cjs",
        ".xml",
        ".xsl",
        ".xslt",
        ".wasm",
        ".swf",
        ".pdf.js",
        ".json",
        ".map",
        ".webmanifest",
    }
)

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


def read_list(path: Path) -> frozenset[str]:
    if not path.is_file():
        return frozenset()
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text("utf-8").splitlines())
    return frozenset(ln for ln in lines if ln)


def template_pages(list_file: Path | None = None) -> frozenset[str]:
    return read_list(list_file or TEMPLATE_LIST)


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


_where = tpl.where


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

    def at(keypath: KeyPath, message: str, value: bool = True) -> Diagnostic:
        line, col = located.value_where(keypath) if value else located.where(keypath)
        return Diagnostic(shown, line + 1, col, message, key=".".join(str(k) for k in keypath), code="front-matter")

    for key, value in data.items():
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


def vocabulary() -> Mapping[str, object]:
    """The registered macros (name -> function)."""
    from kb.site.macros import MACROS

    return MACROS


def template_diagnostics(
    text: str, shown: str, vocab: Mapping[str, object] | None = None
) -> tuple[list[tpl.Call], list[Diagnostic]]:
    """Calls in a template page's body, or located errors for what is not a macro call."""
    found = tpl.scan(text, vocab if vocab is not None else vocabulary(), body_start(text))
    out = []
    for p in found.problems:
        line, col = _where(text, p.offset)
        out.append(Diagnostic(shown, line, col, p.message, code="template"))
    if found.n_problems > len(found.problems):
        out.append(
            Diagnostic(
                shown, 1, 1, f"{found.n_problems - len(found.problems)} more template errors not shown", code="template"
            )
        )
    return found.calls, out


def check_page(
    rel: str, text: str, shown: str, allowed: frozenset[str], vocab: Mapping[str, object] | None = None
) -> list[Diagnostic]:
    is_template = rel in allowed
    fm = front_matter_diagnostics(text, shown, template_page=is_template)
    if any(d.code != "front-matter" for d in fm):
        return fm  # unreadable front matter: the rest of the page is not looked at
    if is_template:
        return fm + template_diagnostics(text, shown, vocab)[1]
    out = list(fm)
    fm_end = _front_matter_end(text)
    if not any(d.key == "render_macros" for d in fm):
        for m in _RENDER.finditer(text, 0, fm_end):
            line, col = _where(text, m.start())
            out.append(
                Diagnostic(
                    shown,
                    line,
                    col,
                    "render_macros is only allowed on pages listed in hooks/template_pages.txt",
                    key="render_macros",
                    code="template",
                )
            )
    found = _TEMPLATE.search(text, fm_end)
    if found:
        line, col = _where(text, found.start())
        out.append(
            Diagnostic(
                shown,
                line,
                col,
                f"template syntax '{found.group()}' in a page that is not in hooks/template_pages.txt; "
                "pages are not templates (write it as text, e.g. in a code span, or ask for review)",
                code="template",
            )
        )
    return out


def read_page(path: Path, shown: str | None = None, root: Path | None = None) -> tuple[str | None, list[Diagnostic]]:
    """A page's text (BOM and CRLF handled like data), or a located reason it cannot be read.
    Symlinks, special files and files over the limit are refused before reading."""
    shown = shown or str(path)
    try:
        raw = read_limited(path, PAGE_LIMITS.max_bytes, root)
    except Refused as exc:
        return None, [Diagnostic(shown, 1, 1, f"{exc}", code="io")]
    return decode(raw, shown, PAGE_LIMITS)


def _list_for(docs_dir: Path, list_file: Path | None, default: Path = TEMPLATE_LIST) -> Path:
    # the reviewed lists live in the project beside docs/, wherever kb runs from
    return list_file or docs_dir.parent / default


def file_diagnostic(
    rel: str, kind: str, shown: str, reviewed: frozenset[str], size: int | None = None
) -> Diagnostic | None:
    """Why the file ``rel`` under docs/ may not be published, or None."""
    if kind == "symlink":
        return Diagnostic(
            shown, 1, 1, "is a symbolic link; links under docs/ are refused (commit the file itself)", code="file"
        )
    if kind != "file":
        return Diagnostic(shown, 1, 1, "is not a regular file (a device, FIFO or socket); refused", code="file")
    parts = rel.split("/")
    if not all(SAFE_SEGMENT.fullmatch(p) and ".." not in p for p in parts):
        return Diagnostic(shown, 1, 1, f"file name not allowed: use {SAFE_NAME}", code="file-name")
    suffix = ("." + parts[-1].rsplit(".", 1)[1].lower()) if "." in parts[-1] else ""
    if suffix in PAGE_SUFFIXES:
        if size is not None and size > PAGE_LIMITS.max_bytes:
            return Diagnostic(
                shown, 1, 1, f"file is {size} bytes; the limit is {PAGE_LIMITS.max_bytes} bytes", code="limit"
            )
        return None
    if suffix in ACTIVE_SUFFIXES or suffix not in ASSET_SUFFIXES:
        if rel in reviewed:
            return None
        what = "can run script when served from the site" if suffix in ACTIVE_SUFFIXES else "is not a known asset type"
        return Diagnostic(
            shown,
            1,
            1,
            f"a '{suffix or 'no extension'}' file {what}: allowed only at paths listed in "
            f"hooks/static_files.txt (reviewed by a maintainer)",
            code="file",
        )
    if size is not None and size > ASSET_MAX_BYTES:
        return Diagnostic(shown, 1, 1, f"file is {size} bytes; the limit is {ASSET_MAX_BYTES} bytes", code="limit")
    return None


def check_pages(
    docs_dir: Path, list_file: Path | None = None, static_list: Path | None = None, html: bool = True
) -> list[Diagnostic]:
    """Every file under ``docs_dir``: names, types, links, sizes; pages: front matter, template
    code; with ``html``, what the sanitizer would strip from the rendered page (warnings)."""
    allowed = template_pages(_list_for(docs_dir, list_file))
    reviewed = read_list(_list_for(docs_dir, static_list, STATIC_LIST))
    vocab = None
    out: list[Diagnostic] = []
    for entry in walk(docs_dir):
        if any(p.startswith(".") for p in entry.rel.split("/")):
            continue  # MkDocs never publishes dot files
        shown = str(entry.path)
        size = entry.path.lstat().st_size if entry.kind == "file" else None
        problem = file_diagnostic(entry.rel, entry.kind, shown, reviewed, size)
        if problem is not None:
            out.append(problem)
            continue
        if not entry.rel.endswith(".md"):
            continue
        text, problems = read_page(entry.path, shown, docs_dir)
        if text is None:
            out.extend(problems)
            continue
        if vocab is None and entry.rel in allowed:
            vocab = vocabulary()
        diags = check_page(entry.rel, text, shown, allowed, vocab)
        out.extend(diags)
        if html and not any(d.is_error for d in diags):
            from kb.site.sanitize import page_findings

            out.extend(page_findings(text, body_start(text), shown, docs_dir.parent / "mkdocs.yml"))
    return out


def check_macro_refs(docs_dir: Path, kb: KnowledgeBase, list_file: Path | None = None) -> list[Diagnostic]:
    """Template pages name sections and briefs in macro calls; each must exist, or the
    build would stop on a macro error.  Located like any data error."""
    out = []
    for rel in sorted(template_pages(_list_for(docs_dir, list_file))):
        path = docs_dir / rel
        if not path.is_file():
            continue
        text, _ = read_page(path, None, docs_dir)
        if text is None:
            continue  # already reported by check_pages
        calls, problems = template_diagnostics(text, str(path))
        if problems:
            continue  # already reported by check_pages
        for call in calls:
            ref = _reference(call)
            if ref is None:
                continue
            kind, value = ref
            known = value in kb.briefs if kind == "brief" else kb.find_section(value) is not None
            if not known:
                line, col = _where(text, call.start)
                out.append(
                    Diagnostic(
                        str(path),
                        line,
                        col,
                        f"{call.name}() names unknown {kind} '{value}'",
                        key=call.name,
                        code="macro-ref",
                    )
                )
    return out


def _reference(call: tpl.Call) -> tuple[str, str] | None:
    if call.name not in ("section", "section_heading", "anchored_papers", "brief"):
        return None
    value = call.args[0] if call.args else dict(call.kwargs).get("key" if call.name == "brief" else "section_id")
    if not isinstance(value, str):
        return None
    return ("brief" if call.name == "brief" else "section"), value


__all__ = ["Severity", "check_macro_refs", "check_page", "check_pages", "read_page", "template_pages"]
