"""Hand-written pages and files under docs/: the rules a pull request's docs/ must obey.

- **Template code.** Only pages named in the reviewed list ``hooks/template_pages.txt`` are
  templates, and a template may only call the registered macros with literal arguments
  (:mod:`kb.data.template`); any other page containing template syntax is refused.
- **Front matter** is read with the data rules (no aliases, tags, duplicate keys, limits)
  and has a schema (:data:`FRONT_MATTER`): known keys, typed; ``template:`` only from
  :data:`THEME_TEMPLATES`.
- **Markdown shapes** that Python-Markdown converts in more than linear time are refused
  before any rendering (:mod:`kb.data.shapes`).
- **Files**: names match :data:`SAFE_NAME`; ``.html``, ``.svg``, ``.js`` and other active
  types, and style sheets (``.css``), only at paths listed in ``hooks/static_files.txt``; symlinks and special files are
  refused; every file is size-checked before it is read.

Every problem is a located :class:`Diagnostic` (``docs/…:line:col``); the build
(:mod:`kb.site.plugin`) raises the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from kb.data import template as tpl
from kb.data.diagnostics import Diagnostic, Severity, line_col
from kb.data.frontmatter import _front_matter_end, front_matter_diagnostics
from kb.data.frontmatter import body_start as body_start  # also the plugin's
from kb.data.safefile import Entry, Refused, read_limited, walk
from kb.data.shapes import shape_diagnostics
from kb.data.yamlstrict import Limits, decode

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
        ".txt",
        ".woff",
        ".woff2",
        ".bib",
        ".csv",
    }
)
# style sheets: a contributed one could lay a fixed overlay over every page or load from another
# site (@import, url()); reviewed like the active types
STYLE_SUFFIXES = frozenset({".css"})
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


def read_list(path: Path) -> frozenset[str]:
    if not path.is_file():
        return frozenset()
    lines = (ln.split("#", 1)[0].strip() for ln in path.read_text("utf-8").splitlines())
    return frozenset(ln for ln in lines if ln)


def template_pages(list_file: Path | None = None) -> frozenset[str]:
    return read_list(list_file or TEMPLATE_LIST)


def template_diagnostics(text: str, shown: str, vocab: Mapping[str, object]) -> tuple[list[tpl.Call], list[Diagnostic]]:
    """Calls in a template page's body of the macros in ``vocab`` (name -> function:
    :data:`kb.render.macros.MACROS`), or located errors for what is not such a call."""
    found = tpl.scan(text, vocab, body_start(text))
    out = []
    for p in found.problems:
        line, col = line_col(text, p.offset)
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
    """The page ``rel`` (``shown`` in messages): front matter, shapes, template syntax; a page of
    ``allowed`` is a template whose calls are of the macros in ``vocab``."""
    is_template = rel in allowed
    fm = front_matter_diagnostics(text, shown, template_page=is_template)
    if any(d.code != "front-matter" for d in fm):
        return fm  # unreadable front matter: the rest of the page is not looked at
    slow = shape_diagnostics(text, body_start(text), shown)  # before any rendering (kb.data.shapes)
    if is_template:
        return fm + template_diagnostics(text, shown, vocab or {})[1] + slow
    out = fm + slow
    fm_end = _front_matter_end(text)
    if not any(d.key == "render_macros" for d in fm):
        for m in _RENDER.finditer(text, 0, fm_end):
            line, col = line_col(text, m.start())
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
    for found in _TEMPLATE.finditer(text, fm_end):  # every one, code spans and blocks too
        line, col = line_col(text, found.start())
        out.append(
            Diagnostic(
                shown,
                line,
                col,
                f"template syntax '{found.group()}' in a page that is not in hooks/template_pages.txt: "
                "pages are not templates (nothing runs it, and it may not stand here); write a brace "
                "that is text as &#123; or &#125;, or ask a reviewer to list the page as a template",
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
    if suffix in ACTIVE_SUFFIXES or suffix in STYLE_SUFFIXES or suffix not in ASSET_SUFFIXES:
        if rel in reviewed:
            return None
        what = (
            "can run script when served from the site"
            if suffix in ACTIVE_SUFFIXES
            else "restyles every page that loads it (overlays, loads from other sites)"
            if suffix in STYLE_SUFFIXES
            else "is not a known asset type"
        )
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


def published_files(
    docs_dir: Path, reviewed: frozenset[str], shown: Callable[[Entry], str]
) -> Iterator[tuple[Entry, Diagnostic | None]]:
    """Every file under ``docs_dir`` MkDocs would publish (not dot files), with why it may not
    be published (:func:`file_diagnostic`, named ``shown(entry)``) or None."""
    for entry in walk(docs_dir):
        if any(p.startswith(".") for p in entry.rel.split("/")):
            continue  # MkDocs never publishes dot files
        size = entry.path.lstat().st_size if entry.kind == "file" else None
        yield entry, file_diagnostic(entry.rel, entry.kind, shown(entry), reviewed, size)


PageCheck = Callable[[str, str, str, bool], list[Diagnostic]]  # rel, text, shown, is a template page


def check_pages(
    docs_dir: Path,
    vocab: Mapping[str, object],
    more: PageCheck | None = None,
    list_file: Path | None = None,
    static_list: Path | None = None,
) -> list[Diagnostic]:
    """Every file under ``docs_dir``: names, types, links, sizes; pages: front matter, template
    code (calls of the macros in ``vocab``); ``more``: what else to check of a page with no error
    so far (:func:`kb.render.pagecheck.check_pages`: what the build's sanitizer would strip)."""
    allowed = template_pages(_list_for(docs_dir, list_file))
    reviewed = read_list(_list_for(docs_dir, static_list, STATIC_LIST))
    out: list[Diagnostic] = []
    for entry, problem in published_files(docs_dir, reviewed, lambda e: str(e.path)):
        shown = str(entry.path)
        if problem is not None:
            out.append(problem)
            continue
        if not entry.rel.endswith(".md"):
            continue
        text, problems = read_page(entry.path, shown, docs_dir)
        if text is None:
            out.extend(problems)
            continue
        diags = check_page(entry.rel, text, shown, allowed, vocab)
        out.extend(diags)
        if more is not None and not any(d.is_error for d in diags):
            out.extend(more(entry.rel, text, shown, entry.rel in allowed))
    return out


def template_calls(
    docs_dir: Path, vocab: Mapping[str, object], list_file: Path | None = None
) -> Iterator[tuple[str, str, list[tpl.Call]]]:
    """Each readable template page's path (as shown), text and macro calls, when they all are
    calls of ``vocab`` (the pages :func:`check_pages` finds no error in)."""
    for rel in sorted(template_pages(_list_for(docs_dir, list_file))):
        path = docs_dir / rel
        if not path.is_file():
            continue
        text, _ = read_page(path, None, docs_dir)
        if text is None:
            continue  # already reported by check_pages
        calls, problems = template_diagnostics(text, str(path), vocab)
        if not problems:  # (else already reported by check_pages)
            yield str(path), text, calls


__all__ = [
    "Severity",
    "check_page",
    "check_pages",
    "read_page",
    "template_pages",
]
