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
from typing import TYPE_CHECKING

from kb.data import template as tpl
from kb.data.diagnostics import Diagnostic, Severity
from kb.data.frontmatter import _front_matter_end, front_matter_diagnostics
from kb.data.frontmatter import body_start as body_start  # also the plugin's
from kb.data.safefile import Entry, Refused, read_limited, walk
from kb.data.shapes import shape_diagnostics
from kb.data.yamlstrict import Limits, decode

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


_where = tpl.where


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
    slow = shape_diagnostics(text, body_start(text), shown)  # before any rendering (kb.data.shapes)
    if is_template:
        return fm + template_diagnostics(text, shown, vocab)[1] + slow
    out = fm + slow
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


def check_pages(
    docs_dir: Path, list_file: Path | None = None, static_list: Path | None = None, html: bool = True
) -> list[Diagnostic]:
    """Every file under ``docs_dir``: names, types, links, sizes; pages: front matter, template
    code; with ``html``, what the sanitizer would strip from the rendered page (warnings)."""
    allowed = template_pages(_list_for(docs_dir, list_file))
    reviewed = read_list(_list_for(docs_dir, static_list, STATIC_LIST))
    vocab = None
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
        if vocab is None and entry.rel in allowed:
            vocab = vocabulary()
        diags = check_page(entry.rel, text, shown, allowed, vocab)
        out.extend(diags)
        if html and not any(d.is_error for d in diags):
            from kb.site.sanitize import page_findings

            out.extend(page_findings(text, body_start(text), shown, docs_dir.parent / "mkdocs.yml"))
            if entry.rel in allowed:  # each macro call where text goes, as the build checks it
                from kb.site.placement import page_diagnostics

                calls = template_diagnostics(text, shown, vocab)[0]
                out.extend(page_diagnostics(text, body_start(text), shown, calls, docs_dir.parent / "mkdocs.yml"))
    return out


def macro_diagnostics(
    text: str, shown: str, calls: list[tpl.Call], kb: KnowledgeBase, default_topic: str
) -> list[Diagnostic]:
    """Macro calls whose arguments the build would refuse (:func:`kb.site.macros.problems`: types,
    ranges, known topics, sections and briefs), located at the call: validate and build run this."""
    from kb.site.macros import problems

    out = []
    for call in calls:
        for why in problems(kb, default_topic, call):
            line, col = _where(text, call.start)
            out.append(Diagnostic(shown, line, col, f"{call.render()}: {why}", key=call.name, code="macro-argument"))
    return out


def check_macro_refs(docs_dir: Path, kb: KnowledgeBase, list_file: Path | None = None) -> list[Diagnostic]:
    """Template pages' macro calls with arguments the build would refuse (:func:`macro_diagnostics`;
    a call without a topic uses the first topic, as the build does when mkdocs.yml names none)."""
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
        out.extend(macro_diagnostics(text, str(path), calls, kb, next(iter(kb.topics), "")))
    return out


__all__ = [
    "Severity",
    "check_macro_refs",
    "check_page",
    "check_pages",
    "macro_diagnostics",
    "read_page",
    "template_pages",
]
